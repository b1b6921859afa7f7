import Foundation

/// Moonshine's vocabulary, read from its `tokenizer.bin`: 32,000 SentencePiece pieces, each
/// stored as one length byte followed by that many bytes of UTF-8, in token-id order. Ids 0–2
/// are `<unk>`, `<s>`, `</s>`; ids 3–258 stand for the single bytes 0x00–0xFF (byte fallback);
/// "▁" (U+2581) marks a space before a word.
public struct MoonshineTokenizer: Sendable {
    public static let startOfText = 1
    public static let endOfText = 2
    static let firstByteToken = 3
    static let byteTokenCount = 256
    static let wordBoundary = "\u{2581}"

    /// Each token's bytes, by id.
    public let pieces: [[UInt8]]

    public init(contentsOf url: URL) throws(SpeechRecognitionError) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .tokenizerDamaged(path: url.path, reason: "it cannot be read")
        }
        do { try self.init(bytes: [UInt8](data)) } catch { throw .tokenizerDamaged(path: url.path, reason: error.reason) }
    }

    struct FormatError: Error { let reason: String }

    init(bytes: [UInt8]) throws(FormatError) {
        var pieces: [[UInt8]] = []
        var position = 0
        while position < bytes.count {
            let length = Int(bytes[position])
            position += 1
            guard position + length <= bytes.count else { throw FormatError(reason: "it ends inside token \(pieces.count)") }
            pieces.append(Array(bytes[position..<position + length]))
            position += length
        }
        // The three special tokens and the 256 byte tokens come first in every Moonshine vocabulary.
        guard pieces.count > Self.firstByteToken + Self.byteTokenCount, pieces[Self.endOfText] == Array("</s>".utf8) else {
            throw FormatError(reason: "it holds \(pieces.count) tokens, not a Moonshine vocabulary")
        }
        self.pieces = pieces
    }

    /// The text of a token sequence (special tokens left out, byte tokens joined into UTF-8).
    public func text(of tokens: [Int]) -> String {
        var bytes: [UInt8] = []
        for token in tokens where token >= 0 && token < pieces.count && token > Self.endOfText {
            if token < Self.firstByteToken + Self.byteTokenCount {
                bytes.append(UInt8(token - Self.firstByteToken))
            } else {
                bytes += pieces[token]
            }
        }
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: Self.wordBoundary, with: " ")
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// One token's text with the word boundary as a space (for biasing; byte tokens as "").
    public func pieceText(_ token: Int) -> String {
        guard token >= Self.firstByteToken + Self.byteTokenCount, token < pieces.count else { return "" }
        return String(decoding: pieces[token], as: UTF8.self).replacingOccurrences(of: Self.wordBoundary, with: " ")
    }
}
