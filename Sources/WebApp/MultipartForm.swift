import Foundation

/// The parts of a multipart/form-data body (a form with a file input): each field's text and
/// each file's bytes, held in memory only. A body the browser did not make (no boundary, no
/// part) gives nil rather than half a form.
struct MultipartForm: Sendable {
    struct Part: Sendable {
        var name: String
        /// The file's name as the browser sent it (its last path component); nil for a plain field.
        var fileName: String?
        var bytes: Data
    }

    /// The largest body accepted for an upload: a phone photo of a QR code is a few megabytes.
    static let maximumBytes = 10 * 1024 * 1024

    var parts: [Part]

    static func isMultipart(contentType: String?) -> Bool {
        contentType?.lowercased().hasPrefix("multipart/form-data") ?? false
    }

    init?(body: Data, contentType: String?) {
        guard let contentType, Self.isMultipart(contentType: contentType),
              let boundaryParameter = contentType.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
                .first(where: { $0.lowercased().hasPrefix("boundary=") }) else { return nil }
        var boundary = String(boundaryParameter.dropFirst("boundary=".count))
        if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 { boundary = String(boundary.dropFirst().dropLast()) }
        guard !boundary.isEmpty else { return nil }
        let delimiter = Data(("--" + boundary).utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var parts: [Part] = []
        guard var cursor = body.range(of: delimiter)?.upperBound else { return nil }
        while cursor < body.endIndex {
            // "--" after a delimiter ends the body; otherwise CRLF and the part's headers follow.
            if body[cursor...].starts(with: Data("--".utf8)) { break }
            guard let headersEnd = body.range(of: headerEnd, in: cursor..<body.endIndex),
                  let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headersEnd.upperBound..<body.endIndex) else { return nil }
            let headers = String(decoding: body[cursor..<headersEnd.lowerBound], as: UTF8.self)
            if let part = Self.part(headers: headers, bytes: Data(body[headersEnd.upperBound..<next.lowerBound])) { parts.append(part) }
            cursor = next.upperBound
        }
        guard !parts.isEmpty else { return nil }
        self.parts = parts
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
