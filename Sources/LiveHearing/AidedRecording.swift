import AssistCore
import Foundation
import Hearing
import Media

/// A recording heard through the fitted chain (`assist hear IN -o OUT`, and the benchmark's
/// `assist bench hearing-file`): OUT is stereo and aligned with IN, with exactly IN's length
/// and timing, as the fitting sounds (no live start-up ramp).
public struct AidedRecording: Sendable {
    /// What was written.
    public struct Result: Sendable {
        public let seconds: Double
        public let latencyMilliseconds: Double
        /// Input samples that were not a number or far beyond full scale, played as silence.
        public let damagedSamples: Int
        public let inputPath: String

        /// The sentence saying how many damaged samples were silenced; nil when there were none.
        public var damageSentence: String? {
            guard damagedSamples > 0 else { return nil }
            let one = damagedSamples == 1
            return "\(damagedSamples) \(one ? "sample" : "samples") of \(inputPath) "
                + "\(one ? "was" : "were") damaged (not a number, or far beyond full scale) and played as silence."
        }
    }

    /// How far processing is, for a progress line on long files.
    public struct Progress: Sendable {
        public let percent: Int
        public let doneSeconds: Double
        public let totalSeconds: Double
        /// The last report, once everything is written.
        public var isFinished = false
    }

    public let settings: HearingAidSettings
    public var encoding: AudioSampleEncoding = .pcm16
    /// Where the monitors (band levels, gains, noise estimates) go every 100 ms, as a JSON time series.
    public var monitorFile: String?

    public init(settings: HearingAidSettings, encoding: AudioSampleEncoding = .pcm16, monitorFile: String? = nil) {
        var settings = settings
        // A file is processed as the fitting sounds, without the live start-up ramp.
        settings.startupRampSeconds = 0
        self.settings = settings
        self.encoding = encoding
        self.monitorFile = monitorFile
    }

    /// Files longer than this report progress (shorter ones finish before a line would help).
    public static let progressAboveSeconds = 10.0

    /// `warn` gets the damaged-samples sentence, before a monitor file that cannot be written throws.
    public func process(_ inputURL: URL, into outputURL: URL, progress: ((Progress) -> Void)? = nil,
                        warn: (String) -> Void = { _ in }) throws -> Result {
        let reader = try AudioFileReader(url: inputURL)
        let format = try ProcessingFormat(sampleRate: reader.sampleRate, blockSize: 64, inputChannels: reader.channelCount)
        let processor = HearingAidProcessor(control: try HearingAidControl(settings: settings))
        try processor.prepare(format)
        let writer = try AudioFileWriter(url: outputURL, sampleRate: reader.sampleRate, channelCount: 2, encoding: encoding)
        var series = MonitorTimeSeries()
        let snapshotEvery = Int((0.1 * reader.sampleRate / 64).rounded())
        let chunkFrames = 64 * 750
        var done = 0
        let showProgress = reader.frameCount > Int(Self.progressAboveSeconds * reader.sampleRate)
        // The output is aligned with the input: the chain's delay is dropped at the start and
        // flushed with silence at the end, so OUT has exactly IN's length and timing.
        var delayToDrop = processor.latencyFrames
        while true {
            var chunk = try reader.read(maxFrames: chunkFrames)
            let frames = chunk.count / reader.channelCount
            let isLast = frames < chunkFrames
            if isLast {
                if done + frames == 0 { break }
                chunk.append(contentsOf: [Float](repeating: 0, count: processor.latencyFrames * reader.channelCount))
            }
            let blockOffset = done / 64
            var processed = processor.processAll(chunk) { block in
                if monitorFile != nil, (blockOffset + block) * 64 < done + frames, (blockOffset + block) % snapshotEvery == 0 {
                    series.snapshots.append(MonitorSnapshot(timeSeconds: Double((blockOffset + block + 1) * 64) / reader.sampleRate,
                                                            monitors: processor.monitors))
                }
            }
            let drop = min(delayToDrop, processed.count / 2)
            processed.removeFirst(drop * 2)
            delayToDrop -= drop
            try writer.write(processed)
            done += frames
            if showProgress, let progress {
                progress(Progress(percent: 100 * done / max(reader.frameCount, 1), doneSeconds: Double(done) / reader.sampleRate,
                                  totalSeconds: Double(reader.frameCount) / reader.sampleRate))
            }
            if isLast { break }
        }
        try writer.finish()
        if showProgress, let progress {
            progress(Progress(percent: 100, doneSeconds: Double(done) / reader.sampleRate,
                              totalSeconds: Double(reader.frameCount) / reader.sampleRate, isFinished: true))
        }
        if done == 0 { throw AudioFileError.empty(path: inputURL.path) }
        let result = Result(seconds: Double(done) / reader.sampleRate,
                            latencyMilliseconds: Double(processor.latencyFrames) / reader.sampleRate * 1000,
                            damagedSamples: processor.monitors.damagedInputSamples, inputPath: inputURL.path)
        if let sentence = result.damageSentence { warn(sentence) }
        if let monitorFile {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do { try encoder.encode(series).write(to: URL(fileURLWithPath: monitorFile)) } catch {
                throw OutputFileError(path: monitorFile)
            }
        }
        return result
    }
}
