import AssistCore
import Foundation

/// Frames from a folder of pictures, in name order with numbers compared as numbers ("frame2.jpg"
/// before "frame10.jpg"), each decoded by `ImageFile` (so a phone photo comes out upright).
public final class ImageFolderSource: FrameSource {
    public let folder: URL
    public let name: String
    /// The pictures that will be read, in order.
    public let imageFiles: [URL]
    /// The folder's clock: picture k is at k / framesPerSecond seconds.
    public let framesPerSecond: Double
    private var nextIndex = 0

    /// File extensions read as pictures; other files (a notes.txt, a .DS_Store) are passed over.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "bmp", "ppm", "pgm", "tif", "tiff", "gif"]

    public init(folder: URL, framesPerSecond: Double = 1) throws(VideoInputError) {
        self.folder = folder
        self.name = folder.lastPathComponent
        self.framesPerSecond = framesPerSecond > 0 && framesPerSecond.isFinite ? framesPerSecond : 1
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
                throw isFolder.boolValue ? .fileUnreadable(path: folder.path) : .notAVideo(name: folder.path)
            }
            throw .fileNotFound(path: folder.path)
        }
        imageFiles = names
            .filter { !$0.hasPrefix(".") && Self.imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted { $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending }
            .map { folder.appendingPathComponent($0) }
        guard !imageFiles.isEmpty else { throw .folderHasNoImages(path: folder.path) }
    }

    public func nextFrame() throws -> Frame? {
        guard nextIndex < imageFiles.count else { return nil }
        let file = imageFiles[nextIndex]
        let timestamp = Double(nextIndex) / framesPerSecond
        nextIndex += 1
        do {
            return Frame(image: try ImageFile(file).decode(), timestampSeconds: timestamp, sourceName: file.lastPathComponent)
        } catch {
            throw VideoInputError.imageUnreadable(error)
        }
    }
}
