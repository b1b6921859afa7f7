import Foundation
import Media

/// Audio as the recogniser wants it: 16 kHz (what Silero VAD and Moonshine were trained on), mono, 16-bit. Files and microphones deliver other
/// rates (22.05, 32, 44.1, 48 kHz) and stereo; they pass through here first.
public enum RecognizerAudio {
    public static let sampleRateHz = Double(MoonshineTranscriber.sampleRateHz)

    /// Mono 16 kHz 16-bit samples from any buffer: channels averaged, then resampled.
    public static func samples(from buffer: AudioBuffer) -> [Int16] {
        let mono = mixToMono(buffer.samples, channelCount: buffer.channelCount)
        return toInt16(resample(mono, from: buffer.sampleRate, to: sampleRateHz))
    }

    static func mixToMono(_ samples: [Float], channelCount: Int) -> [Float] {
        guard channelCount > 1 else { return samples }
        let frames = samples.count / channelCount
        let scale = 1 / Float(channelCount)
        return (0..<frames).map { frame in
            var sum: Float = 0
            for channel in 0..<channelCount { sum += samples[frame * channelCount + channel] }
            return sum * scale
        }
    }

    /// Clipped to full scale: a sample at ±1.0 becomes ±32767, beyond it stays there.
    public static func toInt16(_ samples: [Float]) -> [Int16] {
        samples.map { Int16(max(-1, min(1, $0)) * 32767) }
    }

    /// Windowed-sinc (Hann, 16 zero crossings each side) band-limited resampling. Downsampling
    /// without a low-pass would fold 8–24 kHz (fricatives, noise) into the band the acoustic
    /// model listens to; the cutoff sits at 0.95 × the lower Nyquist frequency.
    public static func resample(_ samples: [Float], from sourceHz: Double, to targetHz: Double) -> [Float] {
        guard sourceHz != targetHz, !samples.isEmpty, sourceHz > 0, targetHz > 0 else { return samples }
        let ratio = targetHz / sourceHz
        let cutoff = 0.95 * min(1, ratio)  // as a fraction of the source Nyquist frequency
        let zeroCrossings = 16.0
        let halfWidth = zeroCrossings / cutoff  // source samples each side of the centre
        let count = Int((Double(samples.count) * ratio).rounded(.down))
        var output = [Float](repeating: 0, count: count)
        samples.withUnsafeBufferPointer { input in
            for i in 0..<count {
                let centre = Double(i) / ratio
                let first = max(0, Int((centre - halfWidth).rounded(.up)))
                let last = min(input.count - 1, Int((centre + halfWidth).rounded(.down)))
                guard first <= last else { continue }
                var sum = 0.0
                for j in first...last {
                    let x = Double(j) - centre
                    let window = 0.5 + 0.5 * cos(Double.pi * x / halfWidth)
                    let argument = Double.pi * x * cutoff
                    let sinc = argument == 0 ? 1 : sin(argument) / argument
                    sum += Double(input[j]) * cutoff * sinc * window
                }
                output[i] = Float(sum)
            }
        }
        return output
    }
}
