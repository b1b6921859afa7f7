import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Perception

@Suite("Plugging in a learned depth model")
struct DepthEstimatorTests {
    /// Left half black, right half white.
    func halfBlackHalfWhite(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height { for x in width / 2..<width { for c in 0..<3 { pixels[(y * width + x) * 3 + c] = 255 } } }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    @Test("a metric model's output becomes meters at the image's own size, marked as model-estimated")
    func metricModel() throws {
        let folder = try TemporaryFolder.make("perception-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try TinyIRModel.brightnessDepth(height: 16, width: 32).write(to: folder, name: "depth")
        let estimator = try DepthEstimator(modelURL: model, outputKind: .metric, normalization: .unitRange,
                                           options: InferenceOptions(cacheDirectory: nil))
        let depth = try estimator.estimate(halfBlackHalfWhite(width: 200, height: 100))
        #expect(depth.width == 200 && depth.height == 100 && depth.origin == .model)
        #expect(abs((depth.meters(x: 10, y: 50) ?? 0) - 1) < 0.01)    // black: 1 m
        #expect(abs((depth.meters(x: 190, y: 50) ?? 0) - 11) < 0.01)  // white: 11 m
    }

    @Test("a relative model is scaled to meters by anchors, robust to one bad anchor")
    func relativeAlignment() {
        // Inverse depth 2 at the left, 0.5 at the right: true distances 1 m and 4 m (k = 2).
        let relative = DepthMap(width: 4, height: 1, metersOrNaN: [2, 2, 0.5, 0.5], origin: .model)
        let anchors = [DepthScaleAlignment.Anchor(x: 0, y: 0, meters: 1),
                       DepthScaleAlignment.Anchor(x: 3, y: 0, meters: 4),
                       DepthScaleAlignment.Anchor(x: 1, y: 0, meters: 1.05),
                       DepthScaleAlignment.Anchor(x: 2, y: 0, meters: 40)]   // a wrong anchor
        let metric = DepthScaleAlignment.metric(fromRelativeInverse: relative, anchors: anchors)
        #expect(metric.map { abs(($0.meters(x: 0, y: 0) ?? 0) - 1.05) < 0.06 } == true)
        #expect(metric.map { abs(($0.meters(x: 3, y: 0) ?? 0) - 4.2) < 0.25 } == true)
        #expect(DepthScaleAlignment.metric(fromRelativeInverse: relative, anchors: []) == nil)
    }

    @Test("a model of the wrong shape is refused with a sentence")
    func wrongShape() throws {
        let folder = try TemporaryFolder.make("perception-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try TinyIRModel.identity(shape: [1, 3, 8, 8]).write(to: folder, name: "identity")
        #expect(throws: DepthModelError.unsupportedOutput(model: "identity.xml", shape: [1, 3, 8, 8])) {
            try DepthEstimator(modelURL: model, outputKind: .metric, options: InferenceOptions(cacheDirectory: nil))
        }
    }
}
