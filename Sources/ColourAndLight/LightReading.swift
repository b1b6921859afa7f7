import AssistCore
import Foundation
import Media

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
        guard !samples.isEmpty else { throw LightReadingError.noFrames(video: url.lastPathComponent) }
        self.samples = samples
    }

    /// The level of the first frame, as the answer says it.
    public var firstLevel: LightLevel { meter.level(forBrightness: samples[0].brightness) }

    /// The lines printed under the answer: "[0.00 s] brightness 0.42, 523 Hz".
    public var sampleLines: [String] {
        samples.map { String(format: "[%.2f s] brightness %.2f, %.0f Hz", $0.seconds, $0.brightness, meter.pitchHz(forBrightness: $0.brightness)) }
    }

    /// The pitch that follows the light (higher for brighter), each frame's held until the next
    /// frame's time (the last for 0.5 s): what the output stage renders as a continuous tone.
    public var heldPitches: [HeldPitch] {
        samples.enumerated().map { index, sample in
            HeldPitch(untilSeconds: index + 1 < samples.count ? samples[index + 1].seconds : sample.seconds + 0.5,
                      pitchHz: meter.pitchHz(forBrightness: sample.brightness))
        }
    }
}

/// A pitch held until a moment of the input's time.
public struct HeldPitch: Sendable, Equatable {
    public let untilSeconds: Double
    public let pitchHz: Double

    public init(untilSeconds: Double, pitchHz: Double) {
        self.untilSeconds = untilSeconds
        self.pitchHz = pitchHz
    }
}

/// Why the light was not read.
public enum LightReadingError: UserFacingError, Equatable {
    /// A video file held not one frame that could be decoded.
    case noFrames(video: String)

    public var userMessage: String {
        switch self {
        case .noFrames(let video): return "The video \(video) has no frames."
        }
    }
}
