import Commands
import Foundation
import VoiceInput

/// One `bench voice` run: the command vocabulary synthesised and recognised under the plan's rates
/// and conditions, then the recorded human speech, as one report.
public struct VoiceBenchmarkRun {
    public var plan: VoiceBenchmarkPlan
    public var phrasesPerCommand: Int
    public var pushToTalk: Bool
    public var skipsHumanSpeech: Bool
    /// Where the synthetic audio is kept; nil: a temporary folder, removed afterwards.
    public var keptAudioFolder: URL?
    /// Lines that are no command ("… => none" or plain), said by every voice; nil: none.
    public var nonCommandsFile: URL?
    /// Labelled lines (`LabelledPhrase`: "<text> => <intent> [slot]") said instead of the language
    /// file's phrasings, judged against their labels: held-out phrasings; nil: the language's own.
    public var labelledCommandsFile: URL?
    /// The neural decoding's bar for taking Moonshine's words as said (nil: `ListeningDecoding.neuralCertainWords`).
    public var neuralCertainWords: Double?
    /// The neural decodings' silence that ends a command, in 32 ms windows (nil: `SpeechEndpointer`'s).
    public var neuralEndSilenceWindows: Int?
    /// After how many 32 ms windows of silence the neural decoding transcribes ahead (nil: the recogniser's).
    public var neuralAheadAfterWindows: Int?

    public init(plan: VoiceBenchmarkPlan, phrasesPerCommand: Int, pushToTalk: Bool,
                skipsHumanSpeech: Bool, keptAudioFolder: URL?) {
        self.plan = plan
        self.phrasesPerCommand = phrasesPerCommand
        self.pushToTalk = pushToTalk
        self.skipsHumanSpeech = skipsHumanSpeech
        self.keptAudioFolder = keptAudioFolder
    }

    /// The lines of a non-command file: blank lines and # comments skipped, a " => none" label removed.
    static func nonCommands(in file: URL) throws -> [SpokenCommand] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { raw in
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
            let text = line.components(separatedBy: "=>").first!.trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : SpokenCommand(text: text, expected: nil)
        }
    }

    /// Runs it; `categories` are the object categories commands may name.
    public func run(categories: [String]) throws -> VoiceBenchReport {
        let folder = keptAudioFolder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("assist-bench-voice-\(getpid())")
        defer { if keptAudioFolder == nil { try? FileManager.default.removeItem(at: folder) } }
        let vocabulary = VoiceCommandVocabulary(language: try CommandLanguage(language: "en", categories: categories))
        // What the product does with a transcript: the understanding (patterns, then meaning),
        // spoken, so that what would hide things is asked about rather than done.
        var notes: [String] = []
        let understanding = CommandUnderstanding.loadOrPhrasesOnly(language: vocabulary.language, warn: { notes.append($0) })
        var commands = vocabulary.benchmarkCommands(perIntent: phrasesPerCommand)
        // A labelled line's meaning is compared with what was done in the label's own form.
        var meaningOf: (Command) -> String = { $0.description }
        if let labelledCommandsFile {
            let labelled = try LabelledPhrase.parse(String(contentsOf: labelledCommandsFile, encoding: .utf8))
            commands = labelled.map { SpokenCommand(text: $0.text, expected: $0.expected?.asDone.description) }
            meaningOf = { ExpectedCommand(doneBy: $0).description }
        }
        if let nonCommandsFile { commands += try Self.nonCommands(in: nonCommandsFile) }
        var trials: [RecognitionTrial] = []
        for name in plan.decodePaths {
            // What the live listener does (`ListeningDecoding`): the recogniser it builds and its
            // decision on each utterance's transcript; or the recogniser as it was before.
            let recognizer: CommandRecognizer
            let listening: ListeningDecoding
            var certainWords = ListeningDecoding.neuralCertainWords
            switch plan.decoding(name) {
            case .listening(let decoding)?:
                listening = decoding
                recognizer = try decoding.recognizer(vocabulary: vocabulary)
                if decoding == .neural, let neuralCertainWords { certainWords = neuralCertainWords }
            case .neuralBaseline?:
                listening = .neural
                recognizer = try CommandRecognizer(neural: try SpeechModelFiles.installed(), language: vocabulary.language,
                                                   extraPhrases: vocabulary.wakePhrase.map { [$0] } ?? [], decoderThreadCount: 0)
                (recognizer.utterances as? NeuralUtteranceRecognizer)?.transcribesAhead = false
                certainWords = .infinity
            case .neuralORTFiles?:
                listening = .neural
                recognizer = try CommandRecognizer(neural: try SpeechModelFiles.installed(), language: vocabulary.language,
                                                   extraPhrases: vocabulary.wakePhrase.map { [$0] } ?? [], onnxCopies: false)
                if let neuralCertainWords { certainWords = neuralCertainWords }
            case .neuralLevelEnd?:
                listening = .neural
                recognizer = try ListeningDecoding.neural.recognizer(vocabulary: vocabulary)
                (recognizer.utterances as? NeuralUtteranceRecognizer)?.endpointer.followsForegroundLevel = true
                if let neuralCertainWords { certainWords = neuralCertainWords }
            case nil: continue
            }
            if let neural = recognizer.utterances as? NeuralUtteranceRecognizer {
                if let neuralEndSilenceWindows { neural.endpointer.silenceWindows = neuralEndSilenceWindows }
                if let neuralAheadAfterWindows { neural.transcribesAheadAfterSilentWindows = neuralAheadAfterWindows }
            }
            let decide: (HeardTranscripts) -> CommandDecision = { [certainWords] in
                listening.decide($0, understanding: understanding, neuralCertainWords: certainWords)
            }
            var benchmark = CommandRecognitionBenchmark(commands: commands, speakingRates: plan.rates, conditions: plan.conditions,
                                                        decide: { decide($0).command.map(meaningOf) })
            benchmark.askedAbout = { heard in
                if case .confirm(_, let pending) = decide(heard) { return meaningOf(pending) }
                return nil
            }
            benchmark.decoding = name
            benchmark.voices = plan.voices
            benchmark.pushToTalk = pushToTalk
            trials += try benchmark.run(recognizer: recognizer, workFolder: folder)
        }
        let human = skipsHumanSpeech ? HumanSpeechResult(recordings: []) : try HumanSpeechBenchmark().run()
        return VoiceBenchReport(trials: trials, human: human, notes: notes)
    }
}
