import AssistCore
import Foundation
import Media
import Synchronization

/// What the session reads frames from, and how to open it again (after-use, a lost camera,
/// "switch camera"). Tests give a closure that makes fake sources.
public struct FrameInput: Sendable {
    public enum Kind: Sendable, Equatable {
        /// A video file or a folder of pictures: it ends, and its end is normal ("End of video.").
        case recording
        /// A camera: it should never end; when it does, it is tried again a few times.
        case camera(devicePath: String)
        /// A network stream: it should never end.
        case stream
    }

    public var name: String
    public var kind: Kind
    /// A folder of pictures: each picture is a scene of its own, read in order (none skipped),
    /// described in full, and shown until its description was heard; the end is "End of pictures.".
    public var picturesAreScenes = false
    /// The size its frames will have, when known before the first comes (a camera's format):
    /// the detector is made ready for it while the camera starts, not when its first frame is in.
    public var expectedFrameSize: (width: Int, height: Int)?
    /// Opens the input; `maximumWidthPixels` scales larger pictures down (battery saver).
    public var open: @Sendable (_ maximumWidthPixels: Int?) throws -> any FrameSource

    public init(name: String, kind: Kind, open: @escaping @Sendable (_ maximumWidthPixels: Int?) throws -> any FrameSource) {
        self.name = name
        self.kind = kind
        self.open = open
    }

    /// A camera, file, stream or folder as the command line names it. A folder of RGB-D pairs
    /// (`NAME_color.png` + `NAME_depth_mm.pgm`) gives frames with depth.
    public static func video(_ input: VideoInput) -> FrameInput {
        switch input {
        case .camera(let device, let format):
            var camera = FrameInput(name: device, kind: .camera(devicePath: device)) { width in try input.open(maximumWidthPixels: width) }
            camera.expectedFrameSize = (format.widthPixels, format.heightPixels)
            return camera
        case .file(let url):
            return FrameInput(name: url.lastPathComponent, kind: .recording) { width in try input.open(maximumWidthPixels: width) }
        case .stream(let url):
            return FrameInput(name: url.absoluteString, kind: .stream) { width in try input.open(maximumWidthPixels: width) }
        case .imageFolder(let folder, let framesPerSecond):
            var pictures = FrameInput(name: folder.lastPathComponent, kind: .recording) { _ in
                if let pairs = try RGBDFolderSource(folder: folder, framesPerSecond: framesPerSecond) { return pairs }
                return try input.open()
            }
            pictures.picturesAreScenes = true
            return pictures
        }
    }
}

/// Frames from a folder of RGB-D pairs: `NAME_color.png` with `NAME_depth_mm.pgm` (or `.png`)
/// beside it, in name order, each frame carrying its depth.
public final class RGBDFolderSource: FrameSource {
    public let name: String
    public let colorImages: [URL]
    public let framesPerSecond: Double
    private var nextIndex = 0

    /// nil when the folder holds no `_color` pictures with a depth file beside them (then it is a
    /// plain folder of pictures).
    public init?(folder: URL, framesPerSecond: Double) throws(VideoInputError) {
        let plain = try ImageFolderSource(folder: folder, framesPerSecond: framesPerSecond)
        let colors = plain.imageFiles.filter {
            $0.deletingPathExtension().lastPathComponent.hasSuffix("_color") && DepthImageFile.companion(forColorImage: $0) != nil
        }
        guard !colors.isEmpty else { return nil }
        name = folder.lastPathComponent
        colorImages = colors
        self.framesPerSecond = plain.framesPerSecond
    }

    public func nextFrame() throws -> Frame? {
        guard nextIndex < colorImages.count else { return nil }
        let file = colorImages[nextIndex]
        let timestamp = Double(nextIndex) / framesPerSecond
        nextIndex += 1
        let image: RGBImage
        do { image = try ImageFile(file).decode() } catch { throw VideoInputError.imageUnreadable(error) }
        var frame = Frame(image: image, timestampSeconds: timestamp, sourceName: file.lastPathComponent)
        if let depthFile = DepthImageFile.companion(forColorImage: file), let depth = try? depthFile.decode(),
           depth.width == image.width, depth.height == image.height {
            frame.depth = depth
        }
        return frame
    }
}

