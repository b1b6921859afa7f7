import AssistCore
import Foundation
import Media
import Perception
import Synchronization
import Testing
@testable import Guidance
@testable import LiveGuidance

/// A bus that comes into view at `appearsSeconds` `startMeters` away and drives towards the camera
/// at `metersPerSecond`, 15 frames a second: the picture shows it as a dark block that grows as it
/// comes closer (what the change measure sees), and `BusDetector` finds it at the distance the
/// moment calls for (what the detector sees).
private struct ApproachingBus: Sendable {
    var appearsSeconds = 3.1
    var startMeters = 25.0
    var metersPerSecond = 3.0
    var seconds = 10.0
    var framesPerSecond = 15.0
    /// When it starts to drive (before that it stands, parked); its first sighting when nil.
    var startsSeconds: Double?

    func meters(at time: Double) -> Double? {
        time >= appearsSeconds ? max(2, startMeters - metersPerSecond * max(0, time - (startsSeconds ?? appearsSeconds))) : nil
    }

    func picture(at time: Double) -> RGBImage {
        var image = RGBImage(width: 64, height: 48, filledWith: (128, 128, 128))
        guard let meters = meters(at: time) else { return image }
        let side = min(40, Int(200 / meters))
        for y in (24 - side / 2)..<(24 + (side + 1) / 2) {
            for x in (32 - side / 2)..<(32 + (side + 1) / 2) {
                let i = (y * 64 + x) * 3
                image.pixels[i] = 30; image.pixels[i + 1] = 30; image.pixels[i + 2] = 40
            }
        }
        return image
    }
}

private final class ApproachingBusSource: FrameSource {
    let name = "bus.mp4"
    let bus: ApproachingBus
    private var index = 0
    init(_ bus: ApproachingBus) { self.bus = bus }

    func nextFrame() throws -> Frame? {
        let time = Double(index) / bus.framesPerSecond
        guard time < bus.seconds else { return nil }
        index += 1
        return Frame(image: bus.picture(at: time), timestampSeconds: time, sourceName: name)
    }
}

private final class BusDetector: SceneAnalyzing, @unchecked Sendable {
    let bus: ApproachingBus
    let usesDepthModel = false
    private let seen = Mutex<[Double]>([])
    init(_ bus: ApproachingBus) { self.bus = bus }

    var analysedFrameTimes: [Double] { seen.withLock { $0 } }

    func analyze(_ frame: Frame) throws -> SceneReport {
        seen.withLock { $0.append(frame.timestampSeconds) }
        return report(bus.meters(at: frame.timestampSeconds).map { [sighting("bus", meters: $0)] } ?? [])
    }

    func cancel() {}
}

@Suite("Adaptive analysis in the live session (issue 20)")
struct AdaptiveAnalysisSessionTests {
    /// An offline session over the bus video (on its own clock, 20 ms counted per analysed frame).
    private static func run(_ policy: AnalysisSchedule.Policy, bus: ApproachingBus = ApproachingBus(),
                            commands: [ScheduledRequest] = []) async throws -> (harness: SessionHarness, detector: BusDetector) {
        let detector = BusDetector(bus)
        let harness = SessionHarness(frameCostSeconds: 0.02) { ScriptedFrameSource(frameCount: 0) }
        harness.configuration.input = FrameInput(name: "bus.mp4", kind: .recording) { _ in ApproachingBusSource(bus) }
        harness.configuration.analysisSchedule = policy
        harness.configuration.scheduledRequests = commands
        let (_, ending) = try await harness.run(mode: .continuous, firstAnalyzer: detector)
        #expect(ending == .inputEnded)
        return (harness, detector)
    }

    private static func count(_ times: [Double], from start: Double, to end: Double) -> Int {
        times.filter { $0 >= start - 1e-9 && $0 < end - 1e-9 }.count
    }

