import Foundation
import ONNXRuntime

/// Silero VAD v6 (run by ONNX Runtime): the probability that a 32 ms window of 16 kHz audio
/// holds speech. A recurrent network: its state, and the last 64 samples of the previous
/// window (the model's "context"), carry from one window to the next, so windows must be given
/// in order; `reset()` starts a new stream.
public final class SileroSpeechDetector {
    /// Samples per window at 16 kHz (the model's fixed size).
    public static let windowSamples = 512
    /// Samples of the previous window prepended to each (the model was trained so).
    static let contextSamples = 64
    static let stateShape = [2, 1, 128]

    private let session: ONNXSession
    private var state: ONNXTensor
    private var context = [Float](repeating: 0, count: contextSamples)
    private let sampleRate: ONNXTensor

    public init(modelAt url: URL) throws(SpeechRecognitionError) {
        do {
            // One thread: a window costs well under a millisecond, and the listener must stay
            // cheap while it hears nothing (issue 35: ≤ 5 % of a core).
            session = try ONNXSession(modelAt: url, options: ONNXSessionOptions(threadCount: 1))
            state = try Self.zeroState()
            sampleRate = try ONNXTensor(shape: [], int64s: [16_000])
        } catch { throw .model(error) }
    }

    private static func zeroState() throws(ONNXRuntimeError) -> ONNXTensor {
        try ONNXTensor(shape: stateShape, floats: [Float](repeating: 0, count: stateShape.reduce(1, *)))
    }

    public func reset() throws(SpeechRecognitionError) {
        do { state = try Self.zeroState() } catch { throw .model(error) }
        context = [Float](repeating: 0, count: Self.contextSamples)
    }

    /// The speech probability of one window of `windowSamples` samples (full scale ±1).
    public func speechProbability(_ window: ArraySlice<Float>) throws(SpeechRecognitionError) -> Float {
        precondition(window.count == Self.windowSamples, "Silero VAD takes windows of 512 samples")
        let input = context + window
        context = Array(window.suffix(Self.contextSamples))
        do {
            let outputs = try session.run(["input": try ONNXTensor(shape: [1, input.count], floats: input),
                                           "state": state, "sr": sampleRate], outputs: ["output", "stateN"])
            state = outputs[1]
            return try outputs[0].withFloats { $0.first ?? 0 }
        } catch { throw .model(error) }
    }
}
