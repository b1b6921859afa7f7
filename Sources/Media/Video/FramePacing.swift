import AssistCore
import Foundation

/// How often the consumer takes a frame.
public struct FramePacing: Sendable, Equatable {
    public enum Rate: Sendable, Equatable {
        /// A new frame as soon as the consumer is done with the last one.
        case asFastAsPossible
        /// One frame every so many seconds (e.g. 2 s for a slow scene description).
        case fixedInterval(seconds: Double)
    }

    public var rate: Rate
    /// Half the rate: a fixed interval is doubled, and "as fast as possible" rests as long as the
    /// consumer worked on each frame before it takes the next.
    public var batterySaving: Bool

    public init(rate: Rate, batterySaving: Bool = false) {
        self.rate = rate
        self.batterySaving = batterySaving
    }

    /// The width to ask of the source (`LatestFrameBuffer.setMaximumWidthPixels`): half the
    /// source's width when saving battery (a quarter of the pixels to convert and detect on), else
    /// nil for the source's own size.
    public func maximumWidthPixels(sourceWidthPixels: Int) -> Int? {
        batterySaving ? max(2, sourceWidthPixels / 4 * 2) : nil
    }

    /// Seconds to wait before taking the next frame, given the seconds since the last one was
    /// handed out (nil before the first) and how long the consumer worked on it.
    public func waitSeconds(sinceLastFrame elapsed: Double?, consumerWorkedSeconds worked: Double) -> Double {
        guard let elapsed else { return 0 }
        switch rate {
        case .fixedInterval(let seconds):
            return max(0, seconds * (batterySaving ? 2 : 1) - elapsed)
        case .asFastAsPossible:
            // Resting as long as the work took makes each cycle twice as long: half the rate.
            return batterySaving ? max(0, 2 * worked - elapsed) : 0
        }
    }
}

/// Hands a consumer frames from a `LatestFrameBuffer` at a `FramePacing`: the newest frame at each
/// moment it is due. Used by one consumer task.
public final class FramePacer {
    public let buffer: LatestFrameBuffer
    public var pacing: FramePacing
    private var lastHandout: ContinuousClock.Instant?

    public init(buffer: LatestFrameBuffer, pacing: FramePacing) {
        self.buffer = buffer
        self.pacing = pacing
    }

    /// The frame to work on next; nil when the source has ended.
    public func nextFrame() async throws -> Frame? {
        let clock = ContinuousClock()
        let now = clock.now
        if let lastHandout {
            let elapsed = Self.seconds(now - lastHandout)
            let wait = pacing.waitSeconds(sinceLastFrame: elapsed, consumerWorkedSeconds: elapsed)
            if wait > 0 { try await clock.sleep(until: now + .seconds(wait), tolerance: .milliseconds(5)) }
        }
        let frame = try await buffer.nextFrame()
        lastHandout = clock.now
        return frame
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

/// Processes a video file offline as if it were a live camera, deterministically: a simulated
/// clock runs on the video's own timestamps, each frame's processing advances it by the seconds
/// the consumer says the work took (measured, or a fixed cost for a reproducible run), and the
/// consumer then gets the newest frame a camera would have offered at that moment. The frames it
/// had no time for are skipped, exactly as `LatestFrameBuffer` would drop them live.
///
/// With a fixed cost c and frames every 1/f seconds, the consumer takes about one frame in
/// ⌈c·f⌉; a consumer faster than the video waits (on the simulated clock) for the next frame.
public final class VideoClockPacer {
    public let source: any FrameSource
    /// The simulated time, on the video's clock.
    public private(set) var nowSeconds = 0.0
    public private(set) var processedFrameCount = 0
    public private(set) var skippedFrameCount = 0
    private var pending: Frame?
    private var sourceEnded = false
    private var handedOutAny = false

    public init(source: any FrameSource) {
        self.source = source
    }

    /// The next frame to process, after the consumer spent `processingSeconds` on the previous
    /// one; nil at the end of the video.
    public func nextFrame(afterProcessingFor processingSeconds: Double) throws -> Frame? {
        if handedOutAny { nowSeconds += max(0, processingSeconds) }
        var newest: Frame?
        while let next = try peek() {
            // Nothing has arrived yet by now: the consumer idles until the next frame comes.
            if newest == nil && next.timestampSeconds > nowSeconds { nowSeconds = next.timestampSeconds }
            guard next.timestampSeconds <= nowSeconds else { break }
            if newest != nil { skippedFrameCount += 1 }
            newest = next
            pending = nil
        }
        if newest != nil {
            handedOutAny = true
            processedFrameCount += 1
        }
        return newest
    }

    private func peek() throws -> Frame? {
        if let pending { return pending }
        guard !sourceEnded else { return nil }
        pending = try source.nextFrame()
        if pending == nil { sourceEnded = true }
        return pending
    }
}