    @Test("a still scene is analysed a fifth as often as every frame, and the start-up line says which schedule runs")
    func stillSceneCostsLess() async throws {
        let empty = ApproachingBus(appearsSeconds: 100)
        let (adaptive, adaptiveDetector) = try await Self.run(.adaptive, bus: empty)
        let (everyFrame, everyFrameDetector) = try await Self.run(.everyFrame, bus: empty)
        #expect(everyFrameDetector.analysedFrameTimes.count == 150)
        #expect(adaptiveDetector.analysedFrameTimes.count == 30)
        #expect(adaptive.reports.first?.event == "activated")
        #expect(adaptive.reports.first?.analysisSchedule == "adaptive")
        #expect(everyFrame.reports.first?.analysisSchedule == "every frame")
        #expect(adaptive.reports.dropFirst().allSatisfy { $0.event != nil || $0.analysedBecause != nil })
    }

    @Test("an approaching bus is warned of no later than when every frame is analysed, and watched every frame")
    func approachWarningNoLater() async throws {
        let (adaptive, adaptiveDetector) = try await Self.run(.adaptive)
        let (everyFrame, _) = try await Self.run(.everyFrame)
        func firstWarning(_ harness: SessionHarness) -> Double? {
            harness.said.first { $0.utterance.priority == .hazard && $0.utterance.text.contains("Bus coming closer, ") }?.timeSeconds
        }
        let adaptiveWarning = try #require(firstWarning(adaptive))
        let everyFrameWarning = try #require(firstWarning(everyFrame))
        #expect(adaptiveWarning <= everyFrameWarning)
        // Before the bus: three a second; from its first sighting on: every frame.
        let times = adaptiveDetector.analysedFrameTimes
        #expect(Self.count(times, from: 1, to: 3) == 6)
        // 3.1 s falls between two due analyses: the change measure saw it come into view at once.
        let firstSighting = try #require(times.first { $0 >= 3.1 })
        #expect(abs(firstSighting - 47.0 / 15) < 1e-9)
        #expect(Self.count(times, from: firstSighting, to: 8) == Int(((8 - firstSighting) * 15).rounded()))
    }

    @Test("a parked bus is looked at three times a second; when it pulls out, every alert comes no later than with every frame analysed",
          arguments: [(12.0, 3.0), (9.0, 1.5), (25.0, 4.0)])
    func parkedBusPullsOut(startMeters: Double, metersPerSecond: Double) async throws {
        let bus = ApproachingBus(appearsSeconds: 1, startMeters: startMeters, metersPerSecond: metersPerSecond, startsSeconds: 5)
        let (adaptive, adaptiveDetector) = try await Self.run(.adaptive, bus: bus)
        let (everyFrame, _) = try await Self.run(.everyFrame, bus: bus)
        func alerts(_ harness: SessionHarness) -> [(text: String, seconds: Double)] {
            harness.said.filter { $0.utterance.priority == .hazard }.map { ($0.utterance.text, $0.timeSeconds) }
        }
        let expected = alerts(everyFrame), got = alerts(adaptive)
        #expect(expected.contains { $0.text.contains("Bus coming closer, ") })
        #expect(got.map(\.text) == expected.map(\.text), "\(got) against \(expected)")
        for (adaptiveAlert, everyFrameAlert) in zip(got, expected) {
            #expect(adaptiveAlert.seconds <= everyFrameAlert.seconds + 1e-9, "\(adaptiveAlert.text): \(got) against \(expected)")
        }
        #expect(Self.count(adaptiveDetector.analysedFrameTimes, from: 4, to: 5) == 3, "parked")
    }

    @Test("\"scan now\" raises the rate to every frame for three seconds")
    func requestRaisesTheRate() async throws {
        let empty = ApproachingBus(appearsSeconds: 100)
        let (_, detector) = try await Self.run(.adaptive, bus: empty, commands: [ScheduledRequest(atSeconds: 4, request: .scanNow)])
        let times = detector.analysedFrameTimes
        #expect(Self.count(times, from: 1, to: 4) == 9)
        #expect(Self.count(times, from: 4, to: 7) == 45)
        #expect(Self.count(times, from: 7.5, to: 9.5) == 6)
    }
}
