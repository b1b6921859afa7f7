import Commands
import Foundation
import VoiceInput

/// One `bench voice` run: the command vocabulary synthesised and recognised under the plan's rates
/// and conditions, then the recorded human speech, as one report.
public struct VoiceBenchmarkRun {
    public enum Outcome {
        /// The grammar the recogniser would use and the pronunciations built for it, one line each.
        case grammar([String])
        case report(VoiceBenchReport)
    }

    public var plan: VoiceBenchmarkPlan
    public var tuning: DecoderTuning
    public var phrasesPerCommand: Int
    public var pushToTalk: Bool
    public var skipsHumanSpeech: Bool
    /// Where the synthetic audio is kept; nil: a temporary folder, removed afterwards.
    public var keptAudioFolder: URL?
    public var logFile: URL?

    public init(plan: VoiceBenchmarkPlan, tuning: DecoderTuning, phrasesPerCommand: Int, pushToTalk: Bool,
                skipsHumanSpeech: Bool, keptAudioFolder: URL?, logFile: URL?) {
        self.plan = plan
        self.tuning = tuning
        self.phrasesPerCommand = phrasesPerCommand
        self.pushToTalk = pushToTalk
        self.skipsHumanSpeech = skipsHumanSpeech
        self.keptAudioFolder = keptAudioFolder
        self.logFile = logFile
    }

    /// Runs it; `categories` are the object categories commands may name, `printsGrammar` stops after the grammar.
    public func run(categories: [String], printsGrammar: Bool) throws -> Outcome {
        let folder = keptAudioFolder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("assist-bench-voice-\(getpid())")
        defer { if keptAudioFolder == nil { try? FileManager.default.removeItem(at: folder) } }
        let vocabulary = VoiceCommandVocabulary(language: try CommandLanguage(language: "en", categories: categories))
        var tuning = tuning
        tuning.extraArguments = plan.extraDecoderArguments
        let recognizer = try CommandRecognizer(grammar: vocabulary.grammar, tuning: tuning, logFile: logFile)
        if printsGrammar {
            return .grammar([recognizer.pronunciationCheck.usableGrammar.jsgf]
                + recognizer.pronunciationCheck.addedWords.sorted(by: { $0.key < $1.key }).map { "// \($0.key) \($0.value)" })
        }
        var benchmark = CommandRecognitionBenchmark(
            commands: vocabulary.benchmarkCommands(perIntent: phrasesPerCommand), speakingRates: plan.rates,
            conditions: plan.conditions, understand: vocabulary.meaning(of:))
        benchmark.pushToTalk = pushToTalk
        let trials = try benchmark.run(recognizer: recognizer, workFolder: folder)
        let human = skipsHumanSpeech ? HumanSpeechResult(recordings: []) : try HumanSpeechBenchmark().run()
        return .report(VoiceBenchReport(trials: trials, human: human, missingWords: recognizer.pronunciationCheck.missingWords,
                                        addedWords: recognizer.pronunciationCheck.addedWords))
    }
}
