import AssistCore
import Foundation
import Media
import Synchronization

/// Reads a prescription's QR code from a live camera: frames are looked at until one holds a
/// code or the time is up. Each frame gets one of `QRCodeReader`'s renderings, in turn, so a
/// blurred or small code is still read within a few frames while a frame costs one scan.
///
/// A video file goes through the same loop as a recording of a camera: every frame in order,
/// with the time measured on the video's own clock, so it gives the same answer on a busy
/// machine as on an idle one (this is how the scanner is tested where there is no camera).
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

    /// What was read, and when: after `seconds` of looking (of the video's time, for a file).
    public struct Reading: Sendable, Equatable {
        public let text: String
        /// Frames looked at (from a camera, those that arrived during a scan are skipped).
        public let framesScanned: Int
        public let seconds: Double
    }

    /// An opened camera, stream or video file, ready to be scanned.
    public enum Frames {
        /// A camera or network stream: the newest frame each time, on the wall clock.
        case live(LatestFrameBuffer)
        /// A video file or folder of pictures: every frame, on its own clock.
        case recorded(any FrameSource)

        var name: String {
            switch self {
            case .live(let buffer): return buffer.sourceName
            case .recorded(let source): return source.name
            }
        }
    }

    /// Opens `input` for scanning. A camera that is missing, busy or not permitted throws the
    /// `VideoInputError` that says so, before the user is asked to show the code.
    public static func open(_ input: VideoInput) throws -> Frames {
        let source = try input.open()
        switch input {
        case .camera, .stream: return .live(LatestFrameBuffer(source: source))
        case .file, .imageFolder: return .recorded(source)
        }
    }

    /// Opens `input` and scans it.
    public func read(_ input: VideoInput, preferringPrefix prefix: String = PayloadCoding.textPrefix) async throws -> Reading {
        try await read(Self.open(input), preferringPrefix: prefix)
    }

    /// Scans `frames` until a code is read (preferring one that starts with `prefix`): no code
    /// within the time throws `noQRCodeSeen`; a video that ends first, `videoEndedWithoutQRCode`.
    public func read(_ frames: Frames, preferringPrefix prefix: String = PayloadCoding.textPrefix) async throws -> Reading {
        var scanned = 0
        /// The code in `frame`, if one of this turn's rendering shows it.
        func scan(_ frame: Frame) -> String? {
            let rendering = QRCodeReader.Rendering.allCases[scanned % QRCodeReader.Rendering.allCases.count]
            scanned += 1
            let found = QRCodeReader.texts(in: frame.image, rendering: rendering)
            return found.first { $0.hasPrefix(prefix) } ?? found.first
        }
        switch frames {
        case .recorded(let source):
            var first: Double?
            while let frame = try source.nextFrame() {
                let start = first ?? frame.timestampSeconds
                first = start
                let elapsed = frame.timestampSeconds - start
                if elapsed >= timeoutSeconds { throw PrescriptionError.noQRCodeSeen(seconds: Int(timeoutSeconds.rounded())) }
                if let text = scan(frame) { return Reading(text: text, framesScanned: scanned, seconds: elapsed) }
            }
        case .live(let buffer):
            let start = ContinuousClock.now
            let timedOut = TimeoutFlag()
            // The deadline stops the reader, so a wait for a frame that never comes ends too. It
            // runs on a dispatch queue rather than as a task: scans hold the few cooperative
            // threads for long stretches, and a sleeping task would wake only after them.
            let deadline = DispatchWorkItem {
                timedOut.flag.store(true, ordering: .sequentiallyConsistent)
                buffer.stop()
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds, execute: deadline)
            defer {
                deadline.cancel()
                buffer.stop()
            }
            func isTimeUp() -> Bool {
                timedOut.flag.load(ordering: .sequentiallyConsistent) || ContinuousClock.now - start >= .seconds(timeoutSeconds)
            }
            while let frame = try await buffer.nextFrame(), !isTimeUp() {
                if let text = scan(frame) {
                    let elapsed = (ContinuousClock.now - start).components
                    return Reading(text: text, framesScanned: scanned,
                                   seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
                }
            }
            if isTimeUp() { throw PrescriptionError.noQRCodeSeen(seconds: Int(timeoutSeconds.rounded())) }
        }
        throw PrescriptionError.videoEndedWithoutQRCode(name: frames.name)
    }
}

/// Set once by the deadline, read by the scanning loop.
private final class TimeoutFlag: Sendable {
    let flag = Atomic<Bool>(false)
}
