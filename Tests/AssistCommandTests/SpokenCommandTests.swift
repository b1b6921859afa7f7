import Foundation
import TestSupport
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
        // 12 s: the recording is played once the listener is ready, and the recogniser's models
        // take seconds to load in a debug build on a loaded machine.
        let video = try AssistBinary.busVideo(seconds: 12, in: folder)
        let command = folder.appendingPathComponent("command.wav")
        try Self.spoken("enable scene navigation", to: command)
        let said = try Self.transcript(of: video, hearing: command, in: folder)
        #expect(said.contains("Scene navigation on."), "the spoken command was carried out: \(said)")
        #expect(!said.contains("Please repeat."))
    }

    /// festival's "exit" with a second of silence each side, clean and with white noise mixed in
    /// about 10 dB below the voice (at 17 dB pocketsphinx heard this very recording as "find
    /// bed", fully confident; issue 35 asks for ≥ 75 % right at 10 dB).
    static func exitRecordings(in folder: URL) throws -> (clean: URL, noisy: URL) {
        let said = folder.appendingPathComponent("exit.wav"), clean = folder.appendingPathComponent("padded.wav")
        let noisy = folder.appendingPathComponent("noisy.wav")
        try Self.spoken("exit", to: said)
        try Self.sox([said.path, clean.path, "pad", "1", "1"])
        try Self.sox(["-m", clean.path, "|sox \(clean.path) -p synth whitenoise vol 0.02", noisy.path])
        return (clean, noisy)
    }

    @Test("\"exit\" said with white noise 10 dB below the voice is carried out or asked about, never taken for another command")
    func noisyCommandUnderstood() throws {
        let folder = try SeeLiveTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try AssistBinary.busVideo(seconds: 12, in: folder)
        let said = try Self.transcript(of: video, hearing: try Self.exitRecordings(in: folder).noisy, in: folder)
        #expect(said.contains("Goodbye.") || said.contains("Exit? Say yes or no."), "\(said)")
    }

    @Test("assist listen --json: the clean recording is the exit command; the noisy one is understood as exit too, with its SNR")
    func listenReportsNoise() throws {
        let folder = try SeeLiveTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recordings = try Self.exitRecordings(in: folder)
        func events(_ recording: URL) throws -> [[String: Any]] {
            let output = try AssistBinary.run(["listen", "--file", recording.path, "--json"])
            #expect(output.status == 0, "\(output.standardError)")
            return try output.standardOutput.split(separator: "\n").map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }
        let clean = try events(recordings.clean)
        #expect(clean.count == 1 && clean.first?["intent"] as? String == "exit", "\(clean)")
        #expect(clean.first?["reply"] as? String == "Goodbye.")
        let noisy = try events(recordings.noisy)
        // Heard as exit (sometimes "exit exit": the recogniser repeats a word over the noise after it).
        #expect(noisy.count == 1 && noisy.first?["intent"] as? String == "exit", "\(noisy)")
        let snr = try #require(noisy.compactMap { $0["snr_db"] as? Double }.max())
        #expect(snr > 3 && snr < 25, "estimated \(snr) dB")
    }

    /// The live session's transcript of `video` with `recording` heard as the microphone.
    /// Real time (no --speak-to): the 1–3-s recording is heard while the 12-s video plays.
    static func transcript(of video: URL, hearing recording: URL, in folder: URL) throws -> String {
        let transcript = folder.appendingPathComponent("t.srt")
        let output = try AssistBinary.run(["see", video.path, "--quiet", "--transcript", transcript.path,
                                           "--listen-file", recording.path])
        #expect(output.status == 0, "\(output.standardError)")
        return try String(contentsOf: transcript, encoding: .utf8)
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
