import AssistCore
import Foundation
import Hearing
import Media
import Prescription
import Synchronization

/// The hearing chain run on a sound file instead of a microphone, for `assist serve --hear-input`
/// on a computer without a sound card (and for tests): the prescription in use, its programs,
/// volume and debugging-mode threshold changes exactly as `assist hear --live` applies them
/// (through `LiveHearingSession`), and the chain's monitors for the web app's Debug page. The
/// file loops; its processed sound is not played anywhere, which the web app says.
public final class SoundFileHearingAid: Sendable {
    public let control: HearingAidControl
    public let session: LiveHearingSession
    /// The file's name, as the page tells it.
    public let inputName: String
    public let sampleRateHz: Double
    public static let blockFrames = 512

    private struct Running {
        var reader: AudioFileReader
        let processor: HearingAidProcessor
        var output: [Float]
    }
    private let running: Mutex<Running>
    private let url: URL
    private let channels: Int
    private let blocksDone = Atomic<Int>(0)

    /// Prepares the chain for `soundFile` (any format libsndfile reads, at 44.1 kHz or more, mono
    /// or stereo) with `fitted`'s settings; `say` gets what `assist hear --live` says in the ear,
    /// `show` what it only prints.
    public init(fitted: HearingFitting.Fitted, soundFile: URL, clock: @escaping @Sendable () -> Date = { Date() },
                say: @escaping @Sendable (String) -> Void, show: @escaping @Sendable (String) -> Void) throws {
        let reader = try AudioFileReader(url: soundFile)
        let channels = min(2, reader.channelCount)
        let control = try HearingAidControl(settings: fitted.liveSettings(volumeSteps: 0))
        let processor = HearingAidProcessor(control: control)
        try processor.prepare(try ProcessingFormat(sampleRate: reader.sampleRate, blockSize: Self.blockFrames, inputChannels: channels))
        self.control = control
        session = LiveHearingSession(control: control, prescribed: fitted.hearing, expires: fitted.hearing.expires,
                                     debugging: fitted.liveDebugging, clock: clock, say: say, show: show)
        inputName = soundFile.lastPathComponent
        sampleRateHz = reader.sampleRate
        url = soundFile
        self.channels = channels
        running = Mutex(Running(reader: reader, processor: processor, output: [Float](repeating: 0, count: Self.blockFrames * 2)))
    }

    /// Seconds of sound one block holds: the pace `run()` keeps.
    public var blockSeconds: Double { Double(Self.blockFrames) / sampleRateHz }

    /// Blocks processed since the start.
    public var blocksProcessed: Int { blocksDone.load(ordering: .relaxed) }

    /// Reads the next block of the file (from the start again at its end) and runs it through
    /// the chain. A file with more than two channels gives its first two.
    public func processNextBlock() throws {
        try running.withLock { running in
            var samples = try running.reader.read(maxFrames: Self.blockFrames)
            if samples.count < Self.blockFrames * running.reader.channelCount {
                running.reader = try AudioFileReader(url: url)
                samples += try running.reader.read(maxFrames: Self.blockFrames - samples.count / running.reader.channelCount)
            }
            let fileChannels = running.reader.channelCount
            var block = [Float](repeating: 0, count: Self.blockFrames * channels)
            for frame in 0..<min(Self.blockFrames, samples.count / fileChannels) {
                for channel in 0..<channels { block[frame * channels + channel] = samples[frame * fileChannels + channel] }
            }
            let processor = running.processor
            block.withUnsafeBufferPointer { input in
                running.output.withUnsafeMutableBufferPointer { output in
                    processor.process(input: input.baseAddress!, output: output.baseAddress!, frames: Self.blockFrames)
                }
            }
        }
        blocksDone.add(1, ordering: .relaxed)
    }

    /// Processes the file at its own pace (one block per `blockSeconds`) until the task is
    /// cancelled; a read failure ends it and is said.
    public func run() async {
        let clock = ContinuousClock()
        var deadline = clock.now
        while !Task.isCancelled {
            do { try processNextBlock() } catch {
                session.announce(userMessage(for: error))
                return
            }
            deadline = deadline.advanced(by: .seconds(blockSeconds))
            try? await Task.sleep(until: deadline, clock: clock)
        }
    }
}
