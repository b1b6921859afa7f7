import AssistCore
import Foundation

/// An image of a YOLO dataset and the label file that belongs to it, if there is one.
public struct LabelledImage: Sendable, Equatable {
    public var imageURL: URL
    /// nil when the image has no label file, which means it shows no objects.
    public var labelURL: URL?

    public init(imageURL: URL, labelURL: URL?) {
        self.imageURL = imageURL
        self.labelURL = labelURL
    }

    /// The image's labels; an image without a label file has none.
    public func labels() throws(LabelFileError) -> YOLOLabelFile {
        guard let labelURL else { return .empty }
        return try YOLOLabelFile(contentsOf: labelURL)
    }
}

/// A folder of images in the YOLO layout (`…/images/…/x.jpg` labelled by `…/labels/…/x.txt`), as
/// Ultralytics reads it: every image under the images folder, searched recursively, sorted by path.
public struct YOLODataset: Sendable {
    /// The file extensions Ultralytics accepts as images (`IMG_FORMATS`), compared in lower case.
    public static let imageExtensions: Set<String> = ["bmp", "dng", "jpeg", "jpg", "mpo", "png", "tif", "tiff", "webp", "pfm", "heic"]

    /// The folder the images were collected from.
    public var imagesFolder: URL
    /// Every image, sorted by path, each with its label file if one exists.
    public var images: [LabelledImage]
    /// Label files under the matching labels folder that belong to no image; they are ignored.
    public var labelFilesWithoutImage: [URL]

    /// The number of images that have no label file (counted as showing no objects).
    public var imagesWithoutLabelFile: Int { images.count(where: { $0.labelURL == nil }) }

    /// Opens a dataset from its root (a folder holding `images/`, e.g. `coco128`) or from an images
    /// folder itself (e.g. `coco128/images/train2017`). From the root, every image under `images/` is
    /// used; name a split's folder to evaluate one split.
    public init(at folder: URL) throws(DatasetError) {
        let folder = folder.standardizedFileURL
        guard Self.isDirectory(folder) else { throw DatasetError.notAFolder(folder) }
        let imagesSubfolder = folder.appendingPathComponent("images")
        imagesFolder = Self.isDirectory(imagesSubfolder) ? imagesSubfolder : folder

        let imageFiles = Self.files(under: imagesFolder)
            .filter { Self.imageExtensions.contains($0.pathExtension.lowercased()) }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        guard !imageFiles.isEmpty else { throw DatasetError.noImages(imagesFolder) }

        var matchedLabels: Set<String> = []
        images = imageFiles.map { image in
            let labelURL = Self.labelURL(forImage: image)
            guard let labelURL, FileManager.default.fileExists(atPath: labelURL.path) else {
                return LabelledImage(imageURL: image, labelURL: nil)
            }
            matchedLabels.insert(labelURL.standardizedFileURL.path)
            return LabelledImage(imageURL: image, labelURL: labelURL)
        }

        var orphans: [URL] = []
        if let labelsFolder = Self.labelURL(forImage: imagesFolder.appendingPathComponent("x.jpg"))?.deletingLastPathComponent(),
           Self.isDirectory(labelsFolder) {
            orphans = Self.files(under: labelsFolder)
                .filter { $0.pathExtension == "txt" && !matchedLabels.contains($0.standardizedFileURL.path) }
                .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        }
        labelFilesWithoutImage = orphans
    }

    /// The label file's path for an image: the last `/images/` in the path becomes `/labels/` and the
    /// extension `.txt` (Ultralytics' `img2label_paths`); nil when the path has no `images` folder.
    public static func labelURL(forImage image: URL) -> URL? {
        let path = image.standardizedFileURL.path
        guard let range = path.range(of: "/images/", options: .backwards) else { return nil }
        let labelPath = path.replacingCharacters(in: range, with: "/labels/")
        return URL(fileURLWithPath: labelPath).deletingPathExtension().appendingPathExtension("txt")
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    private static func files(under folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var files: [URL] = []
        for case let url as URL in enumerator {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                files.append(url.standardizedFileURL)
            }
        }
        return files
    }
}

/// A dataset folder that cannot be evaluated.
public enum DatasetError: UserFacingError, Equatable {
    case notAFolder(URL)
    case noImages(URL)

    public var userMessage: String {
        switch self {
        case .notAFolder(let url):
            return "The dataset folder \(url.path) does not exist or is not a folder."
        case .noImages(let url):
            return "The folder \(url.path) holds no images (\(YOLODataset.imageExtensions.sorted().joined(separator: ", ")))."
        }
    }
}
