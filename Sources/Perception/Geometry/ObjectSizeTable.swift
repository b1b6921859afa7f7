import AssistCore
import Foundation

/// The typical real-world size of one kind of object, for the pinhole size cue.
public struct ObjectSize: Sendable, Equatable, Codable {
    /// The vertical extent a box usually spans, when it does not depend on the viewing side.
    public var heightMeters: Double?
    /// The horizontal extent, only for objects about as wide from every side (a chair, a ball).
    public var widthMeters: Double?
    /// For long thin or flat objects seen at any angle (a bat, a phone): compared with the box diagonal.
    public var lengthMeters: Double?
    /// Estimated relative standard deviation of the real size among objects of the class.
    public var relativeSpread: Double
    /// Whether the box bottom is where the object touches the floor (a ground-contact point).
    public var standsOnFloor: Bool
    /// Where the numbers come from, in a sentence.
    public var source: String

    public init(heightMeters: Double? = nil, widthMeters: Double? = nil, lengthMeters: Double? = nil,
                relativeSpread: Double, standsOnFloor: Bool, source: String) {
        self.heightMeters = heightMeters
        self.widthMeters = widthMeters
        self.lengthMeters = lengthMeters
        self.relativeSpread = relativeSpread
        self.standsOnFloor = standsOnFloor
        self.source = source
    }
}

/// Typical sizes per detector label ("person", "bus"), read from `object-sizes.json`.
public struct ObjectSizeTable: Sendable, Equatable {
    public let sizes: [String: ObjectSize]

    public init(sizes: [String: ObjectSize]) throws {
        for (label, size) in sizes {
            for (field, value) in [("heightMeters", size.heightMeters), ("widthMeters", size.widthMeters),
                                   ("lengthMeters", size.lengthMeters)] {
                if let value, !(value.isFinite && value > 0) {
                    throw ObjectSizeTableError.badValue(label: label, field: field, value: value)
                }
            }
            guard size.relativeSpread.isFinite, size.relativeSpread > 0 else {
                throw ObjectSizeTableError.badValue(label: label, field: "relativeSpread", value: size.relativeSpread)
            }
        }
        self.sizes = sizes
    }

    /// Reads the table's JSON: `{"classes": {"person": {"heightMeters": 1.7, ...}}}`.
    public init(json: Data) throws {
        struct File: Decodable { var classes: [String: ObjectSize] }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: json) } catch {
            throw ObjectSizeTableError.unreadable(detail: String(describing: error))
        }
        try self.init(sizes: file.classes)
    }

    /// The table shipped with Perception (all 80 COCO classes).
    public static func bundled() throws -> ObjectSizeTable {
        guard let url = Bundle.module.url(forResource: "object-sizes", withExtension: "json") else {
            throw ObjectSizeTableError.missingResource
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw ObjectSizeTableError.missingResource }
        return try ObjectSizeTable(json: data)
    }

    public subscript(label: String) -> ObjectSize? { sizes[label] }
}

public enum ObjectSizeTableError: UserFacingError, Equatable {
    case missingResource
    case unreadable(detail: String)
    case badValue(label: String, field: String, value: Double)

    public var userMessage: String {
        switch self {
        case .missingResource:
            return "The object size table object-sizes.json is missing from the installation; reinstall AssistiveKit."
        case .unreadable(let detail):
            return "The object size table is not valid JSON of the expected shape (\(detail))."
        case .badValue(let label, let field, let value):
            return "The object size table gives '\(label)' a \(field) of \(value); it must be a positive number."
        }
    }
}
