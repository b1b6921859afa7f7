import AssistCore
import Foundation
import Inference

/// A learned monocular depth model plugged in by the user (`--depth-model`): ONNX or IR, with
/// one image input `1×3×H×W` and one output `1×H×W` or `1×1×H×W`.
///
/// None ships with AssistiveKit (none can be obtained here); Depth Anything V2 and MiDaS exports
/// fit this shape. A metric model's output is meters; a relative model's output (MiDaS-style
/// inverse depth) has no scale, so it is turned into meters by `DepthScaleAlignment` using
/// distances known from geometry, and said to be model-estimated in every report.
public final class DepthEstimator {
    public enum OutputKind: String, Sendable, CaseIterable, Codable {
        /// The output is distance in meters.
        case metric
        /// The output is relative inverse depth (larger = closer), known up to scale and shift.
        case relativeInverse = "relative"
    }

    /// How pixels are turned into the model's input numbers.
    public enum InputNormalization: String, Sendable, CaseIterable, Codable {
        /// byte / 255.
        case unitRange = "unit"
        /// (byte / 255 − mean) / std with ImageNet's statistics, as Depth Anything and MiDaS expect.
        case imageNet = "imagenet"
    }

    public let modelURL: URL
    public let outputKind: OutputKind
    public let normalization: InputNormalization
    public let inputWidth: Int
    public let inputHeight: Int
    private let compiled: CompiledModel
    private let request: InferenceRequest

    public init(modelURL: URL, outputKind: OutputKind, normalization: InputNormalization = .imageNet,
                options: InferenceOptions = InferenceOptions(), core: InferenceCore? = nil) throws {
        self.modelURL = modelURL
        self.outputKind = outputKind
        self.normalization = normalization
        let core = try core ?? InferenceCore()
        try ModelChecksums.verify(modelURL)
        let model = try ObjectDetector.usable(modelURL) { () throws(InferenceError) in try core.readModel(at: modelURL) }
        let name = modelURL.lastPathComponent
        let input = try model.input(at: 0)
        guard input.dimensions.count == 4, input.dimensions[0] == 1, input.dimensions[1] == 3 else {
            throw DepthModelError.unsupportedInput(model: name, shape: input.dimensions)
        }
        inputHeight = input.dimensions[2]
        inputWidth = input.dimensions[3]
        let output = try model.output(at: 0).dimensions
        guard Self.outputPlane(output) != nil else { throw DepthModelError.unsupportedOutput(model: name, shape: output) }
        compiled = try ObjectDetector.usable(modelURL) { () throws(InferenceError) in try core.compile(model, options: options) }
        request = try compiled.makeRequest()
    }

    /// The model's depth for `image`, resized back to the image's size. For a metric model the
    /// values are meters; for a relative one they are the model's raw inverse depth (align with
    /// `DepthScaleAlignment` before using them as meters).
    public func estimate(_ image: RGBImage) throws -> DepthMap {
        guard !image.isEmpty else { throw DetectorError.emptyImage(source: "given") }
        var resampler = PlanarResampler(tensorWidth: inputWidth, tensorHeight: inputHeight, regionX: 0, regionY: 0,
                                        regionWidth: inputWidth, regionHeight: inputHeight)
        if normalization == .imageNet {
            // ImageNet mean and standard deviation per channel (R, G, B).
            let mean: (Float, Float, Float) = (0.485, 0.456, 0.406), std: (Float, Float, Float) = (0.229, 0.224, 0.225)
            resampler.scale = (1 / (255 * std.0), 1 / (255 * std.1), 1 / (255 * std.2))
            resampler.offset = (-mean.0 / std.0, -mean.1 / std.1, -mean.2 / std.2)
        }
        try request.withInput { resampler.resample(image, into: $0) }
        try request.infer()
        let values = try request.withOutput(at: 0) { description, output -> [Float] in
            guard let (planeWidth, planeHeight) = Self.outputPlane(description.dimensions) else {
                throw DepthModelError.unsupportedOutput(model: modelURL.lastPathComponent, shape: description.dimensions)
            }
            return Self.resizeBilinear(output, width: planeWidth, height: planeHeight,
                                       toWidth: image.width, toHeight: image.height)
        }
        let cleaned = outputKind == .metric ? values.map { $0.isFinite && $0 > 0 ? $0 : .nan } : values
        return DepthMap(width: image.width, height: image.height, metersOrNaN: cleaned, origin: .model)
    }

