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

    @Test("agreement: both paths acting on the same command act on it; open speech unsure asks")
    func bothSame() throws {
        let chair = try command("find a chair")
        #expect(ListeningDecoding.agree(grammar: .act(chair), openSpeech: .act(chair), language: language) == .act(chair))
        // Open speech unsure of the meaning: asked, even though the grammar heard the same command.
        let unsure = CommandDecision.confirm(question: "Find chair? Say yes or no.", pending: chair)
        #expect(ListeningDecoding.agree(grammar: .act(chair), openSpeech: unsure, language: language) == unsure)
    }

    @Test("agreement: paths that differ ask about open speech's command, never act")
    func differ() throws {
        let chair = try command("find a chair"), cup = try command("find a cup")
        let decision = ListeningDecoding.agree(grammar: .act(chair), openSpeech: .act(cup), language: language)
        guard case .confirm(let question, let pending) = decision else { Issue.record("\(decision)"); return }
        #expect(pending == cup)
        #expect(question == language.confirmationQuestion(for: cup))
        #expect(decision.command == nil)
    }

    @Test("agreement: open speech alone is asked about; the grammar alone is refused")
    func oneOnly() throws {
        let chair = try command("find a chair")
        let asked = ListeningDecoding.agree(grammar: nil, openSpeech: .act(chair), language: language)
        #expect(asked == .confirm(question: language.confirmationQuestion(for: chair), pending: chair))
        let refusedGrammar = CommandDecision.refuse("I cannot detect stairs.")
        #expect(ListeningDecoding.agree(grammar: refusedGrammar, openSpeech: .act(chair), language: language).command == nil)
        let alone = ListeningDecoding.agree(grammar: .act(chair), openSpeech: nil, language: language)
        guard case .refuse = alone else { Issue.record("\(alone)"); return }
        let openRefusal = CommandDecision.refuse("I can't recognise stairs.")
        #expect(ListeningDecoding.agree(grammar: .act(chair), openSpeech: openRefusal, language: language) == openRefusal)
    }

    @Test("agreement: neither path understanding refuses, saying so")
    func neither() {
        #expect(ListeningDecoding.agree(grammar: nil, openSpeech: nil, language: language) == .refuse(language.reply(to: .notUnderstood)))
        let grammarRefusal = CommandDecision.refuse("I cannot detect stairs.")
        #expect(ListeningDecoding.agree(grammar: grammarRefusal, openSpeech: nil, language: language) == grammarRefusal)
    }

    @Test("agreement: what hides things stays a question even when both agree")
    func hidingAsked() throws {
        let ignore = try command("ignore chairs")
        let question = CommandDecision.confirm(question: language.confirmationQuestion(for: ignore), pending: ignore)
        #expect(ListeningDecoding.agree(grammar: question, openSpeech: question, language: language) == question)
        let heard = HeardTranscripts(grammar: "ignore chairs", openSpeech: "ignore chairs")
        #expect(ListeningDecoding.agreement.decide(heard, understanding: understanding).command == nil)
    }

    @Test("each decoding decides from its own transcripts")
    func decideFromTranscripts() throws {
        let chair = try command("find a chair")
        let same = HeardTranscripts(grammar: "find a chair", openSpeech: "find a chair")
        let misheard = HeardTranscripts(grammar: "find a chair", openSpeech: "find a tour")
        #expect(ListeningDecoding.agreement.decide(same, understanding: understanding) == .act(chair))
        #expect(ListeningDecoding.agreement.decide(misheard, understanding: understanding).command == nil)
        #expect(ListeningDecoding.grammar.decide(misheard, understanding: understanding) == .act(chair))
        #expect(ListeningDecoding.openSpeech.decide(misheard, understanding: understanding).command == nil)
        #expect(ListeningDecoding.openSpeech.decide(HeardTranscripts(grammar: nil, openSpeech: nil), understanding: understanding).command == nil)
        #expect(misheard.text == "find a chair | find a tour")
        #expect(same.text == "find a chair")
    }

    @Test("neural: words Moonshine is sure of are decided as typed; words it is less sure of are asked about unless the patterns take them outright")
    func neuralCertainWords() throws {
        let meaning = try CommandUnderstanding.load(language: language)
        // Understood by meaning, not by the phrase patterns (the typed understanding acts on it).
        let text = "where did i leave the remote"
        let stop = try command("find the remote")
        #expect(meaning.decide(text, channel: .typed) == .act(stop))
        #expect(OpenSpeechUnderstanding(understanding: meaning).decide(text).command == nil)
        func heard(_ confidence: Double?) -> HeardTranscripts {
            var heard = HeardTranscripts(grammar: nil, openSpeech: text)
            heard.neuralConfidence = confidence
            return heard
        }
        let bar = ListeningDecoding.neuralCertainWords
        #expect(ListeningDecoding.neural.decide(heard(bar), understanding: meaning) == .act(stop))
        guard case .confirm(_, let pending) = ListeningDecoding.neural.decide(heard(bar - 0.01), understanding: meaning) else {
            Issue.record("below the bar, not asked about"); return
        }
        #expect(pending == stop)
        // Only the neural recogniser's confidence counts (pocketsphinx's posteriors are another scale).
        #expect(ListeningDecoding.openSpeech.decide(heard(1), understanding: meaning).command == nil)
        #expect(ListeningDecoding.neural.decide(heard(nil), understanding: meaning).command == nil)
        // What hides things is acted on only when both the words and the meaning are sure
        // (`InputChannel.spoken(certain: true)`); with the words less sure it is asked about,
        // however certain the meaning.
        var hiding = HeardTranscripts(grammar: nil, openSpeech: "i don't want to hear about chairs any more i think")
        hiding.neuralConfidence = 1
        #expect(ListeningDecoding.neural.decide(hiding, understanding: meaning).command?.intent == .ignore)
        hiding.neuralConfidence = bar - 0.01
        guard case .confirm(_, let ignore) = ListeningDecoding.neural.decide(hiding, understanding: meaning) else {
            Issue.record("a command that hides things, from words below the bar, not asked about"); return
        }
        #expect(ignore.intent == .ignore)
    }

    @Test("the choices are parsed by name and explained one line each")
    func choices() {
        #expect(ListeningDecoding(choice: "neural") == .neural)
        #expect(ListeningDecoding(choice: "grammar") == .grammar)
        #expect(ListeningDecoding(choice: "open-speech") == .openSpeech)
        #expect(ListeningDecoding(choice: "ngram") == .openSpeech)
        #expect(ListeningDecoding(choice: "agreement") == .agreement)
        #expect(ListeningDecoding(choice: "both") == nil)
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
        // Under agreement both decoders heard the command.
        if ListeningDecoding.standard == .agreement {
            #expect(heard.first?.transcripts.grammar != nil && heard.first?.transcripts.openSpeech != nil)
        }
    }
}

@Suite("The command n-gram model kept between starts")
struct CommandLanguageModelCacheTests {
    @Test("the file is named by exactly the sentences and weights, in any order")
    func key() {
        let cache = CommandLanguageModelCache(folder: URL(fileURLWithPath: "/tmp/unused"))
        let find = LanguageModelSentence(words: ["find", "a", "chair"], weight: 1)
        let scan = LanguageModelSentence(words: ["scan", "now"], weight: 1)
        let half = LanguageModelSentence(words: ["scan", "now"], weight: 0.5)
        #expect(cache.file(for: [find, scan]) == cache.file(for: [scan, find]))
        #expect(cache.file(for: [find, scan]) != cache.file(for: [find, half]))
        #expect(cache.file(for: [find, scan]) != cache.file(for: [find]))
        #expect(cache.file(for: [find]).deletingLastPathComponent().path == "/tmp/unused")
    }
}
