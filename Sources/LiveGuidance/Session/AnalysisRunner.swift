import AssistCore
import Foundation
import Guidance
import Media
import Perception

/// Frames in, scene reports out: keeps the analyzer the settings ask for, prepares it for each
/// frame size, and runs it, the questions' work and short-text reading on a thread of their own
/// under a watchdog, abandoned at once when the user quits.
///
/// It decides nothing about guidance: what a failure, a hang or a report means for the user is
/// the session's to say (`GuidanceSession.analyseAndGuide`). Used from the session's task only.
final class AnalysisRunner {
    /// What preparing the analyzer for a frame's size came to.
    enum Preparation {
        case ready(any SceneAnalyzing)
        /// Preparing threw: handled as a failed analysis of `analyzer`.
        case failed(any Error, analyzer: any SceneAnalyzing)
        /// Preparing went past its limit: a hang.
        case hung
        /// The user quit meanwhile.
        case abandoned
        /// No analyzer is loaded (after-use, or start-up has not loaded it).
        case unloaded
    }

    /// What analysing one frame came to; `seconds` is the work measured on the session's clock.
    enum Analysis {
        case analysed(SceneReport, CorridorReading?, seconds: Double)
        case failed(any Error, analyzer: any SceneAnalyzing, seconds: Double)
        /// The analysis (or the preparation before it) went past the watchdog's limit.
        case hung
        case abandoned
        case unloaded
    }

    /// What a failed analysis leaves the session with.
    enum AfterFailure {
        /// The depth model failed: the analyzer goes on without it, for the rest of the run.
        case withoutDepthModel
        /// One more failure in a row, fewer than the limit.
        case failedAgain
        /// As many failures in a row as the limit: detection is failing.
        case tooManyInARow
    }

    /// Compiling a model takes seconds, not minutes: longer than this is a hang.
    static let preparingLimitSeconds = 300.0

    private(set) var requirements: AnalyzerRequirements
    private(set) var analyzer: (any SceneAnalyzing)?
    /// Set when the user quits: an analysis under way is no longer waited for.
    let quitting = AnalysisAbandonment()
    private let supply: AnalyzerSupply
    private let clock: ElapsedClock
    private let watchdogSeconds: Double
    private let questionWatchdogSeconds: Double
    private let failuresBeforeStop: Int
    /// The analyzer and frame size last prepared for (`SceneAnalyzing.prepare`).
    private var preparedFor: (analyzer: ObjectIdentifier, width: Int, height: Int)?
    private var failuresInARow = 0

    init(supply: AnalyzerSupply, requirements: AnalyzerRequirements, clock: ElapsedClock,
         watchdogSeconds: Double, questionWatchdogSeconds: Double, failuresBeforeStop: Int) {
        self.supply = supply
        self.requirements = requirements
        self.clock = clock
        self.watchdogSeconds = watchdogSeconds
        self.questionWatchdogSeconds = questionWatchdogSeconds
        self.failuresBeforeStop = failuresBeforeStop
    }

    var isLoaded: Bool { analyzer != nil }

    /// Loads the analyzer for the current requirements (start-up, back from after-use).
    func load() throws {
        analyzer = try supply.make(requirements)
    }

    /// Gives the model back (after-use); `load` takes it again.
    func release() {
        analyzer = nil
        supply.release()
    }

    /// The settings ask for `wanted`: a loaded analyzer is remade for it. A depth model that
    /// failed stays off for the rest of the run. Throws when the new analyzer could not be made
    /// (the old one goes on).
    func require(_ wanted: AnalyzerRequirements) throws {
        var wanted = wanted
        wanted.depthModel = wanted.depthModel && requirements.depthModel
        guard wanted != requirements else { return }
        requirements = wanted
        if analyzer != nil { analyzer = try supply.make(requirements) }
    }

    /// Prepares the analyzer for frames of this size when it is new (compiling the model for the
    /// size takes seconds on a slow machine: the first frame would otherwise be taken for a hung
    /// inference). On its own thread, so "exit" still acts at once; its own limit only catches a hang.
    func prepare(for frame: Frame) async -> Preparation {
        guard let analyzer else { return .unloaded }
        let size = (analyzer: ObjectIdentifier(analyzer), width: frame.image.width, height: frame.image.height)
        if let preparedFor, preparedFor == size { return .ready(analyzer) }
        let watchdog = AnalysisWatchdog(limitSeconds: Self.preparingLimitSeconds, clock: clock)
        switch await watchdog.run(abandonedBy: quitting, { try analyzer.prepare(for: frame) }) {
        case .finished(.success):
            preparedFor = size
            return .ready(analyzer)
        case .finished(.failure(let error)): return .failed(error, analyzer: analyzer)
        case .timedOut: return .hung
        case .abandoned: return .abandoned
        }
    }

