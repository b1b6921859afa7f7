import AssistCore

/// Why a depth image gave no depth map, or does not fit its colour image, in one sentence that
/// names the file.
public enum DepthImageError: UserFacingError, Equatable {
    case fileNotFound(path: String)
    /// The file exists but may not be read (permissions) or reading it failed.
    case unreadable(path: String)
    /// Not a one-channel 16-bit picture; `found` says what it is instead ("an 8-bit colour picture").
    case notADepthImage(path: String, found: String)
    /// A depth image whose header was read but whose samples are corrupt or cut short.
    case damaged(path: String)
    /// FFmpeg failed for another reason; `reason` is FFmpeg's own description.
    case decodingFailed(path: String, reason: String)
    /// Depth and colour pictures must be pixel for pixel the same size to be used together.
    case sizeMismatch(depthFile: String, depth: (width: Int, height: Int), color: (width: Int, height: Int))

    public var userMessage: String {
        switch self {
        case .fileNotFound(let path):
            return "No depth image was found at \(path)."
        case .unreadable(let path):
            return "The depth image \(fileName(of: path)) could not be read; check that you have permission to open it."
        case .notADepthImage(let path, let found):
            return "The file \(fileName(of: path)) is not a 16-bit depth image; it holds \(found)."
        case .damaged(let path):
            return "The depth image \(fileName(of: path)) is damaged or cut short, so it could not be read."
        case .decodingFailed(let path, let reason):
            return "The depth image \(fileName(of: path)) could not be decoded (FFmpeg: \(reason))."
        case .sizeMismatch(let depthFile, let depth, let color):
            return "The depth image \(fileName(of: depthFile)) is \(depth.width) by \(depth.height) pixels "
                + "but its colour image is \(color.width) by \(color.height), so the two cannot be matched."
        }
    }

    init(_ problem: InputFileProblem, path: String) {
        switch problem {
        case .notFound: self = .fileNotFound(path: path)
        case .unreadable: self = .unreadable(path: path)
        case .isFolder: self = .notADepthImage(path: path, found: "a folder")
        case .notARegularFile: self = .notADepthImage(path: path, found: "a device or pipe, not a file")
        case .empty: self = .notADepthImage(path: path, found: "nothing (it is empty)")
        }
    }

    init(_ failure: FFmpegPictureFailure, path: String) {
        switch failure {
        case .cannotOpen(let code): self.init(InputFileProblem.fromOpenError(errno: code), path: path)
        case .noPictureStream, .noDecoder, .unrecognisedData: self = .notADepthImage(path: path, found: "no picture FFmpeg can read")
        case .damagedData: self = .damaged(path: path)
        case .ffmpeg(_, let description): self = .decodingFailed(path: path, reason: description)
        case .tooLarge: self = .decodingFailed(path: path, reason: "the picture has more than \(PictureSize.maximumPixels / 1_000_000) megapixels")
        }
    }

    // Written out because tuples are not Equatable.
    public static func == (lhs: DepthImageError, rhs: DepthImageError) -> Bool {
        switch (lhs, rhs) {
        case let (.fileNotFound(a), .fileNotFound(b)), let (.unreadable(a), .unreadable(b)), let (.damaged(a), .damaged(b)):
            return a == b
        case let (.notADepthImage(a, foundA), .notADepthImage(b, foundB)):
            return a == b && foundA == foundB
        case let (.decodingFailed(a, reasonA), .decodingFailed(b, reasonB)):
            return a == b && reasonA == reasonB
        case let (.sizeMismatch(a, depthA, colorA), .sizeMismatch(b, depthB, colorB)):
            return a == b && depthA == depthB && colorA == colorB
        default:
            return false
        }
    }
}
