import Commands
import Foundation
import TestSupport
import Media
import Testing
@testable import VoiceInput

@Suite("Command listener", .serialized)
struct ListenerTests {
    /// "computer, scan now", then silence, then "scan now" alone, as one recording. (Not
    /// "assistant": Moonshine writes festival's "assistant, scan now" as "assistance can now",
    /// which starts with no wake phrase; the wake phrase's own benchmark measures phrases.)
    static func recording(in folder: URL) throws -> URL {
        let first = folder.appendingPathComponent("wake.wav"), second = folder.appendingPathComponent("plain.wav")
        try FestivalVoice().synthesize([SynthesisRequest(text: "computer, scan now", speakingRate: 1, output: first),
                                        SynthesisRequest(text: "scan now", speakingRate: 1, output: second)])
        let silence = [Float](repeating: 0, count: 12_000)
        let samples = try silence + AudioFile.read(first).samples + silence + silence + AudioFile.read(second).samples + silence
        let url = folder.appendingPathComponent("both.wav")
        try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: 16_000, channelCount: 1), to: url)
        return url
    }

    func events(trigger: ListeningTrigger, file: URL, pressButton: Bool? = nil) throws -> [String] {
        var wakePhrase: String?
        if case .wakePhrase(let phrase, _) = trigger { wakePhrase = phrase }
        let vocabulary = VoiceCommandVocabulary(language: englishVocabulary.language, wakePhrase: wakePhrase)
        let listener = CommandListener(recognizer: try ListeningDecoding.standard.recognizer(vocabulary: vocabulary), trigger: trigger,
                                       understand: englishVocabulary.meaning(of:))
        if let pressButton { listener.setTalkButton(pressed: pressButton) }
        var seen: [String] = []
        try listener.listen(to: try AudioFileSpeechSource(url: file)) { event in
            switch event {
            case .heard(let command): seen.append("\(command.text) → \(command.meaning ?? "nothing")")
            case .unclear: seen.append("unclear")
            case .tooNoisy: seen.append("too noisy")
            case .awake: seen.append("awake")
            }
        }
        return seen
    }

    @Test("with a wake phrase, only the command that starts with it is acted on")
    func wakePhrase() throws {
        let folder = try TemporaryFolder.make("voice-tests-wake")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.recording(in: folder)
        let scanNow = try #require(englishVocabulary.meaning(of: "scan now"))
        #expect(try events(trigger: .wakePhrase("computer"), file: file) == ["scan now → \(scanNow)"])
        // Without a wake phrase, "computer, scan now" is one more utterance, then "scan now".
        let always = try events(trigger: .always, file: file)
        #expect(always.count == 2 && always.last == "scan now → \(scanNow)", "\(always)")
    }

    @Test("push-to-talk hears nothing while the button is up, and both commands while it is held")
    func pushToTalk() throws {
        let folder = try TemporaryFolder.make("voice-tests-ptt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.recording(in: folder)
        #expect(try events(trigger: .pushToTalk, file: file, pressButton: false).isEmpty)
        let scanNow = try #require(englishVocabulary.meaning(of: "scan now"))
        let held = try events(trigger: .pushToTalk, file: file, pressButton: true)
        #expect(held.count == 2 && held.last == "scan now → \(scanNow)", "\(held)")
    }

    @Test("a missing microphone is reported as one sentence that says what to do")
    func missingMicrophone() {
        let error = MicrophoneSpeechSource.translate(.noInputDevice)
        #expect(error == .microphoneMissing)
        #expect(error.userMessage.contains("connect one"))
        #expect(error.userMessage.contains("assist console"))
        #expect(MicrophoneSpeechSource.translate(.portAudio("Device unavailable")).userMessage.contains("Device unavailable"))
    }
}
