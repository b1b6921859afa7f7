import Foundation
import Media
import Testing
@testable import Speech

/// Runs the built `assist` (it sits beside the test runner; scripts/test builds both).
enum Assist {
    static let url = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("assist")

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("say-stderr-\(UUID())")
        FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self),
                String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self))
    }

    static func scratch(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID())-\(name)")
    }
}

@Suite("assist say, as a user runs it", .serialized)
struct SayCommandTests {
    @Test("say renders speech with its tone into a stereo WAV, placed on the left for --direction -40")
    func rendersToFile() throws {
        let wav = Assist.scratch("car.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let result = try Assist.run(["say", "Car, 3 meters, left.", "--tone", "vehicle", "--direction", "-40", "--speak-to", wav.path])
        #expect(result.status == 0 && result.errors.isEmpty)
        let audio = try AudioFile.read(wav)
        #expect(audio.channelCount == 2 && audio.durationSeconds > 1)
        #expect(Rendered.energy(audio.samples, channel: 0) > 2 * Rendered.energy(audio.samples, channel: 1))
    }

    @Test("10 000 characters are read whole, sentence by sentence")
    func longText() throws {
        let wav = Assist.scratch("long.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let text = String(repeating: "Person ahead. ", count: 715)
        #expect(text.count > 10_000)
        let result = try Assist.run(["say", text, "--rate", "400", "--speak-to", wav.path])
        #expect(result.status == 0)
        let reader = try AudioFileReader(url: wav)
        // 715 short sentences with a 0.15 s pause each: several minutes.
        #expect(Double(reader.frameCount) / reader.sampleRate > 715 * 0.3)
    }

    @Test("bad input gets one sentence that says what is allowed")
    func badInput() throws {
        let wav = Assist.scratch("bad.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let empty = try Assist.run(["say", "  ", "--speak-to", wav.path])
        #expect(empty.status != 0 && empty.errors.contains("The text to speak is empty"))
        let fast = try Assist.run(["say", "Hello.", "--rate", "600", "--speak-to", wav.path])
        #expect(fast.status == 1 && fast.errors == "The speech rate in words per minute 600 is out of range; it must be from 80 to 500.\n")
        let voice = try Assist.run(["say", "Hello.", "--voice", "xx-nowhere", "--speak-to", wav.path])
        #expect(voice.status == 1 && voice.errors.hasPrefix("The voice xx-nowhere is not installed; installed voices: ") && voice.errors.contains(" en-us,"))
        let path = try Assist.run(["say", "Hello.", "--speak-to", "/nonexistent/folder/out.wav"])
        #expect(path.status == 1 && path.errors == "The audio file /nonexistent/folder/out.wav could not be written (no such file or directory), so it was not saved.\n")
    }

    @Test("--vibrate vibrates where a device can; without one it says once that haptic feedback is not available")
    func vibrateOrSayWhy() throws {
        let canVibrate = ForceFeedbackVibration.findDevice() != nil
        let wav = Assist.scratch("vibrate.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let result = try Assist.run(["say", "Pole, 1 meter, ahead.", "--vibrate", "1", "--speak-to", wav.path])
        #expect(result.status == 0)
        #expect(result.errors == (canVibrate ? "" : "Haptic feedback is not available on this device.\n"))
    }

    @Test("playing says in one sentence when there is no audio device, or plays when there is one")
    func playsOrSaysWhy() throws {
        let hasOutput = !((try? SoundCardPlayback.outputDevices()) ?? []).isEmpty
        let result = try Assist.run(["say", "Hello.", "--quiet"])
        #expect(result.status == 0 && result.errors.isEmpty)
        let played = try Assist.run(["say", "Hello."])
        if hasOutput {
            #expect(played.status == 0)
        } else {
            #expect(played.status == 1)
            #expect(played.errors == "No audio output device was found; connect headphones and try again. To hear it later, render it with --speak-to FILE.wav.\n")
        }
    }

    @Test("through PortAudio and ALSA, speech for an object at −40° reaches the device louder on the left")
    func playsThroughPortAudio() throws {
        // No sound card here: ALSA's file plugin stands in for one. PortAudio opens it as the
        // default device and everything played lands in a raw file we can measure.
        let home = Assist.scratch("alsa-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let raw = home.appendingPathComponent("played.raw")
        try """
        pcm.!default { type file slave.pcm "null" file "\(raw.path)" format "raw" }
        """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let result = try Assist.run(["say", "Bus, 4 meters, ahead.", "--direction", "-40"], environment: ["HOME": home.path])
        #expect(result.status == 0 && result.errors.isEmpty)
        // PortAudio's paFloat32, stereo: the queue's own output format.
        let data = try Data(contentsOf: raw)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(samples.count > 22050 * 2)
        let left = Rendered.energy(samples, channel: 0), right = Rendered.energy(samples, channel: 1)
        #expect(left > 2 * right && right > 0)
    }
}

@Suite("assist see speaks its description", .serialized)
struct SeeSpeaksTests {
    static let bus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/images/bus.jpg").path
    /// The model cache the command tests use, so the detector is not prepared twice.
    static let cache = ["XDG_CACHE_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("assist-test-cache").path]

    @Test("by default the description is played on the audio device, and printed as before")
    func speaksOnDevice() throws {
        let home = Assist.scratch("see-alsa-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let raw = home.appendingPathComponent("played.raw")
        try """
        pcm.!default { type file slave.pcm "null" file "\(raw.path)" format "raw" }
        """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let result = try Assist.run(["see", Self.bus], environment: Self.cache.merging(["HOME": home.path]) { $1 })
        #expect(result.status == 0 && result.errors.isEmpty)
        #expect(result.output.contains("Bus, "))
        let samples = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Three sentences at 175 words per minute: several seconds of stereo.
        #expect(samples.count > 22050 * 2 * 3 && Rendered.energy(samples, channel: 0) > 1)
    }

    @Test("without an audio device the description is still printed, and stderr says once why it was not spoken; --quiet says nothing")
    func noDevice() throws {
        let hasSound = !((try? SoundCardPlayback.outputDevices()) ?? []).isEmpty
        let result = try Assist.run(["see", Self.bus, Self.bus], environment: Self.cache)
        #expect(result.status == 0 && result.output.contains("Bus, "))
        #expect(result.errors == (hasSound ? "" :
            "The description could not be spoken because no audio device was found; use --speak-to FILE.wav to render it, or --quiet.\n"))
        let quiet = try Assist.run(["see", Self.bus, "--quiet"], environment: Self.cache)
        #expect(quiet.status == 0 && quiet.errors.isEmpty && quiet.output.contains("Bus, "))
    }
}
