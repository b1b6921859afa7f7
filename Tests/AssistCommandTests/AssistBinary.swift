import Foundation
import Testing

/// Runs the built `assist` binary, as a user would, and captures what it prints.
enum AssistBinary {
    /// The test runner sits in the same build folder as the `assist` executable.
    static let url: URL = {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return runner.deletingLastPathComponent().appendingPathComponent("assist")
    }()

    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let shared = checkout.deletingLastPathComponent().appendingPathComponent("shared")
    static func image(_ name: String) -> String { shared.appendingPathComponent("data/images/\(name)").path }

    /// Data, config and runtime folders that persist across calls within one test.
    static func userFolders() -> (environment: [String: String], remove: () -> Void) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("assist-user-\(UUID())")
        return (["XDG_DATA_HOME": home.appendingPathComponent("data").path,
                 "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                 "XDG_RUNTIME_DIR": home.appendingPathComponent("run").path],
                { try? FileManager.default.removeItem(at: home) })
    }

    /// `see` with the watchdog at 10 minutes unless the test sets its own: the 4 s default guards a
    /// user against a hung model, but a test machine running a dozen processes on two cores can
    /// take that long for one honest inference, and a busy machine must not fail a test.
    static func patient(_ arguments: [String]) -> [String] {
        guard arguments.first == "see", !arguments.contains("--watchdog") else { return arguments }
        return arguments + ["--watchdog", "600"]
    }

    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// `eachLine` sees each line of standard output as it is printed (on this thread, while the
    /// process runs): a test can act on what the process has done, not on how long it took.
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    eachLine: ((Substring) -> Void)? = nil) throws -> Output {
        let process = Process()
        process.executableURL = url
        process.arguments = patient(arguments)
        process.currentDirectoryURL = checkout
        var env = ProcessInfo.processInfo.environment
        // Keep tests out of the user's real folders: a shared cache (compiled models), and fresh
        // data and config folders per call unless the test passes its own.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("assist-test-\(UUID())")
        env["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("assist-test-cache").path
        env["XDG_DATA_HOME"] = scratch.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = scratch.appendingPathComponent("config").path
        // A control socket of its own: live sessions of tests running side by side (and the
        // user's own) must not take each other's commands.
        env["XDG_RUNTIME_DIR"] = scratch.appendingPathComponent("run").path
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        // stdout through a pipe, stderr into a file: reading one pipe to its end while the other
        // fills could block the child, and a file never does.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("assist-stderr-\(UUID())")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        var stdoutData = Data()
        if let eachLine {
            var seen = 0
            while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
                stdoutData.append(chunk)
                guard let end = stdoutData.lastIndex(of: UInt8(ascii: "\n")), end >= seen else { continue }
                String(decoding: stdoutData[seen..<end], as: UTF8.self).split(separator: "\n").forEach(eachLine)
                seen = end + 1
            }
        } else {
            stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        }
        process.waitUntilExit()
        let stderrData = (try? Data(contentsOf: errorFile)) ?? Data()
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: stdoutData, as: UTF8.self),
                      standardError: String(decoding: stderrData, as: UTF8.self))
    }

    /// The bus picture (a bus and four people) as a 640×480, 10 fps video of `seconds`, made with
    /// ffmpeg in `folder`: a live input whose content is known.
    static func busVideo(seconds: Int, in folder: URL) throws -> URL {
        let video = folder.appendingPathComponent("bus.mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-v", "error", "-y", "-loop", "1", "-i", image("bus.jpg"), "-t", "\(seconds)", "-r", "10",
                            "-vf", "scale=640:480", "-pix_fmt", "yuv420p", video.path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "ffmpeg could not make the test video")
        return video
    }
}
