import AssistCore
import Foundation

/// Frames from a camera, a video file or a network stream, decoded by FFmpeg and converted to RGB.
public final class VideoFrameSource: FrameSource {
    public let input: VideoInput
    public let name: String
    /// Larger pictures are scaled down to this width, keeping their shape; nil keeps the source's size.
    public var maximumWidthPixels: Int?
    /// The stream's nominal frame rate, when it declares one.
    public var framesPerSecond: Double? { decoder.framesPerSecond }
    /// The size the source's pictures are decoded at (before any scaling down).
    public var sourceWidthPixels: Int { decoder.width }
    public var sourceHeightPixels: Int { decoder.height }

    private let decoder: FFmpegVideoDecoder
    private var framesRead = 0

    /// The V4L2 input's name in FFmpeg (libavdevice).
    static let cameraInputFormat = "video4linux2"
    /// How long a network read may block before the stream counts as gone, in microseconds
    /// (FFmpeg's generic `rw_timeout` protocol option): a walker must hear promptly that guidance
    /// stopped, rather than wait on a dead connection forever.
    static let networkTimeoutMicroseconds = 5_000_000

    /// Opens a camera, file or stream (a folder of pictures is `ImageFolderSource`).
    public init(_ input: VideoInput, maximumWidthPixels: Int? = nil) throws(VideoInputError) {
        self.input = input
        self.maximumWidthPixels = maximumWidthPixels
        switch input {
        case .camera(let device, let format):
            name = device
            let options = ["video_size": "\(format.widthPixels)x\(format.heightPixels)",
                           "framerate": "\(format.framesPerSecond)"]
            func cameraError(_ failure: FFmpegVideoFailure) -> VideoInputError {
                switch failure {
                case .cannotOpen(let code), .readFailed(let code): return .openingCamera(device, errno: code)
                case .noVideoStream, .noDecoder: return .notACamera(device: device)
                case .ffmpeg(_, let reason): return .failed(name: device, reason: reason)
                case .damagedPicture, .endedEarly: return .notACamera(device: device)
                }
            }
            // A camera without MJPEG makes FFmpeg's v4l2 input fail with EINVAL ("the driver
            // changed the pixel format"); such a camera is opened again in its own format.
            var attempts = [options]
            if format.prefersMJPEG { attempts.insert(options.merging(["input_format": "mjpeg"]) { $1 }, at: 0) }
            var opened: FFmpegVideoDecoder?
            var failure = VideoInputError.notACamera(device: device)
            for attempt in attempts {
                do {
                    opened = try FFmpegVideoDecoder(FFmpegVideoInput(url: device, formatName: Self.cameraInputFormat, options: attempt))
                    break
                } catch {
                    failure = cameraError(error)
                    if error != .cannotOpen(errno: EINVAL) { break }
                }
            }
            guard let opened else { throw failure }
            decoder = opened
        case .file(let url):
            name = url.lastPathComponent
            let path = url.path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .fileNotFound(path: path) }
            if isFolder.boolValue { throw .notAVideo(name: path) }
            // "file:" keeps a colon in the name from being read as a protocol.
            decoder = try Self.open(FFmpegVideoInput(url: "file:" + path, formatName: nil, options: [:])) {
                .openingFile(path, $0)
            }
        case .stream(let url):
            name = url.absoluteString
            let options = url.isFileURL ? [:] : ["rw_timeout": "\(Self.networkTimeoutMicroseconds)",
                                                 "timeout": "\(Self.networkTimeoutMicroseconds)"]
            decoder = try Self.open(FFmpegVideoInput(url: url.isFileURL ? "file:" + url.path : url.absoluteString,
                                                     formatName: nil, options: options)) {
                .openingStream(url.absoluteString, $0)
            }
        case .imageFolder(let folder, _):
            throw .failed(name: folder.path, reason: "a folder of pictures is read by ImageFolderSource")
        }
    }

    private static func open(_ input: FFmpegVideoInput,
                             failure: (FFmpegVideoFailure) -> VideoInputError) throws(VideoInputError) -> FFmpegVideoDecoder {
        do {
            return try FFmpegVideoDecoder(input)
        } catch {
            throw failure(error)
        }
    }

    public func nextFrame() throws -> Frame? {
        try nextVideoFrame()
    }

    /// `nextFrame()` with its error type: nil only at the end of a file.
    public func nextVideoFrame() throws(VideoInputError) -> Frame? {
        let decoded: (image: RGBImage, timestampSeconds: Double)?
        do {
            decoded = try decoder.nextFrame(maximumWidth: maximumWidthPixels)
        } catch {
            switch (input, error) {
            case (_, .damagedPicture):
                throw .damagedPictures(name: name)
            case (.file(let url), .endedEarly(let played, let declared)):
                throw .endedEarly(name: url.path, playedSeconds: played, declaredSeconds: declared)
            case (.camera(let device, _), .readFailed(let code)):
                throw framesRead > 0 ? .readingCamera(device, errno: code) : .openingCamera(device, errno: code)
            case (.camera(let device, _), _):
                throw framesRead > 0 ? .cameraDisconnected(device: device) : .notACamera(device: device)
            case (.stream(let url), .readFailed):
                throw framesRead > 0 ? .streamEnded(url: url.absoluteString) : .streamUnreachable(url: url.absoluteString)
            case (.file(let url), .readFailed(let code)):
                throw .failed(name: url.path, reason: String(cString: strerror(code)))
            case (_, .ffmpeg(_, let reason)):
                throw .failed(name: name, reason: reason)
            default:
                throw .notAVideo(name: name)
            }
        }
        guard let decoded else {
            switch input {
            case .camera(let device, _): throw .cameraDisconnected(device: device)
            case .stream(let url): throw .streamEnded(url: url.absoluteString)
            case .file, .imageFolder: return nil
            }
        }
        framesRead += 1
        return Frame(image: decoded.image, timestampSeconds: decoded.timestampSeconds, sourceName: name)
    }
}
