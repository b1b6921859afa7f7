import AssistCore
import Foundation
@testable import Guidance
@testable import LiveGuidance
import Media
import Perception
import Synchronization
import TestSupport
import Testing

/// Two of the session's parts on their own: the analysis runner (the analyzer's lifecycle, its
/// preparation, failures counted) and the request inbox (what reaches the session, in what order).
/// The runner's watchdog stands on a test clock that never moves: nothing here waits on time.
@Suite("Analysis runner and request inbox")
struct AnalysisRunnerAndInboxTests {
    private static let frame = Frame(image: RGBImage(width: 16, height: 12, filledWith: (128, 128, 128)), sourceName: "test")

    private static func wanting(ignoring ignored: Set<String> = [], depthModel: Bool = true) throws -> AnalyzerRequirements {
        AnalyzerRequirements(description: try DescriptionSettings(), ignoredCategories: ignored, depthModel: depthModel)
    }

    /// A runner over `make`, with the session's real limits on a clock that stands still.
    private static func runner(failuresBeforeStop: Int = 3,
                               make: @escaping (AnalyzerRequirements) throws -> any SceneAnalyzing) throws -> AnalysisRunner {
        AnalysisRunner(supply: AnalyzerSupply(make: make), requirements: try wanting(),
                       clock: ElapsedClock(ManualClock(), executor: OwnThreads.shared),
                       watchdogSeconds: 4, questionWatchdogSeconds: 20, failuresBeforeStop: failuresBeforeStop)
    }

    @Test("the analyzer is prepared once per frame size, and a report is made of each frame")
    func preparesOncePerSize() async throws {
        let analyzer = PreparingAnalyzer(signalling: DispatchSemaphore(value: 0))
        let runner = try Self.runner { _ in analyzer }
        guard case .unloaded = await runner.analyse(Self.frame, corridor: nil) else {
            Issue.record("a runner that loaded nothing analysed a frame")
            return
        }
        try runner.load()
        for _ in 0..<3 {
            guard case .analysed(let report, nil, _) = await runner.analyse(Self.frame, corridor: nil) else {
                Issue.record("the frame was not analysed")
                return
            }
            #expect(report.imageWidth == 16)
        }
        let larger = Frame(image: RGBImage(width: 32, height: 24, filledWith: (0, 0, 0)), sourceName: "test")
        _ = await runner.analyse(larger, corridor: nil)
        #expect(analyzer.preparedSizes == [[16, 12], [32, 24]])
        #expect(analyzer.inner.analysedFrameTimes.count == 4)
    }

    @Test("a failing depth model is left out once; other failures count up to the limit, and a report resets the count")
    func failuresCounted() async throws {
        let made = Mutex<[Bool]>([])
        let failing = Atomic<Bool>(true)
        let runner = try Self.runner { wanted in
            made.withLock { $0.append(wanted.depthModel) }
            if wanted.depthModel { return DepthFailingAnalyzer() }
            return ScriptedAnalyzer(failing.load(ordering: .relaxed) ? .throwsError : .findsNothing)
        }
        try runner.load()
        guard case .failed(_, let depth, _) = await runner.analyse(Self.frame, corridor: nil) else {
            Issue.record("the depth model did not fail")
            return
        }
        guard case .withoutDepthModel = runner.noteFailure(of: depth) else {
            Issue.record("a failing depth model was not left out")
            return
        }
        #expect(runner.requirements.depthModel == false)
        // Settings that ask for the depth model again do not bring a failed one back.
        try runner.require(Self.wanting(depthModel: true))
        #expect(made.withLock { $0 } == [true, false])

        var verdicts: [String] = []
        for _ in 0..<3 {
            guard case .failed(_, let analyzer, _) = await runner.analyse(Self.frame, corridor: nil) else {
                Issue.record("the analysis did not fail")
                return
            }
            switch runner.noteFailure(of: analyzer) {
            case .withoutDepthModel: verdicts.append("without depth")
            case .failedAgain: verdicts.append("again")
            case .tooManyInARow: verdicts.append("too many")
            }
        }
        #expect(verdicts == ["again", "again", "too many"])

        // A report in between starts the count again.
        failing.store(false, ordering: .relaxed)
        try runner.require(Self.wanting(ignoring: ["car"]))
        guard case .analysed = await runner.analyse(Self.frame, corridor: nil) else {
            Issue.record("the new analyzer did not analyse")
            return
        }
        failing.store(true, ordering: .relaxed)
        try runner.require(Self.wanting(ignoring: ["bus"]))
        guard case .failed(_, let analyzer, _) = await runner.analyse(Self.frame, corridor: nil),
              case .failedAgain = runner.noteFailure(of: analyzer) else {
            Issue.record("the count did not start again after a report")
            return
        }
    }

