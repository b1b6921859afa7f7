import AssistCore
import Foundation
import Guidance
import LiveGuidance
import Media
import Perception
import Synchronization

/// What a view of the running session shows: the frame analysed last, each object found in it
/// with its box (in the frame's pixels), label and distance, and the scene's description (the
/// picture's text alternative). The picture itself travels beside it as a JPEG.
public struct LiveView: Codable, Sendable, Equatable {
    public struct Object: Codable, Sendable, Equatable {
        public var label: String
        public var confidence: Float
        /// In the frame's pixels (`LiveView.width` × `height`), whatever size the JPEG is.
        public var box: BoundingBox
        public var direction: HorizontalDirection
        public var distanceMeters: Double?
        /// The distance as the session rounds it for speech, short: "3 m", "under 1 m", "12 ft".
        public var distanceText: String

        public init(_ object: LocatedObject, unit: DistanceUnit) {
            label = object.label
            confidence = object.confidence
            box = object.detection.box
            direction = object.direction.horizontal
            distanceMeters = object.distance.meters
            distanceText = Self.distanceText(SpokenDistance(meters: object.distance.meters, unit: unit))
        }

        static func distanceText(_ distance: SpokenDistance) -> String {
            switch distance {
            case .unknown: return "distance unknown"
            case .lessThan(let count, let unit): return "under \(count) \(unit == .meters ? "m" : "ft")"
            case .about(let count, let unit): return "\(count) \(unit == .meters ? "m" : "ft")"
            }
        }
    }

    /// Counts the session's analysed frames from 1.
    public var sequenceNumber: Int
    /// The session's clock when the frame was analysed.
    public var timeSeconds: Double
    /// The frame's size in pixels, the boxes' coordinate space.
    public var width: Int
    public var height: Int
    /// The description of the scene, one sentence after another.
    public var description: String
    public var objects: [Object]

    public init(_ frame: AnalysedFrame) {
        sequenceNumber = frame.sequenceNumber
        timeSeconds = frame.timeSeconds
        width = frame.image.width
        height = frame.image.height
        description = frame.description.joined(separator: " ")
        objects = frame.objects.map { Object($0, unit: frame.distanceUnit) }
    }
}

/// A `LiveView` with its picture.
public struct LiveViewFrame: Sendable, Equatable {
    public var view: LiveView
    public var jpeg: JPEGPicture

    public init(view: LiveView, jpeg: JPEGPicture) {
        self.view = view
        self.jpeg = jpeg
    }
}

/// The view socket of a running session, beside its control socket (owner-only, like it): each
/// connection sends one line and gets the latest analysed frame back, then is closed. The frame is
/// encoded only when asked for (once per frame, whoever asks), and only in memory.
///
/// The answer: one JSON line (`Header`), then the JPEG's bytes, to the end of the connection.
public final class LiveViewServer: Sendable {
    private let server: ControlServer

    /// The answer for the frame encoded last, so each frame is encoded once however many ask.
    final class EncodedFrame: Sendable {
        let latest = Mutex<(sequenceNumber: Int, message: [UInt8])?>(nil)
    }

    /// The JSON line before the picture: the view (nil before the first analysed frame) and the
    /// picture's size.
    struct Header: Codable {
        var view: LiveView?
        var jpegWidth: Int
        var jpegHeight: Int
        var jpegBytes: Int
    }

    /// Serves `controls`' latest analysed frame at `path`; throws `alreadyInUse` when another
    /// session serves there.
    public convenience init(path: String = ControlSocketLocation.viewSocket().path, controls: SessionControls,
                            encoder: JPEGEncoder = JPEGEncoder()) throws {
        try self.init(path: path, encoder: encoder, latest: { controls.latestAnalysedFrame })
    }

    /// Serves whatever `latest` gives (a session's `latestAnalysedFrame`).
    public init(path: String, encoder: JPEGEncoder = JPEGEncoder(), latest: @escaping @Sendable () -> AnalysedFrame?) throws {
        let cache = EncodedFrame()
        server = try ControlServer(path: path, respond: { _ in
            Self.message(for: latest(), encoder: encoder, cache: cache)
        })
    }

    public func stop() { server.stop() }

    static func message(for frame: AnalysedFrame?, encoder: JPEGEncoder, cache: EncodedFrame) -> [UInt8] {
        guard let frame else { return headerLine(Header(view: nil, jpegWidth: 0, jpegHeight: 0, jpegBytes: 0)) }
        if let cached = cache.latest.withLock({ $0 }), cached.sequenceNumber == frame.sequenceNumber { return cached.message }
        let message: [UInt8]
        do {
            let jpeg = try encoder.encode(frame.image)
            message = headerLine(Header(view: LiveView(frame), jpegWidth: jpeg.width, jpegHeight: jpeg.height,
                                        jpegBytes: jpeg.bytes.count)) + jpeg.bytes
        } catch {
            // No picture, but still what was found: the page shows the description.
            message = headerLine(Header(view: LiveView(frame), jpegWidth: 0, jpegHeight: 0, jpegBytes: 0))
        }
        cache.latest.withLock { $0 = (frame.sequenceNumber, message) }
        return message
    }

    private static func headerLine(_ header: Header) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(((try? encoder.encode(header)) ?? Data("{}".utf8))) + [UInt8(ascii: "\n")]
    }
}

/// The client side of the view socket (the web app's Live page).
public struct LiveViewClient: Sendable {
    public let socketPath: String
    public let timeoutSeconds: Double
    /// Larger answers are refused: a JPEG of a 960-pixel-wide frame is far smaller.
    static let largestAnswerBytes = 16 * 1024 * 1024

    public init(socketPath: String = ControlSocketLocation.viewSocket().path, timeoutSeconds: Double = 5) {
        self.socketPath = socketPath
        self.timeoutSeconds = timeoutSeconds
    }

    /// The session's latest analysed frame; nil before its first. Throws
    /// `ControlSocketError.noSession` when no session serves a view, `.noReply` when the answer
    /// was not a view.
    public func latest() throws -> LiveViewFrame? {
        let socket = try UnixSocket.connect(to: socketPath, timeoutSeconds: timeoutSeconds)
        defer { socket.close() }
        try socket.write("view\n")
        guard let answer = socket.readToEnd(limit: Self.largestAnswerBytes),
              let newline = answer.firstIndex(of: UInt8(ascii: "\n")),
              let header = try? JSONDecoder().decode(LiveViewServer.Header.self, from: Data(answer[..<newline])) else {
            throw ControlSocketError.noReply
        }
        guard let view = header.view else { return nil }
        let bytes = Array(answer[(newline + 1)...])
        guard bytes.count == header.jpegBytes else { throw ControlSocketError.noReply }
        return LiveViewFrame(view: view, jpeg: JPEGPicture(bytes: bytes, width: header.jpegWidth, height: header.jpegHeight))
    }

    /// `latest` on a thread of its own, so an async caller never blocks a thread of the shared pool.
    public func latestAway() async throws -> LiveViewFrame? {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try latest() }) }.start()
        }
    }
}
