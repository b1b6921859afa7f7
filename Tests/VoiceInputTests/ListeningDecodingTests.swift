import Commands
import Foundation
import Media
import TestSupport
import Testing
@testable import VoiceInput

@Suite("Listening decoding", .serialized)
struct ListeningDecodingTests {
    let language = englishVocabulary.language
    /// Exact phrases only: deterministic, no sentence model needed; the rule is the same with it.
    var understanding: CommandUnderstanding { CommandUnderstanding(language: language, classifier: nil) }

    func command(_ text: String) throws -> Command { try #require(language.interpret(text).command) }

    @Test("neural: words Moonshine is sure of are decided as typed; words it is less sure of are asked about unless the patterns take them outright")
    func neuralCertainWords() throws {
        let meaning = try CommandUnderstanding.load(language: language)
        // Understood by meaning, not by the phrase patterns (the typed understanding acts on it).
        let text = "where did i leave the remote"
        let stop = try command("find the remote")
        #expect(meaning.decide(text, channel: .typed) == .act(stop))
        #expect(OpenSpeechUnderstanding(understanding: meaning).decide(text).command == nil)
        func heard(_ confidence: Double?) -> HeardTranscripts {
            HeardTranscripts(text, confidence: confidence)
        }
        let bar = ListeningDecoding.neuralCertainWords
        #expect(ListeningDecoding.neural.decide(heard(bar), understanding: meaning) == .act(stop))
        guard case .confirm(_, let pending) = ListeningDecoding.neural.decide(heard(bar - 0.01), understanding: meaning) else {
            Issue.record("below the bar, not asked about"); return
        }
        #expect(pending == stop)
        // Words without a confidence are not taken as said; no words at all are not understood.
        #expect(ListeningDecoding.neural.decide(heard(nil), understanding: meaning).command == nil)
        #expect(ListeningDecoding.neural.decide(HeardTranscripts(nil), understanding: meaning) == .refuse(language.reply(to: .notUnderstood)))
        // What hides things is acted on only when both the words and the meaning are sure
        // (`InputChannel.spoken(certain: true)`); with the words less sure it is asked about,
        // however certain the meaning.
        var hiding = HeardTranscripts("i don't want to hear about chairs any more i think")
        hiding.neuralConfidence = 1
        #expect(ListeningDecoding.neural.decide(hiding, understanding: meaning).command?.intent == .ignore)
        hiding.neuralConfidence = bar - 0.01
        guard case .confirm(_, let ignore) = ListeningDecoding.neural.decide(hiding, understanding: meaning) else {
            Issue.record("a command that hides things, from words below the bar, not asked about"); return
        }
        #expect(ignore.intent == .ignore)
    }

    @Test("neural is the one choice; the old recogniser's names are told apart from unknown ones, and explained one line each")
    func choices() {
        #expect(ListeningDecoding(choice: "neural") == .neural)
        #expect(ListeningDecoding.allCases == [.neural])
        for removed in ["grammar", "open-speech", "ngram", "ngram:0.3", "agreement"] {
            #expect(ListeningDecoding(choice: removed) == nil)
            #expect(ListeningDecoding.problem(withChoice: removed).contains("has been removed"), "\(removed)")
        }
        #expect(ListeningDecoding(choice: "both") == nil)
        #expect(ListeningDecoding.problem(withChoice: "both") == " is no decoding; neural is the only choice.")
        for decoding in ListeningDecoding.allCases {
            #expect(ListeningDecoding.choicesHelp.contains(decoding.explanation))
            #expect(decoding.explanation.hasPrefix(decoding.rawValue + ":"))
        }
    }

    /// `texts` said by festival's voice one after another, with silence between, as one recording.
    static func recording(_ texts: [String], in folder: URL) throws -> URL {
        let silence = [Float](repeating: 0, count: 16_000)
        var samples = silence
        for text in texts { samples += try spokenSamples(text, in: folder, sampleRateHz: 16_000) + silence }
        let url = folder.appendingPathComponent("spoken.wav")
        try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: 16_000, channelCount: 1), to: url)
        return url
    }

    @Test("spoken through the default decoding: a command is acted on, chit-chat is not, yes is heard as an answer")
    func spokenDefault() throws {
        let folder = try TemporaryFolder.make("voice-tests-decoding")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.recording(["find a chair", "the weather is really nice today", "yes"], in: folder)
        let listener = try CommandListening.listener(language: language, understanding: understanding, wakePhrase: nil,
                                                     trigger: .always, decoding: .standard)
        var heard: [HeardCommand<CommandDecision>] = []
        try listener.listen(to: try AudioFileSpeechSource(url: file)) { event in
            if case .heard(let command) = event { heard.append(command) }
        }
        let chair = try command("find a chair")
        let acted = heard.compactMap { $0.meaning?.command }
        #expect(acted == [chair], "\(heard.map { "\($0.text) → \(String(describing: $0.meaning))" })")
        // "yes" answers a question by voice: heard as the answer (it was heard as "next" before), acting on nothing.
        #expect(heard.contains { language.answer($0.transcripts.answerText) == true },
                "\(heard.map { "\($0.text) → \(String(describing: $0.meaning))" })")
    }
}
