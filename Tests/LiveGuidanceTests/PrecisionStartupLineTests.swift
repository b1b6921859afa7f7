import AssistCore
import Foundation
@testable import Guidance
import Media
import Perception
import Testing
@testable import LiveGuidance

/// An analyzer that finds nothing and runs in the precision it is given, as a detector made by
/// `DetectorChoice` reports it.
private final class PrecisionAnalyzer: SceneAnalyzing, @unchecked Sendable {
    let usesDepthModel = false
    let precision: PrecisionDecision?
    init(_ precision: PrecisionDecision?) { self.precision = precision }

    func analyze(_ frame: Frame) throws -> SceneReport {
        SceneReport(source: frame.sourceName, imageWidth: frame.image.width, imageHeight: frame.image.height,
                    quality: .ok, objects: [], sentences: ["No object detected."], announced: [],
                    timings: StageTimings(), depthSource: "geometry")
    }

    func cancel() {}
}

@Suite("The start-up line says which precision runs (issue 20, item 4)")
struct PrecisionStartupLineTests {
    @Test("the activated line of --json carries the precision, what OpenVINO compiled and why; analysed frames do not repeat it")
    func activatedLineNamesPrecision() async throws {
        let decision = PrecisionDecision(precision: .f32, requested: .auto,
                                         reason: "this CPU has no native bf16 (no AVX-512 BF16 or AMX), so bf16 would not be faster",
                                         compiledAs: "f32")
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 3) }
        _ = try await harness.run(firstAnalyzer: PrecisionAnalyzer(decision))
        let activated = try #require(harness.reports.first)
        #expect(activated.event == "activated")
        #expect(activated.precision == decision)
        #expect(harness.reports.dropFirst().allSatisfy { $0.precision == nil })

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = String(decoding: try encoder.encode(activated), as: UTF8.self)
        #expect(line.contains(#""precision":{"compiledAs":"f32","precision":"f32","reason":"this CPU has no native bf16"#))
        #expect(line.contains(#""requested":"auto""#))
    }

    @Test("an analyzer without an OpenVINO detector leaves the field out")
    func noDetectorNoField() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 1) }
        _ = try await harness.run(firstAnalyzer: PrecisionAnalyzer(nil))
        let activated = try #require(harness.reports.first)
        let line = String(decoding: try JSONEncoder().encode(activated), as: UTF8.self)
        #expect(activated.event == "activated")
        #expect(!line.contains("\"precision\""))
    }
}
