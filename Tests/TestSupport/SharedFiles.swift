import Foundation

/// The checkout and the read-only models and data beside it (`<checkout>/../shared`, the layout
/// MODELS.md describes): the one path every test target uses to reach them.
public enum SharedFiles {
    /// The folder holding Package.swift, found from this file's own path.
    public static let checkout: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// `<checkout>/../shared`.
    public static let root = checkout.deletingLastPathComponent().appendingPathComponent("shared")
    /// `<checkout>/../shared/data`.
    public static let data = root.appendingPathComponent("data")
    /// `<checkout>/../shared/models`.
    public static let models = root.appendingPathComponent("models")

    public static func data(_ relativePath: String) -> URL { data.appendingPathComponent(relativePath) }
    public static func model(_ relativePath: String) -> URL { models.appendingPathComponent(relativePath) }
    /// A picture in `data/images` (bus.jpg, zidane.jpg, …).
    public static func image(_ name: String) -> URL { data("images/\(name)") }
    /// An RGB-D file in `data/depth`.
    public static func depth(_ name: String) -> URL { data("depth/\(name)") }
    /// A picture of text in `data/text`.
    public static func text(_ name: String) -> URL { data("text/\(name)") }

    /// bus.jpg: a bus and four people.
    public static let bus = image("bus.jpg")
    /// zidane.jpg: two people.
    public static let zidane = image("zidane.jpg")
}
