import AssistCore
import Foundation
import Synchronization

/// "Newest frame wins": reads a source on a thread of its own and hands the consumer only the
/// newest frame when it asks, never a queue of stale ones. A consumer slower than the camera (a
/// detector at 5 fps behind a 15 fps camera) always works on what is in front of the user now;
/// the frames it had no time for are dropped and counted.
///
/// The reader is a `Thread`, not a task: a camera or network read blocks for up to a frame
/// interval (or `VideoFrameSource.networkTimeoutMicroseconds`), which must not hold one of the
/// few threads of Swift's cooperative pool.
public final class LatestFrameBuffer: Sendable {
    /// How the reader reads a source that is not live.
    public enum ReadingPace: Sendable, Equatable {
        /// Read as fast as the source gives frames: a camera or stream paces itself.
        case asFastAsTheSourceGives
        /// Hold each frame back until its timestamp has passed on the wall clock since the first, so
        /// a video file behaves as the camera that recorded it (the clock given to `init`).
        case sourceClockInRealTime
    }

    private struct State {
        var newest: Frame?
        var newestIsHandedOut = false
        var framesRead = 0
        var framesDropped = 0
        /// Set when the reader stops: nil error at a normal end.
        var ended = false
        var endError: (any Error)?
        var waiting: CheckedContinuation<Frame?, any Error>?
        var stopRequested = false
        var maximumWidthPixels: Int??
    }

    /// The state the reading thread shares with the consumer. The thread holds this, not the
    /// buffer, so a buffer the consumer lets go of stops its thread.
    private final class Shared: Sendable {
        let state = Mutex(State())
        /// The reader's wait for a frame's moment, ended at once by `stop()`.
        let waitForDue = BlockingWait()
    }

    private let shared = Shared()
    public let sourceName: String

    /// Starts reading `source` straight away. The source is used by the reading thread only, from
    /// now on: the caller must not touch it again. `clock` paces `.sourceClockInRealTime` (the
    /// system's; a test's `ManualClock`, on which frames come as the test moves time); the tasks
    /// its waits need run on `executor` (nil: Swift's global pool; see `ElapsedClock.executor`).
    public init(source: any FrameSource, pace: ReadingPace = .asFastAsTheSourceGives,
                clock: any Clock<Duration> = ContinuousClock(), executor: (any TaskExecutor)? = nil) {
        sourceName = source.name
        let handOver = SourceHandOver(source: source)
        let shared = self.shared
        let elapsed = ElapsedClock(clock, executor: executor)
        let thread = Thread {
            Self.read(handOver.source, pace: pace, clock: elapsed, into: shared)
        }
        thread.name = "frames: \(source.name)"
        thread.start()
    }

    deinit { stop() }

    /// Asks the reader to stop after the frame it is reading; a waiting consumer gets nil.
    public func stop() {
        let waiting = shared.state.withLock { state -> CheckedContinuation<Frame?, any Error>? in
            state.stopRequested = true
            defer { state.waiting = nil }
            return state.waiting
        }
        shared.waitForDue.cancel()
        waiting?.resume(returning: nil)
    }

    /// Scales the source's frames to at most this width from the next frame on (battery saver),
    /// when the source can (`ScalableFrameSource`); nil for the source's own size.
    public func setMaximumWidthPixels(_ width: Int?) {
        shared.state.withLock { $0.maximumWidthPixels = .some(width) }
    }

    /// Whether the source has ended (normally or with an error) or `stop()` was called: a consumer
    /// that takes no frames for a while (on-demand guidance) still learns that the input is over.
    public var hasEnded: Bool { shared.state.withLock { $0.ended || $0.stopRequested } }

    /// Frames read from the source so far, and of those, frames replaced before anyone took them.
    public var framesRead: Int { shared.state.withLock { $0.framesRead } }
    public var framesDropped: Int { shared.state.withLock { $0.framesDropped } }

    /// The newest frame not yet handed out, waiting for one when there is none; nil once the source
    /// has ended (or `stop()` was called) and every frame worth having was handed out. A source's
    /// error is thrown after the last good frame was handed out.
    public func nextFrame() async throws -> Frame? {
        if let ready = try takeReadyFrame() { return ready }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Frame?, any Error>) in
                let outcome = shared.state.withLock { state -> Result<Frame?, any Error>? in
                    if let frame = state.newest, !state.newestIsHandedOut {
                        state.newestIsHandedOut = true
                        return .success(frame)
                    }
                    if state.ended || state.stopRequested {
                        if let error = state.endError { state.endError = nil; return .failure(error) }
                        return .success(nil)
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiting = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiting = shared.state.withLock { state -> CheckedContinuation<Frame?, any Error>? in
                defer { state.waiting = nil }
                return state.waiting
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    private func takeReadyFrame() throws -> Frame? {
        try shared.state.withLock { state -> Result<Frame?, any Error> in
            if let frame = state.newest, !state.newestIsHandedOut {
                state.newestIsHandedOut = true
                return .success(frame)
            }
            if state.ended, let error = state.endError { state.endError = nil; return .failure(error) }
            return .success(nil)
        }.get()
    }

    private static func read(_ source: any FrameSource, pace: ReadingPace, clock: ElapsedClock, into shared: Shared) {
        var firstTimestamp: Double?
        while true {
            let (stop, width) = shared.state.withLock { state in
                defer { state.maximumWidthPixels = nil }
                return (state.stopRequested, state.maximumWidthPixels)
            }
            if stop { break }
            if let width, let scalable = source as? any ScalableFrameSource { scalable.maximumWidthPixels = width }
            let frame: Frame?
            do {
                frame = try source.nextFrame()
            } catch {
                finish(error: error, into: shared)
                return
            }
            guard let frame else { break }
            if pace == .sourceClockInRealTime {
                let first = firstTimestamp ?? frame.timestampSeconds
                firstTimestamp = first
                clock.block(untilSeconds: frame.timestampSeconds - first, shared.waitForDue)
            }
            let waiting = shared.state.withLock { state -> CheckedContinuation<Frame?, any Error>? in
                state.framesRead += 1
                if state.newest != nil && !state.newestIsHandedOut { state.framesDropped += 1 }
                state.newest = frame
                state.newestIsHandedOut = state.waiting != nil
                defer { state.waiting = nil }
                return state.waiting
            }
            waiting?.resume(returning: frame)
        }
        finish(error: nil, into: shared)
    }

    private static func finish(error: (any Error)?, into shared: Shared) {
        let waiting = shared.state.withLock { state -> CheckedContinuation<Frame?, any Error>? in
            state.ended = true
            state.endError = error
            guard let waiting = state.waiting else { return nil }
            state.waiting = nil
            if error != nil { state.endError = nil }
            return waiting
        }
        if let error { waiting?.resume(throwing: error) } else { waiting?.resume(returning: nil) }
    }
}

/// A source that can scale its frames down while it runs (battery saver).
public protocol ScalableFrameSource: FrameSource {
    var maximumWidthPixels: Int? { get set }
}

extension VideoFrameSource: ScalableFrameSource {}

/// Carries a source into the reading thread. Unchecked because the source is not Sendable (it
/// holds a decoder): after `LatestFrameBuffer.init` hands it over, only the reading thread uses it.
private struct SourceHandOver: @unchecked Sendable {
    let source: any FrameSource
}
