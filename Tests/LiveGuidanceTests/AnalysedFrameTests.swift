import AssistCore
import Foundation
@testable import Guidance
@testable import LiveGuidance
import Perception
import Speech
import Testing

/// An analyzer that finds the same objects in every frame, as a detector would in a still scene.
final class FixedObjectsAnalyzer: SceneAnalyzing, @unchecked Sendable {
    let objects: [LocatedObject]
    let usesDepthModel = false

    init(_ objects: [LocatedObject]) { self.objects = objects }

    func analyze(_ frame: Frame) throws -> SceneReport {
        SceneReport(source: frame.sourceName, imageWidth: frame.image.width, imageHeight: frame.image.height,
                    quality: nil, objects: objects, sentences: objects.map { "A \($0.label)." }, announced: objects,
                    timings: StageTimings(), depthSource: "geometry")
    }

    func cancel() {}

    static let person = LocatedObject(
        detection: Detection(classIndex: 0, label: "person", confidence: 0.9, box: BoundingBox(x0: 2, y0: 1, x1: 9, y1: 11)),
        direction: Direction(angleDegrees: 0, elevationDegrees: 0), distance: DistanceEstimate(meters: 2.4, method: .objectSize, relativeError: 0.2))
}

@Suite("The session hands out the frame it analysed last, in memory, and drops it at the end")
struct AnalysedFrameTests {
    @Test("each analysed frame reaches a watcher with the objects found in it; after the end no frame is held")
    func watchersSeeEachAnalysedFrame() async throws {
        let picture = RGBImage(width: 16, height: 12, filledWith: (200, 10, 10))
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 3, picture: picture) }
        let analyzer = FixedObjectsAnalyzer([FixedObjectsAnalyzer.person])
        let session = GuidanceSession(configuration: harness.configuration,
                                      analyzers: AnalyzerSupply(make: { _ in analyzer }),
                                      requirements: AnalyzerRequirements(description: .standard),
                                      policy: GuidancePolicy(mode: .continuous, describer: try SceneDescriber()),
                                      feedback: Feedback(queue: harness.queue, vibration: nil, report: { _ in }),
                                      sentences: try SessionSentences.bundled())
        let watching = session.controls.analysedFrames()
        let collected = Task {
            var frames: [AnalysedFrame] = []
            for await frame in watching { frames.append(frame) }
            return frames
        }
        _ = try await session.run()
        // The stream ends with the session, so this returns.
        let frames = await collected.value
        // Newest only: a watcher may skip frames, but never sees one twice or out of order.
        #expect(!frames.isEmpty)
        #expect(frames.map(\.sequenceNumber) == Array(Set(frames.map(\.sequenceNumber))).sorted())
        #expect(frames.last?.sequenceNumber == session.framesAnalysed)
        for frame in frames {
            #expect(frame.image == picture)
            #expect(frame.objects == [FixedObjectsAnalyzer.person])
            #expect(frame.description == ["A person."])
            #expect(frame.distanceUnit == .meters)
        }
        #expect(session.controls.latestAnalysedFrame == nil, "the last frame is dropped when the session ends")
    }

    @Test("a watcher that starts after the end gets an ended stream")
    func lateWatcher() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 2) }
        let (session, _) = try await harness.run()
        var count = 0
        for await _ in session.controls.analysedFrames() { count += 1 }
        #expect(count == 0)
        #expect(session.controls.latestAnalysedFrame == nil)
    }
}
