import Foundation
import TestSupport
import Testing

/// `assist ctl` and `assist console` against a running live session, through the built binary:
/// a real-time `assist see` on a video made here, driven from outside as a desktop shortcut
/// or a screen-reader user at a keyboard would.
@Suite("assist ctl and assist console drive a running session", .serialized)
struct CtlTests {
    /// A running `assist` with its own user folders, standard output read line by line as it is
    /// printed: the test waits for what the session says, never for a time.
    final class RunningAssist {
        let process = Process()
        let folder: URL
        let printed: PrintedLines
        let environment: [String: String]
        let input = Pipe()

        init(_ arguments: [String], folder: URL) throws {
            self.folder = folder
            let env = ProcessInfo.processInfo.environment.merging(AssistBinary.environment(scratch: folder)) { $1 }
            environment = env
            process.executableURL = AssistBinary.url
            process.arguments = AssistBinary.patient(arguments)
            process.currentDirectoryURL = AssistBinary.checkout
            process.environment = env
            let output = Pipe()
            process.standardOutput = output
            printed = PrintedLines(output.fileHandleForReading)
            process.standardError = FileHandle.nullDevice
            process.standardInput = input
            try process.run()
        }

        var output: String { printed.text }
        var socket: URL { folder.appendingPathComponent("run/assistivekit/control.sock") }

        /// Waits until what was printed satisfies `condition`, checked as each line arrives;
        /// false when the session ended (the video is over) without it.
        func waitForOutput(_ condition: @escaping (String) -> Bool) -> Bool {
            printed.wait { lines in condition(lines.joined(separator: "\n")) }
        }

        /// `assist ctl WORDS` in the same user's environment.
        func ctl(_ words: String...) throws -> AssistBinary.Output {
            try AssistBinary.run(["ctl"] + words, environment: environment)
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// Short: a Unix socket path must fit in 108 bytes.
    static func scratchFolder() throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("ctl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The bus picture as a 3-minute video at 2 frames a second: the session plays it in real time
    /// (it is driven from outside while it runs), and a loaded machine must not reach its end
    /// before the test is done with it; at 2 frames a second it costs less to make than 30 s at 10.
    static func longBusVideo(in folder: URL) throws -> URL {
        let video = folder.appendingPathComponent("bus.mp4")
        try Program.ffmpeg(["-loop", "1", "-framerate", "2", "-i", AssistBinary.image("bus.jpg"), "-t", "180", "-r", "2",
                            "-vf", "scale=640:480", "-pix_fmt", "yuv420p", video.path])
        return video
    }

    /// SubRip entries' texts, in order.
    static func transcriptTexts(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n\n").compactMap { entry in
            let lines = entry.split(separator: "\n", omittingEmptySubsequences: true)
            return lines.count >= 3 ? lines.dropFirst(2).joined(separator: " ") : nil
        }
    }

    @Test("assist ctl changes the mode, the categories and the threshold of a running assist see, and the transcript shows each effect")
    func ctlDrivesSee() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.longBusVideo(in: folder)
        let srt = folder.appendingPathComponent("session.srt")
        let see = try RunningAssist(["see", video.path, "--quiet", "--transcript", srt.path], folder: folder)
        defer { see.stop() }
        try #require(see.waitForOutput { $0.contains("Bus, ") }, "continuous mode announces the bus: \(see.output)")
        // Only the user may open the socket.
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: see.socket.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)

        let onDemand = try see.ctl("switch", "to", "on", "demand")
        #expect(onDemand.status == 0)
        #expect(onDemand.standardOutput == "On-demand scanning. Say scan now.\n")
        // People are prioritised by default, and a prioritised category is not ignored (by
        // command as in settings), so they stop being prioritised first.
        #expect(try see.ctl("ignore people").standardOutput.hasPrefix("People are announced first, so they are not ignored."))
        #expect(try AssistBinary.run(["settings", "set", "detection.prioritisedCategories", "none"], environment: see.environment).status == 0)
        let ignore = try see.ctl("ignore people")
        #expect(ignore.standardOutput == "People will no longer be announced.\n")
        // No wait: the controller hands the changed settings to the session's command queue
        // before it answers, so the "scan now" that follows is handled after them.
        #expect(try see.ctl("scan now").status == 0)
        #expect(see.waitForOutput { $0.components(separatedBy: "Bus, ").count >= 3 }, "the scan describes the bus again")

        let threshold = try see.ctl("--json", "set confidence threshold to 0.95")
        #expect(threshold.standardOutput == #"{"intent":"setConfidence","reply":"Confidence threshold set to 95 percent.","understood":true}"# + "\n")
        #expect(try see.ctl("scan now").status == 0)
        #expect(see.waitForOutput { $0.contains("No object detected.") }, "nothing is as certain as 95 %: \(see.output)")

