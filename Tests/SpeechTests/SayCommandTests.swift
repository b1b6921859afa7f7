import Foundation
import TestSupport
import Media
import Testing
@testable import Speech

@Suite("assist say, as a user runs it", .serialized)
struct SayCommandTests {
    @Test("say renders speech with its tone into a stereo WAV, placed on the left for --direction -40")
    func rendersToFile() throws {
        let wav = TemporaryFolder.path("car.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let result = try AssistBinary.run(["say", "Car, 3 meters, left.", "--tone", "vehicle", "--direction", "-40", "--speak-to", wav.path])
        #expect(result.status == 0 && result.standardError.isEmpty)
        let audio = try AudioFile.read(wav)
        #expect(audio.channelCount == 2 && audio.durationSeconds > 1)
        #expect(Rendered.energy(audio.samples, channel: 0) > 2 * Rendered.energy(audio.samples, channel: 1))
    }

    @Test("10 000 characters are read whole, sentence by sentence")
    func longText() throws {
        let wav = TemporaryFolder.path("long.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let text = String(repeating: "Person ahead. ", count: 715)
        #expect(text.count > 10_000)
        let result = try AssistBinary.run(["say", text, "--rate", "400", "--speak-to", wav.path])
        #expect(result.status == 0)
        let reader = try AudioFileReader(url: wav)
        // 715 short sentences with a 0.15 s pause each: several minutes.
        #expect(Double(reader.frameCount) / reader.sampleRate > 715 * 0.3)
    }

    @Test("bad input gets one sentence that says what is allowed")
    func badInput() throws {
        let wav = TemporaryFolder.path("bad.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let empty = try AssistBinary.run(["say", "  ", "--speak-to", wav.path])
        #expect(empty.status != 0 && empty.standardError.contains("The text to speak is empty"))
        let fast = try AssistBinary.run(["say", "Hello.", "--rate", "600", "--speak-to", wav.path])
        #expect(fast.status == 1 && fast.standardError == "The speech rate in words per minute 600 is out of range; it must be from 80 to 500.\n")
        let voice = try AssistBinary.run(["say", "Hello.", "--voice", "xx-nowhere", "--speak-to", wav.path])
        #expect(voice.status == 1 && voice.standardError.hasPrefix("The voice xx-nowhere is not installed; installed voices: ") && voice.standardError.contains(" en-us,"))
        let path = try AssistBinary.run(["say", "Hello.", "--speak-to", "/nonexistent/folder/out.wav"])
        #expect(path.status == 1 && path.standardError == "The audio file /nonexistent/folder/out.wav could not be written (the folder /nonexistent/folder does not exist), so it was not saved.\n")
    }

    @Test("--vibrate vibrates where a device can; without one it says once that haptic feedback is not available")
    func vibrateOrSayWhy() throws {
        let canVibrate = ForceFeedbackVibration.findDevice() != nil
        let wav = TemporaryFolder.path("vibrate.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let result = try AssistBinary.run(["say", "Pole, 1 meter, ahead.", "--vibrate", "1", "--speak-to", wav.path])
        #expect(result.status == 0)
        #expect(result.standardError == (canVibrate ? "" : "Haptic feedback is not available on this device.\n"))
    }

    @Test("playing says in one sentence when there is no audio device, or plays when there is one")
    func playsOrSaysWhy() throws {
        let hasOutput = !((try? SoundCardPlayback.outputDevices()) ?? []).isEmpty
        let result = try AssistBinary.run(["say", "Hello.", "--quiet"])
        #expect(result.status == 0 && result.standardError.isEmpty)
        let played = try AssistBinary.run(["say", "Hello."])
        if hasOutput {
            #expect(played.status == 0)
        } else {
            #expect(played.status == 1)
            #expect(played.standardError == "No audio output device was found; connect headphones and try again. To hear it later, render it with --speak-to FILE.wav.\n")
        }
    }

    @Test("through PortAudio and ALSA, speech for an object at −40° reaches the device louder on the left")
    func playsThroughPortAudio() throws {
        // No sound card here: ALSA's file plugin stands in for one. PortAudio opens it as the
        // default device and everything played lands in a raw file we can measure.
        let home = TemporaryFolder.path("alsa-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let raw = home.appendingPathComponent("played.raw")
        try """
        pcm.!default { type file slave.pcm "null" file "\(raw.path)" format "raw" }
        """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let result = try AssistBinary.run(["say", "Bus, 4 meters, ahead.", "--direction", "-40"], environment: ["HOME": home.path])
        #expect(result.status == 0 && result.standardError.isEmpty)
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
    static let bus = SharedFiles.bus.path

    @Test("by default the description is played on the audio device, and printed as before")
    func speaksOnDevice() throws {
        let home = TemporaryFolder.path("see-alsa-home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let raw = home.appendingPathComponent("played.raw")
        try """
        pcm.!default { type file slave.pcm "null" file "\(raw.path)" format "raw" }
        """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let result = try AssistBinary.run(["see", Self.bus], environment: ["HOME": home.path])
        #expect(result.status == 0 && result.standardError.isEmpty)
        #expect(result.standardOutput.contains("Bus, "))
        let samples = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Three sentences at 175 words per minute: several seconds of stereo.
        #expect(samples.count > 22050 * 2 * 3 && Rendered.energy(samples, channel: 0) > 1)
    }

    @Test("without an audio device the description is still printed, and stderr says once why it was not spoken; --quiet says nothing")
    func noDevice() throws {
        let hasSound = !((try? SoundCardPlayback.outputDevices()) ?? []).isEmpty
        let result = try AssistBinary.run(["see", Self.bus, Self.bus])
        #expect(result.status == 0 && result.standardOutput.contains("Bus, "))
        #expect(result.standardError == (hasSound ? "" :
            "The description could not be spoken because no audio device was found; use --speak-to FILE.wav to render it, or --quiet.\n"))
        let quiet = try AssistBinary.run(["see", Self.bus, "--quiet"])
        #expect(quiet.status == 0 && quiet.standardError.isEmpty && quiet.standardOutput.contains("Bus, "))
    }
}