    /// Analyses `frame` (prepared first when its size is new) under the watchdog, with the
    /// class-free corridor cue when `corridor` is given. `reusing` is a report already made of
    /// this very frame (for a question), used instead of running the detector again.
    func analyse(_ frame: Frame, corridor: WalkingCorridor?, reusing made: SceneReport? = nil) async -> Analysis {
        let workStart = clock.seconds
        let analyzer: any SceneAnalyzing
        switch await prepare(for: frame) {
        case .ready(let ready): analyzer = ready
        case .failed(let error, let failed): return .failed(error, analyzer: failed, seconds: clock.seconds - workStart)
        case .hung: return .hung
        case .abandoned: return .abandoned
        case .unloaded: return .unloaded
        }
        let watchdog = AnalysisWatchdog(limitSeconds: watchdogSeconds, clock: clock)
        let outcome = await watchdog.run(abandonedBy: quitting) {
            let report = try made ?? analyzer.analyze(frame)
            return (report, corridor.flatMap { Self.corridorReading(for: frame, corridor: $0) })
        }
        let seconds = clock.seconds - workStart
        switch outcome {
        case .timedOut:
            analyzer.cancel()
            return .hung
        case .abandoned:
            analyzer.cancel()
            return .abandoned
        case .finished(.failure(let error)):
            return .failed(error, analyzer: analyzer, seconds: seconds)
        case .finished(.success(let (report, corridor))):
            failuresInARow = 0
            return .analysed(report, corridor, seconds: seconds)
        }
    }

    /// Counts a failed analysis by `failed`: a failing depth model is left out (the analyzer is
    /// remade without it), anything else counts towards the limit of failures in a row.
    func noteFailure(of failed: any SceneAnalyzing) -> AfterFailure {
        if failed.usesDepthModel && requirements.depthModel {
            var withoutDepth = requirements
            withoutDepth.depthModel = false
            if let replacement = try? supply.make(withoutDepth) {
                requirements = withoutDepth
                analyzer = replacement
                return .withoutDepthModel
            }
        }
        failuresInARow += 1
        return failuresInARow >= failuresBeforeStop ? .tooManyInARow : .failedAgain
    }

    /// Answers `questions` about `frame` under the question watchdog. `peopleFinder`, when given
    /// (prepared for this frame), finds the people and things in it first: faces belong on
    /// people's heads, and "what colour is the bus" is answered about this frame's bus. Returns
    /// each question's answer and the report made of the frame, if any.
    func answer(_ questions: [PictureQuestion], about frame: Frame, with answering: any PictureQuestions,
                peopleFinder: (any SceneAnalyzing)?, describer: SceneDescriber)
        async -> AnalysisWatchdog.Outcome<([(PictureQuestion, Result<[String], PictureQuestionError>)], SceneReport?)> {
        let watchdog = AnalysisWatchdog(limitSeconds: questionWatchdogSeconds, clock: clock)
        return await watchdog.run(abandonedBy: quitting) {
            var context = FrameContext.pixelsOnly
            let report = peopleFinder.flatMap { try? $0.analyze(frame) }
            if let finder = peopleFinder, let report {
                let people = report.objects.filter { $0.label == FaceDetector.personLabel }
                nonisolated(unsafe) let locating = finder
                context = FrameContext(people: people.map(\.detection.box), objects: report.objects, describer: describer) { found in
                    guard let located = try? locating.locate(found, in: frame) else { return [] }
                    return describer.sentences(forFaces: FaceDetector.atTheirPeoplesDistance(located, people: people))
                }
            }
            let answers = questions.map { question in
                (question, Result { () throws(PictureQuestionError) -> [String] in try answering.answer(question, about: frame, context: context) })
            }
            return (answers, report)
        }
    }

    /// Reads the short text in `frame` (short-text mode) under the question watchdog.
    func readShortText(in frame: Frame, with answering: any PictureQuestions) async -> AnalysisWatchdog.Outcome<String?> {
        await AnalysisWatchdog(limitSeconds: questionWatchdogSeconds, clock: clock).run(abandonedBy: quitting) {
            try answering.shortText(in: frame)
        }
    }

    /// The class-free obstacle cue: the depth image when the frame has one, else free floor.
    static func corridorReading(for frame: Frame, corridor: WalkingCorridor) -> CorridorReading? {
        if let depth = frame.depth {
            let cue = DepthCorridorObstacle(corridor: corridor)
            guard let result = try? cue.detect(in: depth) else { return nil }
            return CorridorReading(nearestObstacleMeters: result.nearestObstacleMeters,
                                   examinedToMeters: cue.settings.maximumRangeMeters, source: .depthImage)
        }
        guard let result = try? FreeFloorDetector(corridor: corridor).detect(in: frame.image) else { return nil }
        return CorridorReading(nearestObstacleMeters: result.nearestObstacleMeters,
                               examinedToMeters: result.farthestExaminedFloorMeters, source: .freeFloor)
    }
}
