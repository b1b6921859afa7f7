import Foundation
import TestSupport
import Testing

/// Issue 16's reproducers on the command line: each is one sentence on standard error and the
/// documented exit status (64 for bad usage), never a trap (SIGILL, status 132 or a signal).
@Suite("Hostile values on the command line")
struct HostileInputTests {
    private func expectOneSentence(_ output: AssistBinary.Output, status: Int32, containing text: String? = nil,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(output.status == status, "status \(output.status): \(output.standardError)", sourceLocation: sourceLocation)
        let lines = output.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(output.standardError)", sourceLocation: sourceLocation)
        #expect(!output.standardError.contains("Error Domain") && !output.standardError.contains("Usage:"),
                "\(output.standardError)", sourceLocation: sourceLocation)
        if let text { #expect(output.standardError.contains(text), "\(output.standardError)", sourceLocation: sourceLocation) }
    }

    @Test("assist say --vibrate nan is bad usage")
    func vibrateNotANumber() throws {
        expectOneSentence(try AssistBinary.run(["say", "hello", "--vibrate", "nan"]), status: 64, containing: "--vibrate")
    }

    @Test("absurd camera heights, intrinsics and fields of view are bad usage",
          arguments: [["--camera-height", "1e308"], ["--intrinsics", "1e308,1e308,1e308,1e308"], ["--fov", "0"],
                      ["--camera-height", "nan"], ["--camera-pitch", "1e308"]])
    func camera(options: [String]) throws {
        let output = try AssistBinary.run(["see", "--quiet", AssistBinary.image("bus.jpg")] + options)
        expectOneSentence(output, status: 64, containing: "The camera's")
    }

    @Test("absurd live timings are bad usage, like --confidence nan",
          arguments: [["--interval", "1e19"], ["--frame-cost", "1e19"], ["--interval", "0"], ["--watchdog", "1e19"],
                      ["--after-use", "1e300"], ["--folder-rate", "1e-300"], ["--at", "1e19:scan now"]])
    func liveTimings(options: [String]) throws {
        let folder = try TemporaryFolder.make("hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try AssistBinary.busVideo(seconds: 1, in: folder)
        expectOneSentence(try AssistBinary.run(["see", video.path, "--quiet", "--speak-to", folder.appendingPathComponent("o.wav").path] + options),
                          status: 64)
    }

    @Test("--confidence nan and --max-objects 0 keep exit status 64")
    func wordingOptions() throws {
        expectOneSentence(try AssistBinary.run(["see", "--quiet", AssistBinary.image("bus.jpg"), "--confidence", "nan"]), status: 64)
        expectOneSentence(try AssistBinary.run(["see", "--quiet", AssistBinary.image("bus.jpg"), "--max-objects", "0"]), status: 64)
    }

    @Test("settings set with a huge or negative number names the allowed range, exit status 64",
          arguments: [("detection.maximumObjects", "1e19"), ("detection.maximumObjects", "9223372036854775807"),
                      ("speech.volumePercent", "1e19"), ("speech.pitch", "-1e19"), ("speech.rateWordsPerMinute", "1e19"),
                      ("camera.fieldOfViewDegrees", "-5"), ("speech.pitch", "nan")])
    func settingsValues(key: String, value: String) throws {
        let user = AssistBinary.userFolders()
        defer { user.remove() }
        let output = try AssistBinary.run(["settings", "set", key, value], environment: user.environment)
        expectOneSentence(output, status: 64, containing: "The setting \(key) must be")
        #expect(!output.standardError.contains("?"))
    }

    @Test("a negative number is accepted as a setting's value where the range allows it")
    func negativeAccepted() throws {
        let user = AssistBinary.userFolders()
        defer { user.remove() }
        // No setting allows a negative value today, so the proof is that -5 reaches validation
        // (named and range given) rather than being taken for an option.
        let output = try AssistBinary.run(["settings", "set", "camera.fieldOfViewDegrees", "-5"], environment: user.environment)
        #expect(!output.standardError.contains("Missing expected argument"))
        #expect(output.standardError.contains("-5"))
        let ok = try AssistBinary.run(["settings", "set", "camera.fieldOfViewDegrees", "90"], environment: user.environment)
        #expect(ok.status == 0 && ok.standardOutput == "camera.fieldOfViewDegrees is now 90.\n", "\(ok.standardError)")
    }

    @Test("assist --version prints the name and version")
    func version() throws {
        let output = try AssistBinary.run(["--version"])
        #expect(output.status == 0)
        #expect(output.standardOutput.hasPrefix("AssistiveKit "), "\(output.standardOutput)")
        #expect(output.standardOutput.split(separator: "\n").count == 1)
    }
}
