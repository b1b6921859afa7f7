import AssistCore
import Foundation
import VoiceInput

/// One `bench wake` run: the lists read, the voices named, the spotter as `assist wake` builds it
/// (default settings), then `WakeBenchmark` over them.
public struct WakeBenchmarkRun {
    /// The voices (`EspeakTestVoice.named`).
    public var voiceNames: [String]
    /// Renderings of the phrase ("<text> | <rate> | <noise>", `WakeRendering.parse`); nil: that part skipped.
    public var wakeList: URL?
    /// Sentences without the phrase, one a line; nil: that part skipped.
    public var speechList: URL?
    /// Only the first this many sentences (nil: all), for a shorter run.
    public var sentenceLimit: Int?
    public var sentenceSNRDecibels: Double
    /// Where the synthetic audio is kept; nil: a temporary folder, removed afterwards.
    public var keptAudioFolder: URL?
    public var progress: (String) -> Void = { _ in }

    public init(voiceNames: [String], wakeList: URL?, speechList: URL?, sentenceLimit: Int?, sentenceSNRDecibels: Double,
                keptAudioFolder: URL?) {
        self.voiceNames = voiceNames
        self.wakeList = wakeList
        self.speechList = speechList
        self.sentenceLimit = sentenceLimit
        self.sentenceSNRDecibels = sentenceSNRDecibels
        self.keptAudioFolder = keptAudioFolder
    }

    /// The voice names that are not known (`EspeakTestVoice.named`).
    public static func unknownVoices(_ names: [String]) -> [String] { names.filter { EspeakTestVoice.named($0) == nil } }

    /// A part of a run that is not allowed; the command line names its option (`FailureReport`).
    public enum Problem: UserFacingError, Equatable, CaseIterable {
        case voices, sentences, snr, nothingToRun

        /// What the part must be, after the option's name.
        public var requirement: String {
            switch self {
            case .voices: return "must be a comma-separated list of festival, espeak-en-us, espeak-en-gb, piper and piper-fast."
            case .sentences: return "must be at least 1."
            case .snr: return "must be between -20 and 80 dB."
            case .nothingToRun: return "cannot both be none."
            }
        }

        public var userMessage: String { "The wake benchmark's settings: \(requirement)" }
    }

    /// What is wrong with a run asked for (nil: nothing). The rules live here, so that the
    /// command only parses; `FailureReportTests` checks them.
    public static func problem(voiceNames: [String], sentenceLimit: Int?, sentenceSNRDecibels: Double,
                               skipsRenderings: Bool, skipsSpeech: Bool) -> Problem? {
        if voiceNames.isEmpty || !unknownVoices(voiceNames).isEmpty { return .voices }
        if let sentenceLimit, sentenceLimit < 1 { return .sentences }
        if !(sentenceSNRDecibels > -20 && sentenceSNRDecibels < 80) { return .snr }
        if skipsRenderings, skipsSpeech { return .nothingToRun }
        return nil
    }

    public func run() throws -> WakeBenchReport {
        func text(_ url: URL) throws -> String {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw BenchmarkInputError.unreadable(path: url.path) }
            return text
        }
        let renderings = try wakeList.map { try WakeRendering.parse(try text($0)) } ?? []
        var sentences: [String] = []
        if let speechList {
            _ = try text(speechList)
            sentences = try VoiceBenchmarkRun.nonCommands(in: speechList).map(\.text)
        }
        if let sentenceLimit { sentences = Array(sentences.prefix(sentenceLimit)) }
        let folder = keptAudioFolder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("assist-bench-wake-\(getpid())")
        defer { if keptAudioFolder == nil { try? FileManager.default.removeItem(at: folder) } }
        var benchmark = WakeBenchmark(voices: voiceNames.compactMap(EspeakTestVoice.named), renderings: renderings, sentences: sentences)
        benchmark.sentenceSNRDecibels = sentenceSNRDecibels
        benchmark.progress = progress
        let spotter = try WakePhraseSpotter(files: try SpeechModelFiles.installed())
        return WakeBenchReport(try benchmark.run(spotter: spotter, workFolder: folder))
    }
}
