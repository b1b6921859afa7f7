import AssistCore
import Foundation

/// Decodes the next frame on a thread of its own while the consumer works on the current one
/// (issue 20, item 3): the consumer's cycle then costs its own work alone, not decoding plus its
/// work, for as long as decoding is the shorter of the two.
///
/// It changes nothing but when the source is read. The source gets the same calls in the same
/// order as without it, and the consumer gets the same frames, errors and end in the same order:
/// - at most one frame is read ahead (the memory of one decoded picture), and only after a frame:
///   after an error or the end, the source is read again only when the consumer asks, as it would
///   be without reading ahead;
/// - `stop()` returns at once, whatever the reading thread is doing (a camera read can block for
///   a frame interval): the thread ends after the read in progress, and frames are no longer read.
///
/// The one thing that can differ: a `maximumWidthPixels` change (battery saver) applies from the
/// next read, so the one frame already read ahead keeps the old size.
///
/// The reader is a `Thread`, not a task, for the reason `LatestFrameBuffer` gives: a blocking read
/// must not hold one of the few threads of Swift's cooperative pool.
public final class ReadAheadFrameSource: ScalableFrameSource {
    public let name: String

    /// What the reading thread shares with the consumer. The thread holds this, not the
    /// `ReadAheadFrameSource`, so a consumer that lets go of it stops the thread.
    private final class Shared: @unchecked Sendable {
        /// Guards every field below; waited on by the consumer (for a frame) and the thread (for a request).
        let condition = NSCondition()
        /// The result of the last read, not yet taken.
        var ready: Result<Frame?, any Error>?
        /// The consumer wants one more read (asked and not yet answered).
        var readWanted = false
        var stopRequested = false
        /// A width set by the consumer (battery saver), for the next read it asks for …
        var widthChange: Int??
        /// … and the one the read asked for now applies: a read asked before the change keeps the
        /// old width, whether or not the thread has started it (the same frames on every run).
        var widthChangeForWantedRead: Int??

        /// Asks the thread for one more read. Called with `condition` locked.
        func wantRead() {
            readWanted = true
            widthChangeForWantedRead = widthChange
            widthChange = nil
            condition.broadcast()
        }
    }

    private let shared = Shared()
    private var requestedWidthPixels: Int?

    /// Starts the reading thread, which reads the first frame straight away. From now on the
    /// source is used by that thread only: the caller must not touch it again.
    public init(_ source: any FrameSource) {
        name = source.name
        requestedWidthPixels = (source as? any ScalableFrameSource)?.maximumWidthPixels
        let handOver = ReadAheadHandOver(source: source)
        let shared = self.shared
        shared.wantRead()
        let thread = Thread { Self.read(handOver.source, shared: shared) }
        thread.name = "read ahead: \(source.name)"
        thread.start()
    }

    deinit { stop() }

    /// Stops reading ahead: returns at once, and `nextFrame()` returns nil from now on. A read in
    /// progress finishes on the reading thread and its frame is let go.
    public func stop() {
        shared.condition.lock()
        shared.stopRequested = true
        shared.ready = nil
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    /// Applied from the next read asked for (the frame already read ahead, or being read, keeps its size).
    public var maximumWidthPixels: Int? {
        get { requestedWidthPixels }
        set {
            requestedWidthPixels = newValue
            shared.condition.lock()
            shared.widthChange = .some(newValue)
            shared.condition.unlock()
        }
    }

    /// The frame read ahead (waiting for it when it is still being read), and the next one is read
    /// meanwhile; the source's error or end in its turn. nil once stopped.
    public func nextFrame() throws -> Frame? {
        let condition = shared.condition
        condition.lock()
        defer { condition.unlock() }
        if shared.ready == nil && !shared.readWanted && !shared.stopRequested { shared.wantRead() }
        while shared.ready == nil && !shared.stopRequested { condition.wait() }
        guard !shared.stopRequested, let result = shared.ready else { return nil }
        shared.ready = nil
        // Only a frame is read past: after an error or the end, the consumer decides whether to read again.
        if case .success(.some) = result { shared.wantRead() }
        return try result.get()
    }

    private static func read(_ source: any FrameSource, shared: Shared) {
        let condition = shared.condition
        condition.lock()
        while true {
            while !shared.readWanted && !shared.stopRequested { condition.wait() }
            if shared.stopRequested { break }
            let widthChange = shared.widthChangeForWantedRead
            shared.widthChangeForWantedRead = nil
            condition.unlock()
            if let widthChange, let scalable = source as? any ScalableFrameSource { scalable.maximumWidthPixels = widthChange }
            let result = Result<Frame?, any Error> { try source.nextFrame() }
            condition.lock()
            shared.readWanted = false
            if !shared.stopRequested { shared.ready = result }
            condition.broadcast()
        }
        condition.unlock()
    }
}

/// Carries a source into the reading thread. Unchecked because the source is not Sendable (it
/// holds a decoder): after `ReadAheadFrameSource.init` hands it over, only the reading thread uses it.
private struct ReadAheadHandOver: @unchecked Sendable {
    let source: any FrameSource
}
