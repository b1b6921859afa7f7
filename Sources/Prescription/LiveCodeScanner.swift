import AssistCore
import Foundation
import Media
import Synchronization

/// Reads a prescription's QR code from a live camera: the newest frame is looked at, again and
/// again, until one holds a code or the time is up. Each frame gets one of `QRCodeReader`'s
/// renderings, in turn, so a blurred or small code is still read within a few frames while a
/// frame costs one scan. A video file or stream goes through exactly the same path
/// (a file is played on its own clock, as the camera that recorded it would have delivered it),
/// which is how this is tested on machines without a camera.
///
/// Frames stay in memory: none is ever written anywhere.
public struct LiveCodeScanner: Sendable {
    /// How long the user is given to hold the code in front of the camera.
    public var timeoutSeconds: Double

    public static let defaultTimeoutSeconds = 30.0
    public static let allowedTimeoutSeconds: ClosedRange<Double> = 1...600

    public init(timeoutSeconds: Double = LiveCodeScanner.defaultTimeoutSeconds) {
        self.timeoutSeconds = timeoutSeconds
    }

    /// What was read and how long it took.
    public struct Reading: Sendable, Equatable {
        public let text: String
        /// Frames looked at (the ones that arrived while a frame was being scanned are skipped).
        public let framesScanned: Int
        public let seconds: Double
    }

    /// Opens `input` for scanning. A camera that is missing, busy or not permitted throws the
    /// `VideoInputError` that says so, before the user is asked to show the code.
    public static func open(_ input: VideoInput) throws -> LatestFrameBuffer {
        let source = try input.open()
        let pace: LatestFrameBuffer.ReadingPace
        if case .file = input { pace = .sourceClockInRealTime } else { pace = .asFastAsTheSourceGives }
        return LatestFrameBuffer(source: source, pace: pace)
    }

    /// Opens `input` and scans it: no code within the time throws `noQRCodeSeen`; a video file
    /// that ends first throws `videoEndedWithoutQRCode`.
    public func read(_ input: VideoInput, preferringPrefix prefix: String = PayloadCoding.textPrefix) async throws -> Reading {
        try await read(Self.open(input), preferringPrefix: prefix)
    }

    /// Scans the newest frame of `frames` again and again; stops the buffer when done.
    public func read(_ frames: LatestFrameBuffer, preferringPrefix prefix: String = PayloadCoding.textPrefix) async throws -> Reading {
        let start = ContinuousClock.now
        let timedOut = TimeoutFlag()
        // The deadline stops the reader, so a wait for a frame that never comes ends too. It runs
        // on a dispatch queue rather than as a task: the scans hold the cooperative threads (two on
        // a two-core machine) for a long time each, and a sleeping task would wake only after them.
        let deadline = DispatchWorkItem {
            timedOut.flag.store(true, ordering: .sequentiallyConsistent)
            frames.stop()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds, execute: deadline)
        defer {
            deadline.cancel()
            frames.stop()
        }
        func isTimeUp() -> Bool {
            timedOut.flag.load(ordering: .sequentiallyConsistent) || ContinuousClock.now - start >= .seconds(timeoutSeconds)
        }
        var scanned = 0
        while let frame = try await frames.nextFrame() {
            if isTimeUp() { break }
            let rendering = QRCodeReader.Rendering.allCases[scanned % QRCodeReader.Rendering.allCases.count]
            scanned += 1
            let found = QRCodeReader.texts(in: frame.image, rendering: rendering)
            if let text = found.first(where: { $0.hasPrefix(prefix) }) ?? found.first {
                let elapsed = ContinuousClock.now - start
                return Reading(text: text, framesScanned: scanned,
                               seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
            }
        }
        if isTimeUp() {
            throw PrescriptionError.noQRCodeSeen(seconds: Int(timeoutSeconds.rounded()))
        }
        throw PrescriptionError.videoEndedWithoutQRCode(name: frames.sourceName)
    }
}

/// Set once by the deadline, read by the scanning loop.
private final class TimeoutFlag: Sendable {
    let flag = Atomic<Bool>(false)
}
