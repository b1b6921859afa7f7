import Foundation
import Synchronization

/// A device that plays into nothing, pulling blocks at the pace of real time as a sound card
/// would. `--quiet` on a live session, and the benchmark that measures the time from enqueue to
/// the first sample handed to the output.
public final class PacedNullPlayback: PlaybackDevice {
    public let name = "no output"
    public let framesPerBuffer: Int
    public let outputLatencySeconds = 0.0
    /// Called after each block is rendered, on the pacing thread, with the block's samples.
    private let observer: (@Sendable (UnsafeBufferPointer<Float>) -> Void)?
    private let running = Atomic<Bool>(false)

    public init(framesPerBuffer: Int = 256, observer: (@Sendable (UnsafeBufferPointer<Float>) -> Void)? = nil) {
        self.framesPerBuffer = framesPerBuffer
        self.observer = observer
    }

    public func start(sampleRateHz: Double, render: @escaping @Sendable (UnsafeMutablePointer<Float>, Int, Int) -> Void) throws {
        running.store(true, ordering: .relaxed)
        let frames = framesPerBuffer
        let observer = observer
        let thread = Thread { [self] in
            let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: frames * 2)
            defer { buffer.deallocate() }
            let period = Double(frames) / sampleRateHz
            var deadline = Date()
            while running.load(ordering: .relaxed) {
                render(buffer.baseAddress!, frames, 2)
                observer?(UnsafeBufferPointer(buffer))
                deadline += period
                let wait = deadline.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
        }
        thread.name = "paced null playback"
        thread.start()
    }

    public var isPlaying: Bool { running.load(ordering: .relaxed) }

    public func stop() { running.store(false, ordering: .relaxed) }
}
