import Commands
import Foundation
import TestSupport
import Hummingbird
import Logging
import NIOCore
import Prescription
import SessionControl
import Storage
@testable import WebApp

/// A web app over a fresh pair of XDG folders, driven through its router in process: no socket,
/// no browser, the same access checks and pages.
struct WebTestApp {
    let root: URL
    let database: UserDatabase
    let store: SettingsStore
    let history: DetectionHistory
    let app: WebApp
    let host = "127.0.0.1:8470"
    /// The lines the Live page sent to the session, in order.
    let sent = SentLines()

    final class SentLines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    /// The hearing pages, over a patient store in this test's folder (cheap scrypt, same code path).
    let hearing: HearingPages

    init(viewOfSession: @escaping SessionViewSource = { nil }, hearingInput: HearingPages.HearingInput = .none) throws {
        root = TemporaryFolder.path("assistivekit-web-tests")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let environment = ["XDG_DATA_HOME": root.appendingPathComponent("data").path,
                           "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
                           "HOME": root.appendingPathComponent("home").path]
        database = try UserDatabase.open(StorageLocation(environment: environment))
        let validator = SettingsValidator(knownCategories: SettingsValidator.cocoCategories)
        store = SettingsStore(database: database, validator: validator)
        history = DetectionHistory(database: database)
        let language = try CommandLanguage(language: "en", categories: validator.knownCategories)
        let sent = self.sent
        hearing = HearingPages(patientStore: PatientStore(folder: root.appendingPathComponent("prescriptions"),
                                                          cost: ScryptCost(log2Rounds: 10, blockSize: 8, parallelism: 1)),
                               input: hearingInput, paced: false)
        app = WebApp(access: AccessGuard(accessToken: "access-secret", formToken: "form-secret"), store: store, history: history,
                     language: language, sessionRunning: { true },
                     sendToSession: { line in
                         sent.append(line)
                         return ControlReply(understood: true, intent: "scanNow", reply: "Scanning for \(line).")
                     }, viewOfSession: viewOfSession, hearing: hearing)
    }

    func remove() {
        try? database.close()
        try? FileManager.default.removeItem(at: root)
    }

    struct Reply {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: String
        /// The body as sent (a picture's, a download's bytes).
        var bytes: [UInt8]
        var data: Data { Data(bytes) }
    }

    /// One request through the router, with the session cookie unless `cookie` says otherwise.
    func request(_ method: HTTPRequest.Method, _ path: String, cookie: String? = "assist_access=access-secret",
                 form: [String: String]? = nil, origin: String? = "http://127.0.0.1:8470", host: String? = nil,
                 upload: (contentType: String, body: Data)? = nil, streamed: WatchedBody? = nil,
                 extraHeaders: HTTPFields = [:]) async throws -> Reply {
        var fields = HTTPFields()
        if let cookie { fields[.cookie] = cookie }
        if method == .post, let origin { fields[.origin] = origin }
        var body = ByteBuffer()
        if let form {
            fields[.contentType] = "application/x-www-form-urlencoded"
            body = ByteBuffer(string: form.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&"))
        }
        if let upload {
            fields[.contentType] = upload.contentType
            body = ByteBuffer(bytes: upload.body)
        }
        fields.append(contentsOf: extraHeaders)
        let head = HTTPRequest(method: method, scheme: "http", authority: host ?? self.host, path: path, headerFields: fields)
        let requestBody = streamed.map { RequestBody(asyncSequence: $0) } ?? RequestBody(buffer: body)
        let response = try await app.router().buildResponder().respond(to: Request(head: head, body: requestBody),
                                                                        context: WebContext(logger: Logger(label: "web-tests")))
        let collected = Collected()
        try await response.body.write(CollectingWriter(target: collected))
        return Reply(status: response.status, headers: response.headers, body: String(buffer: collected.buffer),
                     bytes: Array(collected.buffer.readableBytesView))
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

final class Collected: @unchecked Sendable {
    var buffer = ByteBuffer()
}

struct CollectingWriter: ResponseBodyWriter {
    let target: Collected
    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        target.buffer.writeBuffer(&buffer)
    }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// A request body that records whether the server began reading it: the way a test sees that a
/// request was refused on its headers alone.
struct WatchedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunks: [ByteBuffer]
    let reads = Reads()

    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func record() { lock.withLock { count += 1 } }
        var any: Bool { lock.withLock { count > 0 } }
    }

    init(_ data: Data, chunkBytes: Int = 64 * 1024) {
        chunks = stride(from: 0, to: data.count, by: chunkBytes).map { ByteBuffer(bytes: data[$0..<Swift.min(data.count, $0 + chunkBytes)]) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<ByteBuffer>
        let reads: Reads
        mutating func next() async -> ByteBuffer? {
            reads.record()
            return remaining.popFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...], reads: reads) }
}

/// A multipart/form-data body of `fields` then a file part, as a browser sends it.
func multipartBody(boundary: String, fields: [(String, String)], file: (name: String, fileName: String, bytes: Data)? = nil) -> Data {
    var body = Data()
    for (field, value) in fields {
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"\r\n\r\n\(value)\r\n".utf8)
    }
    if let file {
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.fileName)\"\r\nContent-Type: image/png\r\n\r\n".utf8)
        body += file.bytes
        body += Data("\r\n".utf8)
    }
    body += Data("--\(boundary)--\r\n".utf8)
    return body
}
