import Foundation

/// The parts of a multipart/form-data body (a form with a file input): each field's text and
/// each file's bytes, held in memory only. A body the browser did not make (no boundary, no
/// part, more parts than any form of these pages has) is refused whole rather than read as half
/// a form.
///
/// Read in one pass, in time proportional to the body's length: each byte is looked at a bounded
/// number of times (the boundary is at most 70 characters, RFC 2046 §5.1.1), so a body of
/// 20,000 tiny parts costs what one 1-MB part costs (issue 39: it took 5–6 s before).
struct MultipartForm: Sendable {
    struct Part: Sendable {
        var name: String
        /// The file's name as the browser sent it (its last path component); nil for a plain field.
        var fileName: String?
        var bytes: Data
    }

    /// Why a body is not read as a form.
    enum Failure: Error, Equatable {
        /// Not multipart/form-data, no boundary, or parts the browser would not send.
        case malformed
        /// More parts than `maximumParts`: no page of this server sends such a form.
        case tooManyParts

        var sentence: String {
            switch self {
            case .malformed: return "The upload was not a form this page sends; reload the page and try again."
            case .tooManyParts: return "The upload has more than \(MultipartForm.maximumParts) parts, more than any form of this server sends."
            }
        }
    }

    /// The largest body accepted for an upload: a phone photo of a QR code is a few megabytes.
    static let maximumBytes = 10 * 1024 * 1024
    /// The most parts read: the import form has four (form token, picture, two check boxes).
    static let maximumParts = 16
    /// The most bytes of one part's headers (its Content-Disposition and Content-Type lines).
    static let maximumPartHeaderBytes = 1024
    /// RFC 2046 §5.1.1: a boundary is 1 to 70 characters.
    static let maximumBoundaryLength = 70

    var parts: [Part]

    static func isMultipart(contentType: String?) -> Bool {
        contentType?.lowercased().hasPrefix("multipart/form-data") ?? false
    }

    init(body: Data, contentType: String?) throws(Failure) {
        guard let contentType, Self.isMultipart(contentType: contentType),
              let boundaryParameter = contentType.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { $0.lowercased().hasPrefix("boundary=") }) else { throw .malformed }
        var boundary = String(boundaryParameter.dropFirst("boundary=".count))
        if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 { boundary = String(boundary.dropFirst().dropLast()) }
        guard !boundary.isEmpty, boundary.utf8.count <= Self.maximumBoundaryLength else { throw .malformed }
        let bytes = [UInt8](body)
        let delimiter = Array(("--" + boundary).utf8)
        let nextDelimiter = Array("\r\n".utf8) + delimiter
        let headerEnd = Array("\r\n\r\n".utf8)
        var parts: [Part] = []
        var partsSeen = 0
        guard var cursor = Self.find(delimiter, in: bytes, from: 0).map({ $0 + delimiter.count }) else { throw .malformed }
        while cursor < bytes.count {
            // "--" after a delimiter ends the body; otherwise CRLF and the part's headers follow.
            if bytes[cursor...].starts(with: [0x2D, 0x2D]) { break }
            guard partsSeen < Self.maximumParts else { throw .tooManyParts }
            partsSeen += 1
            let headerLimit = min(bytes.count, cursor + Self.maximumPartHeaderBytes + headerEnd.count)
            guard let headersEnd = Self.find(headerEnd, in: bytes, from: cursor, before: headerLimit),
                  let next = Self.find(nextDelimiter, in: bytes, from: headersEnd + headerEnd.count) else { throw .malformed }
            let headers = String(decoding: bytes[cursor..<headersEnd], as: UTF8.self)
            // A part without a name (no Content-Disposition) is no field of the form: passed over.
            if let part = Self.part(headers: headers, bytes: Data(bytes[(headersEnd + headerEnd.count)..<next])) { parts.append(part) }
            cursor = next + nextDelimiter.count
        }
        guard !parts.isEmpty else { throw .malformed }
        self.parts = parts
    }

    /// Where `pattern` first starts in `bytes` at or after `start` (and ending before `end`):
    /// memchr finds each candidate first byte, memcmp checks the rest, so the search costs the
    /// bytes it passes times at most the pattern's length.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let end = end ?? bytes.count
        guard let first = pattern.first, start >= 0, end - start >= pattern.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            pattern.withUnsafeBufferPointer { wanted -> Int? in
                guard let base = buffer.baseAddress, let wantedBase = wanted.baseAddress else { return nil }
                var position = start
                let lastStart = end - pattern.count
                while position <= lastStart {
                    guard let hit = memchr(base + position, Int32(first), lastStart - position + 1) else { return nil }
                    let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + offset, wantedBase, pattern.count) == 0 { return offset }
                    position = offset + 1
                }
                return nil
            }
        }
    }

    /// A plain field's text (the first part of that name).
    func field(_ name: String) -> String? {
        parts.first { $0.name == name && $0.fileName == nil }.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// A file part; nil when none was chosen (the browser sends an empty file name then).
    func file(_ name: String) -> Part? {
        parts.first { $0.name == name && !($0.fileName ?? "").isEmpty }
    }

    /// `Content-Disposition: form-data; name="picture"; filename="code.png"` → the part.
    private static func part(headers: String, bytes: Data) -> Part? {
        for line in headers.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
            var name: String?, fileName: String?
            for parameter in line.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                var value = pair[1]
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                switch pair[0].lowercased() {
                case "name": name = value
                case "filename": fileName = value.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
                default: break
                }
            }
            guard let name else { return nil }
            return Part(name: name, fileName: fileName, bytes: bytes)
        }
        return nil
    }
}