/// Passes over frames that cannot be read (a corrupt picture in a folder, a damaged packet in a
/// file) instead of ending the run, counting them; after `maximumInARow` in a row the input counts
/// as unreadable. Errors that mean the input itself is gone (a stream ended, a camera unplugged)
/// go through at once.
final class UnreadableFrameSkipper: FrameSource {
    let source: any FrameSource
    let maximumInARow: Int
    private let counts = Counter()

    init(_ source: any FrameSource, maximumInARow: Int) {
        self.source = source
        self.maximumInARow = maximumInARow
    }

    var name: String { source.name }
    /// Read by the session while a reading thread may be skipping: shared under a lock.
    var skipCounter: Counter { counts }

    /// FFmpeg passes over damaged packets without a word (and gives up with "not a video" after
    /// `damagedPacketsFFmpegGivesUpAfter` in a row); the frames it skipped show as a gap in the
    /// timestamps, counted here as unreadable frames.
    static let damagedPacketsFFmpegGivesUpAfter = 50
    private var lastTimestamp: Double?
    private var shortestInterval: Double?
    private var failedSinceLastFrame = false
    private var framesRead = 0

    func nextFrame() throws -> Frame? {
        while true {
            do {
                guard let frame = try source.nextFrame() else { return nil }
                countSkippedByDecoder(before: frame.timestampSeconds)
                counts.reset()
                framesRead += 1
                return frame
            } catch let error as VideoInputError where Self.endsTheInput(error) {
                throw error
            } catch {
                failedSinceLastFrame = true
                if case .damagedPictures? = error as? VideoInputError { counts.markDamaged() }
                let unreadable: Int
                if case .notAVideo? = error as? VideoInputError, framesRead > 0 {
                    unreadable = counts.increment(by: Self.damagedPacketsFFmpegGivesUpAfter)
                } else {
                    unreadable = counts.increment()
                }
                if unreadable >= maximumInARow { throw SessionFault.unreadableInput(lastError: userMessage(for: error)) }
            }
        }
    }

    private func countSkippedByDecoder(before timestamp: Double) {
        defer {
            lastTimestamp = timestamp
            failedSinceLastFrame = false
        }
        guard let last = lastTimestamp else { return }
        let interval = timestamp - last
        guard interval > 0 else { return }
        defer { shortestInterval = min(shortestInterval ?? interval, interval) }
        // Errors thrown meanwhile were counted already (a folder's unreadable pictures).
        guard let nominal = shortestInterval, !failedSinceLastFrame else { return }
        let missing = Int((interval / nominal).rounded()) - 1
        if missing >= 1 { _ = counts.increment(by: missing) }
    }

    static func endsTheInput(_ error: VideoInputError) -> Bool {
        switch error {
        case .imageUnreadable, .failed, .notAVideo, .damagedPictures: return false
        default: return true
        }
    }

    /// Unreadable frames: in a row now, and in all.
    final class Counter: Sendable {
        private let state = Mutex<(inARow: Int, longestRun: Int, total: Int)>((0, 0, 0))
        /// Set once the decoder reported a damaged picture (issue 16): said at once, not after a run.
        private let damage = Mutex(false)
        func markDamaged() { damage.withLock { $0 = true } }
        var sawDamage: Bool { damage.withLock { $0 } }
        func increment(by count: Int = 1) -> Int {
            state.withLock {
                $0.inARow += count
                $0.total += count
                $0.longestRun = max($0.longestRun, $0.inARow)
                return $0.inARow
            }
        }
        func reset() { state.withLock { $0.inARow = 0 } }
        var total: Int { state.withLock { $0.total } }
        var longestRun: Int { state.withLock { $0.longestRun } }
    }
}

/// The session's own faults, as errors thrown through a frame source.
enum SessionFault: Error, Equatable {
    case unreadableInput(lastError: String)
}
