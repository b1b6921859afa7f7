/// What `prepare` fixes: sample rate, frames per `process` call and input channels.
public struct ProcessingFormat: Sendable, Equatable {
    public let sampleRate: Double
    public let blockSize: Int
    public let inputChannels: Int

    /// The design requires at least 44.1 kHz: the prescription reaches 8 kHz and the chain's
    /// band layout assumes room above it.
    public static let minimumSampleRate = 44_100.0

    public init(sampleRate: Double, blockSize: Int = 64, inputChannels: Int = 1) throws {
        guard sampleRate.isFinite, sampleRate >= Self.minimumSampleRate else { throw HearingError.sampleRateTooLow(sampleRate) }
        guard [16, 32, 64].contains(blockSize) || (blockSize > 64 && blockSize % 64 == 0) else {
            throw HearingError.unsupportedBlockSize(blockSize)
        }
        guard (1...2).contains(inputChannels) else { throw HearingError.unsupportedChannelCount(inputChannels) }
        self.sampleRate = sampleRate
        self.blockSize = blockSize
        self.inputChannels = inputChannels
    }

    /// Frames per filterbank hop: the block itself up to 64 frames, 64-frame pieces of larger blocks.
    public var hopSize: Int { min(blockSize, 64) }

    /// 256 points at 44.1/48 kHz (5.3 ms window, 187.5 Hz bins at 48 kHz); twice that from
    /// 64 kHz up so the window keeps its length in milliseconds.
    public var fftSize: Int { sampleRate > 64_000 ? 512 : 256 }

    /// Algorithmic delay of the weighted overlap-add filterbank: window length minus hop.
    public var algorithmicLatencyFrames: Int { fftSize - hopSize }
}