        let unclear = try see.ctl("banana telephone umbrella sky")
        #expect(unclear.status == 1)
        #expect(unclear.standardOutput.hasPrefix("Sorry, I didn't understand."))
        #expect(try see.ctl("exit").standardOutput == "Goodbye.\n")
        see.process.waitUntilExit()
        #expect(see.process.terminationStatus == 0)

        // The transcript is what was heard, in the order heard: the queue says answers before
        // lower-priority sentences queued earlier, so it shows the answers and their effects...
        let said = try Self.transcriptTexts(srt)
        let ignoreIndex = try #require(said.firstIndex { $0.contains("People will no longer be announced.") }, "\(said)")
        let thresholdIndex = try #require(said.firstIndex { $0.contains("Confidence threshold set to 95 percent.") }, "\(said)")
        #expect(ignoreIndex < thresholdIndex)
        #expect(said[(ignoreIndex + 1)..<thresholdIndex].contains { $0.contains("Bus, ") }, "the scan after ignoring people: \(said)")
        let afterThreshold = said[(thresholdIndex + 1)...]
        #expect(afterThreshold.contains { $0.contains("No object detected.") }, "\(said)")
        #expect(!afterThreshold.contains { $0.contains("Bus, ") }, "\(said)")
        // ...and the printed lines are exactly what was heard, stamped when it started being heard.
        let printed = see.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("[") }
        let printedTexts = printed.map { String($0[$0.index(after: $0.firstIndex(of: "]")!)...].dropFirst()) }
        let heardTexts = said.map { $0.replacingOccurrences(of: #"^\[tone [a-z-]+\] "#, with: "", options: .regularExpression) }
        #expect(printedTexts == heardTexts, "printed \(printedTexts), heard \(heardTexts)")
    }

    @Test("assist console takes commands typed one per line, answers each in one plain line, and stores settings changes")
    func console() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.longBusVideo(in: folder)
        let console = try RunningAssist(["console", video.path, "--quiet", "--mode", "on-demand"], folder: folder)
        defer { console.stop() }
        // Activated: the control socket is made, and commands are taken, before this is said.
        try #require(console.waitForOutput { $0.contains("Assistive Vision activated.") }, "\(console.output)")
        #expect(FileManager.default.fileExists(atPath: console.socket.path))
        // Short answers only: a normal end lets what is being said finish, in real time.
        console.input.fileHandleForWriting.write(Data("ignore chairs\nvolume up\nfind a unicorn\n".utf8))
        // The unicorn answer is two parts (it is longer than 3 s): exit once both were heard.
        #expect(console.waitForOutput { $0.contains("to hear what I can") }, "\(console.output)")
        console.input.fileHandleForWriting.write(Data("exit\n".utf8))
        console.process.waitUntilExit()
        #expect(console.process.terminationStatus == 0)
        let lines = console.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("Chairs will no longer be announced."))
        #expect(lines.contains("Volume 80 percent."))
        #expect(lines.contains("I cannot detect unicorn."))
        #expect(lines.contains("Say what can you detect to hear what I can."))
        #expect(Set(lines).count == lines.count, "each reply printed once: \(lines)")
        #expect(lines.contains("Goodbye."))
        let stored = try AssistBinary.run(["settings", "show", "detection.ignoredCategories"], environment: console.environment)
        #expect(stored.standardOutput.hasPrefix(#"detection.ignoredCategories = ["chair"]"#), "\(stored.standardOutput)")
        // The session is gone, and so is its socket.
        #expect(!FileManager.default.fileExists(atPath: console.socket.path))
    }

    @Test("Ctrl-C and SIGTERM end a session as exit does: goodbye is said, the socket removed, exit status 0",
          arguments: [SIGINT, SIGTERM])
    func interrupted(by signal: Int32) throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.longBusVideo(in: folder)
        let see = try RunningAssist(["see", video.path, "--quiet", "--mode", "on-demand"], folder: folder)
        defer { see.stop() }
        try #require(see.waitForOutput { $0.contains("Assistive Vision activated.") }, "\(see.output)")
        kill(see.process.processIdentifier, signal)
        try #require(ServeHostileTests.waitForExit(see.process), "assist see went on after the signal")
        #expect(see.process.terminationReason == .exit && see.process.terminationStatus == 0)
        #expect(see.output.contains("Goodbye."), "\(see.output)")
        #expect(!FileManager.default.fileExists(atPath: see.socket.path))
    }

    @Test("assist ctl with no session running says so in one sentence, with exit status 2")
    func noSession() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try AssistBinary.run(["ctl", "scan", "now"], environment: ["XDG_RUNTIME_DIR": folder.path])
        #expect(output.status == 2)
        #expect(output.standardError == "No assist session is running; start one with assist see VIDEO or assist console.\n")
    }
}
