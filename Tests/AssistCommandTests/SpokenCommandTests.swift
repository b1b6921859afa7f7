import Foundation
import TestSupport
import Testing

/// Spoken commands in a live session: a recording of a command (festival's natural voice) given
/// with --listen-file is recognised while the video plays and carried out like a typed one. The
/// sessions are rendered offline (--speak-to), where the recording is heard on the video's clock:
/// the same run on an idle machine and a busy one, with no microphone and no race against real time.
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
        let said = folder.appendingPathComponent("said.wav"), command = folder.appendingPathComponent("command.wav")
        try Self.spoken("enable scene navigation", to: said)
        // Two seconds into the video: the recording's start is the video's start.
        try Self.sox([said.path, command.path, "pad", "2", "0"])
        let entries = try Self.transcript(of: video, hearing: command, in: folder)
        let confirmed = try #require(entries.first { $0.text.contains("Scene navigation on.") },
                                     "the spoken command was carried out: \(entries)")
        // Heard when the speech ended, on the video's clock: not before the words were said, and
        // soon after them (the listener waits for a short silence, and a sentence already being
        // said, at most 3 s, is finished first).
        let spokenSeconds = try Self.seconds(of: said)
        #expect(confirmed.start > 2 + spokenSeconds * 0.5 && confirmed.start < 2 + spokenSeconds + 4.5,
                "confirmed at \(confirmed.start) s for words from 2 to \(2 + spokenSeconds) s")
        #expect(!entries.contains { $0.text.contains("Please repeat.") })
    }

    /// festival's "exit" with a second of silence each side, clean and with white noise mixed in
    /// about 10 dB below the voice (at 17 dB the old recogniser heard this very recording as
    /// "find bed", fully confident; issue 35 asks for ≥ 75 % right at 10 dB).
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
        let video = try AssistBinary.busVideo(seconds: 8, in: folder)
        let said = try Self.transcript(of: video, hearing: try Self.exitRecordings(in: folder).noisy, in: folder).map(\.text)
        #expect(said.contains { $0.contains("Goodbye.") || $0.contains("Exit? Say yes or no.") }, "\(said)")
        #expect(!said.contains { $0.contains("Please repeat.") || $0.contains("It is too noisy") }, "\(said)")
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

    /// The live session's transcript of `video` with `recording` heard as the microphone, rendered
    /// offline: the recording starts with the video, and what is heard is acted on at its time on
    /// the video's clock, however long the machine takes.
    static func transcript(of video: URL, hearing recording: URL, in folder: URL) throws -> [TranscriptEntry] {
        let transcript = folder.appendingPathComponent("t.srt")
        // --frame-cost: each analysed frame counts 0.25 s of the video's time, not the measured
        // time, so a busy machine does not make the session later on the video's clock.
        let output = try AssistBinary.run(["see", video.path, "--speak-to", folder.appendingPathComponent("heard.wav").path,
                                           "--frame-cost", "0.25", "--transcript", transcript.path, "--listen-file", recording.path])
        #expect(output.status == 0, "\(output.standardError)")
        return try SubRip.parse(try String(contentsOf: transcript, encoding: .utf8))
    }

    /// A recording's length in seconds, as sox reads it.
    static func seconds(of recording: URL) throws -> Double {
        let output = try Program.run(Program.named("soxi"), ["-D", recording.path])
        return try #require(Double(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)), "soxi: \(output.standardError)")
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

    @Test("a decoding of the removed recogniser (--decode grammar, agreement, ngram) is one sentence and exit 64, wherever it is given")
    func removedDecodings() throws {
        for arguments in [["listen", "--file", "x.wav", "--decode", "grammar"],
                          ["see", AssistBinary.image("bus.jpg"), "--listen-file", "x.wav", "--decode", "agreement"],
                          ["bench", "voice", "--decode", "neural,ngram"]] {
            let output = try AssistBinary.run(arguments)
            #expect(output.status == 64, "\(arguments): \(output.standardError)")
            #expect(output.standardError.contains("has been removed"), "\(arguments): \(output.standardError)")
            #expect(!output.standardError.contains("Fatal error"), "\(arguments)")
        }
        #expect(try AssistBinary.run(["listen", "--file", "x.wav", "--decode", "both"]).standardError.contains("neural is the only choice"))
    }

    @Test("a command recording in pictures mode is refused with a sentence")
    func refusedForPictures() throws {
        let output = try AssistBinary.run(["see", AssistBinary.image("bus.jpg"), "--quiet", "--listen-file", "x.wav"])
        #expect(output.status != 0)
        #expect(output.standardError.contains("work with a live input"))
    }
}
