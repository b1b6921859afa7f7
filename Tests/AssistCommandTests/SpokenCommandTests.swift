import Foundation
import Testing

/// Spoken commands in a live session: a recording of a command (festival's natural voice) given
/// with --listen-file is recognised while the video plays and carried out like a typed one.
@Suite("spoken commands in a live session", .serialized)
struct SpokenCommandTests {
    /// `text` spoken by festival's us_slt_hts voice into a WAV.
    static func spoken(_ text: String, to wav: URL) throws {
        let festival = Process()
        festival.executableURL = URL(fileURLWithPath: "/usr/bin/text2wave")
        festival.arguments = ["-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", wav.path]
        let input = Pipe()
        festival.standardInput = input
        festival.standardError = FileHandle.nullDevice
        try festival.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        festival.waitUntilExit()
        try #require(festival.terminationStatus == 0, "festival could not speak the test command")
    }

    @Test("\"enable scene navigation\" said during a video switches the session to navigation, confirmed aloud")
    func spokenModeChange() throws {
        let folder = try SeeLiveTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try AssistBinary.busVideo(seconds: 8, in: folder)
        let command = folder.appendingPathComponent("command.wav")
        try Self.spoken("enable scene navigation", to: command)
        let transcript = folder.appendingPathComponent("t.srt")
        // Real time (no --speak-to): the 2-s recording is heard while the 8-s video plays.
        let output = try AssistBinary.run(["see", video.path, "--quiet", "--transcript", transcript.path,
                                           "--listen-file", command.path])
        #expect(output.status == 0, "\(output.standardError)")
        let said = try String(contentsOf: transcript, encoding: .utf8)
        #expect(said.contains("Scene navigation on."), "the spoken command was carried out: \(said)")
        #expect(!said.contains("Please repeat."))
    }

    @Test("\"exit\" said in loud white noise is not acted on: the user hears that it is too noisy, and guidance goes on")
    func noisyCommandRefused() throws {
        let folder = try SeeLiveTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try AssistBinary.busVideo(seconds: 8, in: folder)
        let clean = folder.appendingPathComponent("exit.wav"), padded = folder.appendingPathComponent("padded.wav")
        let noisy = folder.appendingPathComponent("noisy.wav")
        try Self.spoken("exit", to: clean)
        // A second of silence each side, then white noise mixed in about 10 dB below the voice
        // (at 17 dB pocketsphinx heard this very recording as "find bed", fully confident).
        try Self.sox([clean.path, padded.path, "pad", "1", "1"])
        try Self.sox(["-m", padded.path, "|sox \(padded.path) -p synth whitenoise vol 0.02", noisy.path])
        let transcript = folder.appendingPathComponent("t.srt")
        let output = try AssistBinary.run(["see", video.path, "--quiet", "--transcript", transcript.path,
                                           "--listen-file", noisy.path])
        #expect(output.status == 0, "\(output.standardError)")
        let said = try String(contentsOf: transcript, encoding: .utf8)
        #expect(said.contains("It is too noisy for me to understand you."), "\(said)")
        #expect(!said.contains("Goodbye."), "a command heard in noise was acted on: \(said)")
    }

    static func sox(_ arguments: [String]) throws {
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        sox.arguments = arguments
        sox.standardError = FileHandle.nullDevice
        try sox.run()
        sox.waitUntilExit()
        try #require(sox.terminationStatus == 0, "sox \(arguments.joined(separator: " ")) failed")
    }

    @Test("a command recording in pictures mode is refused with a sentence")
    func refusedForPictures() throws {
        let output = try AssistBinary.run(["see", AssistBinary.image("bus.jpg"), "--quiet", "--listen-file", "x.wav"])
        #expect(output.status != 0)
        #expect(output.standardError.contains("work with a live input"))
    }
}
