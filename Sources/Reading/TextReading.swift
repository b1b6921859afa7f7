import Foundation
import Perception

/// One word that was read, kept because it passed the honesty filters.
public struct ReadWord: Sendable, Equatable, Codable {
    public var text: String
    /// 0–1 (Tesseract's word confidence / 100).
    public var confidence: Float
    /// In pixels of the upright picture as decoded (EXIF orientation applied).
    public var box: BoundingBox
    /// Whether Tesseract found the word in its language's word list.
    public var isDictionaryWord: Bool

    public init(text: String, confidence: Float, box: BoundingBox, isDictionaryWord: Bool = false) {
        self.text = text
        self.confidence = confidence
        self.box = box
        self.isDictionaryWord = isDictionaryWord
    }
}

/// A line of words, left to right.
public struct ReadLine: Sendable, Equatable, Codable {
    public var words: [ReadWord]
    public var text: String { words.map(\.text).joined(separator: " ") }
    public var confidence: Float { words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Float(words.count) }
    public var box: BoundingBox { ReadWord.union(words.map(\.box)) }

    enum CodingKeys: String, CodingKey { case text, confidence, box, words }

    public init(words: [ReadWord]) { self.words = words }

    public init(from decoder: any Decoder) throws {
        words = try decoder.container(keyedBy: CodingKeys.self).decode([ReadWord].self, forKey: .words)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(confidence, forKey: .confidence)
        try container.encode(box, forKey: .box)
        try container.encode(words, forKey: .words)
    }
}

/// Lines that belong together: a paragraph, a column, one sign.
public struct ReadBlock: Sendable, Equatable, Codable {
    public var lines: [ReadLine]
    public var text: String { lines.map(\.text).joined(separator: "\n") }
    public var box: BoundingBox { ReadWord.union(lines.map(\.box)) }

    enum CodingKeys: String, CodingKey { case text, box, lines }

    public init(lines: [ReadLine]) { self.lines = lines }

    public init(from decoder: any Decoder) throws {
        lines = try decoder.container(keyedBy: CodingKeys.self).decode([ReadLine].self, forKey: .lines)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(box, forKey: .box)
        try container.encode(lines, forKey: .lines)
    }
}

/// What was read on one picture, in reading order: blocks top to bottom (side-by-side columns and
/// signs left to right), each block's lines top to bottom.
public struct TextReading: Sendable, Equatable, Codable {
    public var blocks: [ReadBlock]
    /// The quarter turns clockwise applied to make the page upright (from orientation detection).
    public var quarterTurnsApplied: Int
    /// The tilt corrected before reading, degrees clockwise.
    public var skewCorrectedDegrees: Double

    public init(blocks: [ReadBlock], quarterTurnsApplied: Int = 0, skewCorrectedDegrees: Double = 0) {
        self.blocks = blocks
        self.quarterTurnsApplied = quarterTurnsApplied
        self.skewCorrectedDegrees = skewCorrectedDegrees
    }

    public var isEmpty: Bool { blocks.allSatisfy { $0.lines.isEmpty } }
    public var lines: [ReadLine] { blocks.flatMap(\.lines) }
    /// Blocks separated by a blank line, lines by a newline.
    public var text: String { blocks.map(\.text).joined(separator: "\n\n") }
}

extension ReadWord {
    static func union(_ boxes: [BoundingBox]) -> BoundingBox {
        guard let first = boxes.first else { return BoundingBox(x0: 0, y0: 0, x1: 0, y1: 0) }
        return boxes.dropFirst().reduce(first) {
            BoundingBox(x0: min($0.x0, $1.x0), y0: min($0.y0, $1.y0), x1: max($0.x1, $1.x1), y1: max($0.y1, $1.y1))
        }
    }
}
