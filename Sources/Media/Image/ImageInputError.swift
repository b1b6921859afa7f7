import AssistCore

/// Why an image file gave no picture, in one sentence that names the file.
///
/// `path` is the path as the caller gave it; sentences name the file by its last component,
/// except when it was not found, where the whole path is what the user needs to check.
public enum ImageInputError: UserFacingError, Equatable {
    case fileNotFound(path: String)
    /// The file exists but may not be read (permissions) or reading it failed.
    case unreadable(path: String)
    case isFolder(path: String)
    /// Zero bytes long: nothing was saved into it.
    case emptyFile(path: String)
    /// Not a format FFmpeg recognises as a picture (a text file named .jpg, an audio file, a device).
    case notAnImage(path: String)
    /// The picture's header was read but its data is corrupt or cut short (an interrupted copy).
    case damaged(path: String)
    /// FFmpeg failed for another reason; `reason` is FFmpeg's own description.
    case decodingFailed(path: String, reason: String)
    /// More than `PictureSize.maximumPixels`; the size when the header told it.
    case tooLarge(path: String, size: PictureSize?)
    /// Narrower or lower than `PictureSize.minimumSide`: nothing can be seen in it, and a camera
    /// model made from its size would be meaningless (issue 39: a 1×1 picture was told as a
    /// focal length of 0.71 pixels).
    case tooSmall(path: String, size: PictureSize)

    public var path: String {
        switch self {
        case .fileNotFound(let path), .unreadable(let path), .isFolder(let path), .emptyFile(let path),
             .notAnImage(let path), .damaged(let path), .decodingFailed(let path, _), .tooLarge(let path, _), .tooSmall(let path, _):
            return path
        }
    }

    public var userMessage: String {
        let name = fileName(of: path)
        switch self {
        case .fileNotFound:
            return "No file was found at \(path)."
        case .unreadable:
            return "The file \(name) could not be read; check that you have permission to open it."
        case .isFolder:
            return "\(name) is a folder, not an image file."
        case .emptyFile:
            return "The file \(name) is empty (0 bytes), so it holds no picture."
        case .notAnImage:
            return "The file \(name) is not an image that can be read; supported formats include JPEG, PNG, WebP and BMP."
        case .damaged:
            return "The image in \(name) is damaged or cut short, so it could not be read."
        case .decodingFailed(_, let reason):
            return "The image in \(name) could not be decoded (FFmpeg: \(reason))."
        case .tooLarge(_, let size):
            let limit = PictureSize.maximumPixels / 1_000_000
            if let size { return "The picture is too large: \(name) is \(size.width) by \(size.height) pixels, and pictures of up to \(limit) megapixels are read." }
            return "The picture is too large: \(name) has more than \(limit) megapixels, the most that is read."
        case .tooSmall(_, let size):
            return "The picture \(name) is only \(size.width) by \(size.height) pixels, too small to show anything; pictures of at least \(PictureSize.minimumSide) by \(PictureSize.minimumSide) pixels are read."
        }
    }

    init(_ problem: InputFileProblem, path: String) {
        switch problem {
        case .notFound: self = .fileNotFound(path: path)
        case .unreadable: self = .unreadable(path: path)
        case .isFolder: self = .isFolder(path: path)
        case .notARegularFile: self = .notAnImage(path: path)
        case .empty: self = .emptyFile(path: path)
        }
    }

    init(_ failure: FFmpegPictureFailure, path: String) {
        switch failure {
        case .cannotOpen(let code): self.init(InputFileProblem.fromOpenError(errno: code), path: path)
        case .noPictureStream, .noDecoder, .unrecognisedData: self = .notAnImage(path: path)
        case .damagedData: self = .damaged(path: path)
        case .ffmpeg(_, let description): self = .decodingFailed(path: path, reason: description)
        case .tooLarge(let size): self = .tooLarge(path: path, size: size)
        }
    }
}

/// The last path component, for sentences.
func fileName(of path: String) -> String {
    // A stream is named by its whole address: its last part ("video" of rtsp://host/video) says
    // nothing about which stream it was (issue 16).
    if path.contains("://") { return path }
    return path.split(separator: "/").last.map(String.init) ?? path
}