    static func outputPlane(_ shape: [Int]) -> (width: Int, height: Int)? {
        switch shape.count {
        case 3 where shape[0] == 1: return (shape[2], shape[1])
        case 4 where shape[0] == 1 && shape[1] == 1: return (shape[3], shape[2])
        default: return nil
        }
    }

    /// Bilinear resize of a float plane with half-pixel centres.
    static func resizeBilinear(_ source: UnsafeBufferPointer<Float>, width: Int, height: Int,
                               toWidth: Int, toHeight: Int) -> [Float] {
        var result = [Float](repeating: 0, count: toWidth * toHeight)
        let xScale = Float(width) / Float(toWidth), yScale = Float(height) / Float(toHeight)
        for y in 0..<toHeight {
            let (j0, j1, wy) = PlanarResampler.taps(destination: y, scale: yScale, sourceCount: height)
            for x in 0..<toWidth {
                let (i0, i1, wx) = PlanarResampler.taps(destination: x, scale: xScale, sourceCount: width)
                let top = source[j0 * width + i0] + (source[j0 * width + i1] - source[j0 * width + i0]) * wx
                let bottom = source[j1 * width + i0] + (source[j1 * width + i1] - source[j1 * width + i0]) * wx
                result[y * toWidth + x] = top + (bottom - top) * wy
            }
        }
        return result
    }
}

/// Turns a relative inverse-depth map into meters using distances known from another cue.
///
/// Inverse depth from MiDaS-style models is affine-invariant; with few anchors we fit only the
/// scale (meters = k / value, k = median of anchor meters × anchor value), which is robust to one
/// bad anchor and honest about being an estimate.
public enum DepthScaleAlignment {
    public struct Anchor: Sendable {
        public var x: Int, y: Int, meters: Double
        public init(x: Int, y: Int, meters: Double) { self.x = x; self.y = y; self.meters = meters }
    }

    /// Meters for every pixel, or nil when no anchor gives a usable scale.
    public static func metric(fromRelativeInverse relative: DepthMap, anchors: [Anchor]) -> DepthMap? {
        let products = anchors.compactMap { anchor -> Double? in
            guard anchor.x >= 0, anchor.y >= 0, anchor.x < relative.width, anchor.y < relative.height,
                  let value = relative.meters(x: anchor.x, y: anchor.y), value > 0, anchor.meters > 0 else { return nil }
            return anchor.meters * Double(value)
        }.sorted()
        guard !products.isEmpty else { return nil }
        let scale = Float(products[products.count / 2])
        let meters = relative.metersOrNaN.map { $0.isFinite && $0 > 0 ? scale / $0 : Float.nan }
        return DepthMap(width: relative.width, height: relative.height, metersOrNaN: meters, origin: .model)
    }
}

public enum DepthModelError: UserFacingError, Equatable {
    case unsupportedInput(model: String, shape: [Int])
    case unsupportedOutput(model: String, shape: [Int])

    public var userMessage: String {
        switch self {
        case .unsupportedInput(let model, let shape):
            return "The depth model \(model) expects an input of shape \(shape.map(String.init).joined(separator: "×")); it needs one image input of 1×3×height×width."
        case .unsupportedOutput(let model, let shape):
            return "The depth model \(model) gives an output of shape \(shape.map(String.init).joined(separator: "×")); it needs one depth plane of 1×height×width or 1×1×height×width."
        }
    }
}
