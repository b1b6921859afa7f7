import AssistCore
import Foundation
import Media
import Speech

/// `assist light`: the brightness of a picture, or of every frame of a video, what it is called,
/// and the tone that follows it (higher for brighter), rendered to match the video's time.
public struct LightReading: Sendable {
    /// One measured frame: when, and how bright (0–1).
    public struct Sample: Sendable, Equatable {
        public let seconds: Double
        public let brightness: Double
    }

    public let samples: [Sample]
    public let meter: LightMeter

    /// Files with these extensions are pictures; any other file is read as a video.
    public static let pictureExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff", "ppm", "pgm", "gif"]

    /// Reads a picture, or every frame of a video (at 320 pixels wide: brightness needs no more).
    public init(input: String, meter: LightMeter = LightMeter()) throws {
        self.meter = meter
        let url = URL(fileURLWithPath: input)
        var samples: [Sample] = []
        if case .file = VideoInput(argument: input), !Self.pictureExtensions.contains(url.pathExtension.lowercased()) {
            let source = try VideoFrameSource(.file(url), maximumWidthPixels: 320)
            while let frame = try source.nextFrame() {
                samples.append(Sample(seconds: frame.timestampSeconds, brightness: meter.brightness(of: frame.image)))
            }
        } else {
            samples.append(Sample(seconds: 0, brightness: meter.brightness(of: try ImageFile(url).decode())))
        }
        guard !samples.isEmpty else { throw CommandFailure("The video has no frames.", status: .failed) }
        self.samples = samples
    }

    /// The level of the first frame, as the answer says it.
    public var firstLevel: LightLevel { meter.level(forBrightness: samples[0].brightness) }

    /// The lines printed under the answer: "[0.00 s] brightness 0.42, 523 Hz".
    public var sampleLines: [String] {
        samples.map { String(format: "[%.2f s] brightness %.2f, %.0f Hz", $0.seconds, $0.brightness, meter.pitchHz(forBrightness: $0.brightness)) }
    }

    /// The tone following the light, each frame's pitch held until the next (the last for 0.5 s).
    public func toneSamples(sampleRateHz rate: Double) -> [Float] {
        var tone = ContinuousTone(sampleRateHz: rate)
        var output: [Float] = []
        for (index, sample) in samples.enumerated() {
            let end = index + 1 < samples.count ? samples[index + 1].seconds : sample.seconds + 0.5
            let count = max(0, Int((end * rate).rounded()) - output.count)
            output += tone.render(frameCount: count, towards: meter.pitchHz(forBrightness: sample.brightness))
        }
        return output
    }
}
