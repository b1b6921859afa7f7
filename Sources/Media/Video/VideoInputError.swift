import AssistCore
#if canImport(Glibc)
import Glibc
#endif

/// Why a camera, video file or stream gave no frame, in one sentence ready to be spoken, with what
/// to do where the user can do something.
public enum VideoInputError: UserFacingError, Equatable {
    /// EBUSY: another program (a video call, a browser tab) holds the camera.
    case cameraBusy(device: String)
    /// ENOENT/ENXIO/ENODEV when opening: no camera at that path.
    case cameraNotFound(device: String)
    /// EACCES/EPERM: the user may not open the camera (not in the "video" group).
    case cameraPermissionDenied(device: String)
    /// Frames came, then reading failed (ENODEV or EIO): the camera was unplugged.
    case cameraDisconnected(device: String)
    /// The path exists but is not a camera (ENOTTY, EINVAL from the V4L2 driver).
    case notACamera(device: String)
    case fileNotFound(path: String)
    case fileUnreadable(path: String)
    /// The file or stream holds no video FFmpeg can decode.
    case notAVideo(name: String)
    /// The network stream could not be reached (refused, timed out, unknown host).
    case streamUnreachable(url: String)
    /// A live stream stopped sending frames during the run.
    case streamEnded(url: String)
    /// A picture in a folder of pictures could not be read.
    case imageUnreadable(ImageInputError)
    /// The folder holds no pictures.
    case folderHasNoImages(path: String)
    /// Anything else, with FFmpeg's own description.
    case failed(name: String, reason: String)
    /// Some pictures of a video could not be read whole and were skipped (never described).
    case damagedPictures(name: String)
    /// A video file ended before the pictures it declares: it was cut short.
    case endedEarly(name: String, playedSeconds: Double, declaredSeconds: Double)

    public var userMessage: String {
        switch self {
        case .cameraBusy:
            return "The camera is in use by another program; close that program and try again."
        case .cameraNotFound(let device):
            return "No camera was found at \(device); check that it is plugged in, or run assist cameras to list them."
        case .cameraPermissionDenied(let device):
            return "You do not have permission to use the camera \(device); add your user to the video group and log in again."
        case .cameraDisconnected:
            return "The camera stopped sending pictures; check that it is still plugged in."
        case .notACamera(let device):
            return "\(device) is not a camera that can capture pictures."
        case .fileNotFound(let path):
            return "No video file was found at \(path)."
        case .fileUnreadable(let path):
            return "The video file \(fileName(of: path)) could not be read; check that you have permission to open it."
        case .notAVideo(let name):
            return "\(fileName(of: name)) holds no video that can be played."
        case .streamUnreachable(let url):
            return "The video stream at \(url) could not be reached; check the address and the network."
        case .streamEnded:
            return "The video stream ended."
        case .imageUnreadable(let error):
            return error.userMessage
        case .folderHasNoImages(let path):
            return "The folder \(fileName(of: path)) holds no pictures."
        case .failed(let name, let reason):
            return "The video from \(fileName(of: name)) could not be read (FFmpeg: \(reason))."
        case .damagedPictures:
            return "Damaged video: some pictures were skipped."
        case .endedEarly(let name, let played, let declared):
            return "The video \(fileName(of: name)) ends early, after \(numberText(played, fractionDigits: 1)) of its \(numberText(declared, fractionDigits: 1)) seconds; it is cut short or damaged."
        }
    }

    /// The error for a camera that failed to open with POSIX code `code`.
    public static func openingCamera(_ device: String, errno code: Int32) -> VideoInputError {
        switch code {
        case EBUSY: return .cameraBusy(device: device)
        case EACCES, EPERM: return .cameraPermissionDenied(device: device)
        case ENOENT, ENXIO, ENODEV: return .cameraNotFound(device: device)
        case ENOTTY, EINVAL: return .notACamera(device: device)
        default: return .failed(name: device, reason: String(cString: strerror(code)))
        }
    }

    /// The error for a camera that had been sending frames and then failed with POSIX code `code`.
    /// Any read failure of a capture device after it streamed means it is gone for this run; the
    /// kernel reports an unplugged USB camera as ENODEV, some drivers as EIO.
    public static func readingCamera(_ device: String, errno code: Int32) -> VideoInputError {
        switch code {
        case EBUSY: return .cameraBusy(device: device)
        default: return .cameraDisconnected(device: device)
        }
    }

    static func openingFile(_ path: String, _ failure: FFmpegVideoFailure) -> VideoInputError {
        switch failure {
        case .cannotOpen(let code) where code == ENOENT || code == ENOTDIR: return .fileNotFound(path: path)
        case .cannotOpen(let code) where code == EACCES || code == EPERM || code == EISDIR: return .fileUnreadable(path: path)
        case .cannotOpen(let code), .readFailed(let code): return .failed(name: path, reason: String(cString: strerror(code)))
        case .noVideoStream, .noDecoder: return .notAVideo(name: path)
        case .ffmpeg(_, let description): return .failed(name: path, reason: description)
        case .damagedPicture: return .damagedPictures(name: path)
        case .endedEarly(let played, let declared): return .endedEarly(name: path, playedSeconds: played, declaredSeconds: declared)
        }
    }

    static func openingStream(_ url: String, _ failure: FFmpegVideoFailure) -> VideoInputError {
        switch failure {
        case .cannotOpen, .readFailed: return .streamUnreachable(url: url)
        case .noVideoStream, .noDecoder: return .notAVideo(name: url)
        case .ffmpeg(_, let description): return .failed(name: url, reason: description)
        case .damagedPicture: return .damagedPictures(name: url)
        case .endedEarly: return .streamEnded(url: url)
        }
    }
}
