import AssistCore
import Foundation

/// Where frames come from, one at a time, in the order the source made them: a camera, a video
/// file, a network stream or a folder of pictures.
///
/// A source is used from one thread or task at a time (it holds a decoder); `LatestFrameBuffer`
/// moves it onto a reading thread of its own for live use.
public protocol FrameSource: AnyObject {
    /// What the user calls this source in a sentence ("/dev/video0", "walk.mp4").
    var name: String { get }
    /// The next frame, with `timestampSeconds` on the source's own clock (0 at its first frame);
    /// nil at the end of a file or folder. Sources that should never end (a camera, a network
    /// stream) throw instead (`VideoInputError.streamEnded`, `.cameraDisconnected`).
    func nextFrame() throws -> Frame?
}

/// What to read frames from, as the user names it on the command line.
public enum VideoInput: Sendable, Equatable {
    /// A Video4Linux camera such as "/dev/video0", opened at `format`.
    case camera(devicePath: String, format: CameraFormat)
    /// A video file; its end is the end of the frames, not an error.
    case file(URL)
    /// A network stream (rtsp://, http(s):// MJPEG or HLS, udp://, tcp://, rtmp://, or a
    /// "file:" URL standing in for one); its end is reported as `VideoInputError.streamEnded`.
    case stream(URL)
    /// A folder of pictures, read in name order ("img2" before "img10") at `framesPerSecond`.
    case imageFolder(URL, framesPerSecond: Double)

    /// URL schemes FFmpeg reads as network streams.
    public static let streamSchemes: Set<String> = ["rtsp", "rtsps", "rtmp", "http", "https", "udp", "tcp", "srt", "hls"]

    /// Reads a command-line argument: a /dev/video path is a camera, a URL with a network scheme is
    /// a stream, an existing folder is a folder of pictures, anything else a video file.
    public init(argument: String, cameraFormat: CameraFormat = .standard, folderFramesPerSecond: Double = 1) {
        if argument.hasPrefix("/dev/video") {
            self = .camera(devicePath: argument, format: cameraFormat)
        } else if let url = URL(string: argument), let scheme = url.scheme?.lowercased(), Self.streamSchemes.contains(scheme) {
            self = .stream(url)
        } else {
            var isFolder: ObjCBool = false
            let url = URL(fileURLWithPath: argument)
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue {
                self = .imageFolder(url, framesPerSecond: folderFramesPerSecond)
            } else {
                self = .file(url)
            }
        }
    }

    /// Opens the input. `maximumWidthPixels` scales larger pictures down (battery saver), keeping
    /// their shape; nil keeps the source's own size.
    public func open(maximumWidthPixels: Int? = nil) throws(VideoInputError) -> any FrameSource {
        switch self {
        case .imageFolder(let folder, let framesPerSecond):
            return try ImageFolderSource(folder: folder, framesPerSecond: framesPerSecond)
        default:
            return try VideoFrameSource(self, maximumWidthPixels: maximumWidthPixels)
        }
    }
}

/// The picture size, frame rate and encoding asked of a camera. The camera's driver may pick the
/// nearest it supports.
public struct CameraFormat: Sendable, Equatable {
    public var widthPixels: Int
    public var heightPixels: Int
    public var framesPerSecond: Int
    /// Asks for compressed MJPEG frames: most USB cameras deliver 640×480 or more at full rate
    /// only as MJPEG (raw YUYV needs 18 MB/s at 640×480×30, more than USB 2 gives many of them).
    public var prefersMJPEG: Bool

    public init(widthPixels: Int, heightPixels: Int, framesPerSecond: Int, prefersMJPEG: Bool = true) {
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        self.framesPerSecond = framesPerSecond
        self.prefersMJPEG = prefersMJPEG
    }

    /// 640×480 at 15 frames per second: the detector's input is 640 wide, and 15 fps is more than
    /// the detector keeps up with on a CPU, so a faster camera only spends battery.
    public static let standard = CameraFormat(widthPixels: 640, heightPixels: 480, framesPerSecond: 15)

    /// Half the frame rate and half the size in each direction (battery saver).
    public var batterySaving: CameraFormat {
        CameraFormat(widthPixels: max(2, widthPixels / 4 * 2), heightPixels: max(2, heightPixels / 4 * 2),
                     framesPerSecond: max(1, framesPerSecond / 2), prefersMJPEG: prefersMJPEG)
    }
}
