import Foundation
import Media

/// Where rendered blocks go when nothing pulls them in real time: a WAV file, nowhere, or a
/// recorder that tests inspect. (A sound card pulls blocks itself: see `SpeakerOutput`.)
public protocol AudioOutput: AnyObject {
    func consume(_ block: AudioBlock) throws
}

/// Renders into a stereo 16-bit WAV file (`--speak-to FILE.wav`), through Media's libsndfile writer.
public final class WAVFileOutput: AudioOutput {
    private let writer: AudioFileWriter

    public init(url: URL, sampleRateHz: Double) throws {
        writer = try AudioFileWriter(url: url, sampleRate: sampleRateHz, channelCount: 2)
    }

    public func consume(_ block: AudioBlock) throws {
        try writer.write(block.samples)
    }

    /// Finishes the file and puts it in place; throws when it could not be saved.
    public func finish() throws {
        try writer.finish()
    }

    /// `finish()` where no one can be told: a file that could not be saved is removed all the same.
    public func close() {
        writer.close()
    }
}

/// Discards the audio (`--quiet`), counting how much there was.
public final class NullAudioOutput: AudioOutput {
    public private(set) var framesConsumed = 0
    public init() {}
    public func consume(_ block: AudioBlock) throws {
        framesConsumed += block.frameCount
    }
}

/// Keeps every block with its start frame, for tests that check what was heard when.
public final class RecordingAudioOutput: AudioOutput {
    public private(set) var blocks: [AudioBlock] = []
    public init() {}
    public func consume(_ block: AudioBlock) throws {
        blocks.append(block)
    }

    /// All blocks joined: interleaved stereo from frame 0.
    public var samples: [Float] { blocks.flatMap(\.samples) }
}