    @Test("new requirements remake a loaded analyzer only when they differ; a released one is made at the next load")
    func requirementsRemake() throws {
        let makes = Mutex(0)
        let runner = try Self.runner { _ in
            makes.withLock { $0 += 1 }
            return ScriptedAnalyzer()
        }
        try runner.load()
        try runner.require(runner.requirements)
        #expect(makes.withLock { $0 } == 1, "the same requirements keep the analyzer")
        try runner.require(Self.wanting(ignoring: ["person"]))
        #expect(makes.withLock { $0 } == 2)
        runner.release()
        #expect(!runner.isLoaded)
        try runner.require(Self.wanting(ignoring: ["dog"]))
        #expect(makes.withLock { $0 } == 2, "nothing is made while the model is given back")
        try runner.load()
        #expect(makes.withLock { $0 } == 3)
        #expect(runner.requirements.ignoredCategories == ["dog"])
    }

    @Test("scheduled items come at their moments in the order given, then what was sent; exit goes first and the rest is answered")
    func inboxOrder() {
        let controls = SessionControls()
        let inbox = RequestInbox(controls: controls,
                                 requests: [ScheduledRequest(atSeconds: 2, request: .pause),
                                            ScheduledRequest(atSeconds: 1, request: .scanNow),
                                            ScheduledRequest(atSeconds: 2, request: .resume)],
                                 lines: [ScheduledLine(atSeconds: 1, text: "more")], goodbye: "Goodbye.")
        var lines: [String] = []
        inbox.carryOutLine = { line in
            lines.append(line)
            controls.send(.more)
        }
        var acted: [String] = []
        func act(_ arrival: RequestInbox.Arrival, _ time: Double) {
            switch arrival {
            case .request(let request, let answer):
                acted.append("\(request)@\(time)")
                answer?(.carriedOut)
            case .settings: acted.append("settings@\(time)")
            }
        }
        var moments: [Double] = []
        let moment = { (due: Double) -> Double in
            moments.append(due)
            return due
        }
        #expect(inbox.nextScheduledSeconds == 1)
        #expect(!inbox.hasArrivals(by: 0.5))
        inbox.deliver(upTo: 0.5, ended: { false }, moment: moment, act: act)
        #expect(acted.isEmpty)
        #expect(inbox.hasArrivals(by: 1.5))
        inbox.deliver(upTo: 1.5, ended: { false }, moment: moment, act: act)
        #expect(acted == ["scanNow@1.0", "more@1.0"])
        #expect(lines == ["more"])
        #expect(moments == [1, 1])

        // Sent with an exit: only the exit is acted on, and the rest is told it was not carried out.
        let answers = Mutex<[SessionRequestOutcome]>([])
        controls.send(.explore) { outcome in answers.withLock { $0.append(outcome) } }
        controls.update(SessionSettingsUpdate(intervalSeconds: 2))
        controls.send(.quit)
        acted = []
        inbox.deliver(upTo: 1.6, ended: { false }, moment: moment, act: act)
        #expect(acted == ["quit@1.6"])
        #expect(answers.withLock { $0 } == [.notCarriedOut("Goodbye.")])

        // Once the session ended, scheduled items are no longer taken.
        acted = []
        inbox.deliver(upTo: 3, ended: { true }, moment: moment, act: act)
        #expect(acted.isEmpty)
        #expect(inbox.nextScheduledSeconds == 2)
        inbox.deliver(upTo: 3, ended: { false }, moment: moment, act: act)
        #expect(acted == ["pause@2.0", "resume@2.0"])
    }
}
