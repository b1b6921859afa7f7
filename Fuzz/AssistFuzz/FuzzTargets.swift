import AssistCore
import Commands
import Foundation
import Hearing
import Media
import LiveGuidance
@testable import Prescription
import NIOCore
import NIOEmbedded
import NIOHTTP1
import SessionControl
@testable import Storage
@testable import WebApp

/// A parser under fuzzing: its name (a folder of seeds in Fuzz/Corpus) and how it takes bytes.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable (Data) -> Void

    static let all: [FuzzTarget] = [
        FuzzTarget(name: "audiogram-json") { data in
            guard let document = try? JSONDecoder().decode(AudiogramDocument.self, from: data) else { return }
            _ = try? document.prescription()
            if let error = (Result { try document.prescription() }).failureMessage { precondition(!error.isEmpty) }
        },
        FuzzTarget(name: "audiogram-csv") { data in
            do { _ = try AudiogramCSV.parse(String(decoding: data, as: UTF8.self)) } catch { _ = userMessage(for: error) }
        },
        FuzzTarget(name: "prescription-text") { data in
            let text = String(decoding: data, as: UTF8.self)
            _ = Base45.decode(text)
            do { _ = try Fixtures.verifier.verify(text: text) } catch { _ = userMessage(for: error) }
        },
        FuzzTarget(name: "prescription-payload") { data in
            do { _ = try PayloadCoding.decode(data) } catch { _ = userMessage(for: error) }
            _ = try? Fixtures.verifier.verify(text: PayloadCoding.text(fromPayload: data))
        },
        FuzzTarget(name: "backup-container") { data in
            // The container and header up to the key derivation. scrypt's cost comes from the
            // header, bounded by `isReasonable` (at most 2^20 rounds and 1 GiB: seconds, by design);
            // an accepted cost is lowered to the cheapest accepted one (2^10 rounds, block size 1,
            // one lane), so the fuzzer explores the parsing instead of waiting on scrypt (its first
            // "finding" was a header asking 2^17 × 16, ten seconds under ASan). Costs outside the
            // accepted ranges are left as they are, so their refusal is still fuzzed.
            var bytes = data
            if bytes.count > 12 {
                if (11...20).contains(bytes[10]) { bytes[10] = 10 }
                if (2...16).contains(bytes[11]) { bytes[11] = 1 }
                if (2...4).contains(bytes[12]) { bytes[12] = 1 }
            }
            do { _ = try Backup.open(bytes, passphrase: "correct horse battery staple", path: "fuzz.akb") } catch { _ = userMessage(for: error) }
        },
        FuzzTarget(name: "backup-contents") { data in
            // What a backup holds once decrypted: the JSON every value of which is validated.
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            guard let contents = try? decoder.decode(BackupContents.self, from: data) else { return }
            for (key, value) in contents.settings {
                guard let definition = try? SettingsSchema.definition(for: key) else { continue }
                do { _ = try definition.validate(value, validator: Fixtures.settingsValidator) } catch { _ = userMessage(for: error) }
            }
            for entry in contents.history ?? [] {
                do { _ = try entry.validated() } catch { _ = userMessage(for: error) }
            }
        },
        FuzzTarget(name: "settings-value") { data in
            // First line: a setting's name; the rest: the value as typed on the command line.
            let text = String(decoding: data, as: UTF8.self)
            let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts.first.map(String.init) ?? ""
            let value = parts.count > 1 ? String(parts[1]) : ""
            let definitions = (try? SettingsSchema.definition(for: key)).map { [$0] } ?? SettingsSchema.definitions
            for definition in definitions.prefix(3) {
                do { _ = try definition.validate(definition.parse(text: value), validator: Fixtures.settingsValidator) } catch { _ = userMessage(for: error) }
                if let json = try? JSONValue(jsonText: value) {
                    do { _ = try definition.validate(json, validator: nil) } catch { _ = userMessage(for: error) }
                }
            }
        },
        FuzzTarget(name: "command-line") { data in
            guard let language = Fixtures.commandLanguage else { return }
            _ = language.interpret(String(decoding: data.prefix(4096), as: UTF8.self))
        },
        FuzzTarget(name: "control-line") { data in
            // What `assist ctl` (or any local program) sends to a running session's socket: up to
            // three lines, handled in order by one controller, as the server hands each connection's
            // line to `CommandController.handle` (so a question and its "yes" are reached too).
            // The settings a line changes go to a real store, kept across runs as in a session.
            let controller = CommandController(language: Fixtures.controlUnderstanding.language, session: SessionControls(),
                                               storage: Fixtures.controlStorage, understanding: Fixtures.controlUnderstanding)
            let text = String(decoding: data.prefix(4096), as: UTF8.self)
            for line in text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: true) {
                let reply = controller.handle(String(line))
                precondition(!reply.reply.isEmpty, "every line is answered with a sentence")
            }
        },
        FuzzTarget(name: "wav") { data in
            Fixtures.withFile(data, suffix: ".wav") { url in
                do { _ = try AudioFile.read(url) } catch { _ = userMessage(for: error) }
            }
        },
        FuzzTarget(name: "depth-pgm") { data in
            Fixtures.withFile(data, suffix: ".pgm") { url in
                do { _ = try DepthImageFile(url, encoding: .millimeters16).decode() } catch { _ = userMessage(for: error) }
            }
        },
        FuzzTarget(name: "depth-png") { data in
            Fixtures.withFile(data, suffix: ".png") { url in
                do { _ = try DepthImageFile(url, encoding: .tum).decode() } catch { _ = userMessage(for: error) }
            }
        },
        FuzzTarget(name: "image") { data in
            Fixtures.withFile(data, suffix: ".jpg") { url in
                do { _ = try ImageFile(url).decode() } catch { _ = userMessage(for: error) }
            }
            _ = PictureSize.declared(in: data)
        },
        FuzzTarget(name: "qr-image") { data in
            Fixtures.withFile(data, suffix: ".png") { url in
                guard let image = try? ImageFile(url).decode(), image.width * image.height <= 4_000_000 else { return }
                _ = QRCodeReader.texts(in: image)
            }
        },
        FuzzTarget(name: "multipart-form") { data in
            // The first line is the Content-Type (its boundary), the rest the body, as
            // `assist serve` receives an upload.
            let split = data.firstIndex(of: 0x0A) ?? data.endIndex
            let contentType = String(decoding: data[data.startIndex..<split], as: UTF8.self)
            let body = split < data.endIndex ? Data(data[(split + 1)...]) : Data()
            if let form = try? MultipartForm(body: body, contentType: contentType) {
                precondition(form.parts.count <= MultipartForm.maximumParts)
                _ = form.field(AccessGuard.formField)
                _ = form.file("picture")
            }
        },
        FuzzTarget(name: "http-request") { data in
            // Raw bytes on a connection to `assist serve`: NIO's HTTP/1 decoder with the header
            // limits the server sets, then what the web app reads from a request's head (the
            // access check, the redirect's path, a form body).
            let channel = EmbeddedChannel()
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = WebApp.maximumHeaderBytes
            limits.maxHeaderListSize = WebApp.maximumHeaderBytes
            limits.maxHeaderFieldCount = 100
            try? channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false,
                                                                            withOutboundHeaderValidation: false, withEncoderConfiguration: .init(),
                                                                            withDecoderLimitConfiguration: limits)
            _ = try? channel.writeInbound(ByteBuffer(bytes: data))
            while let part = try? channel.readInbound(as: HTTPServerRequestPart.self) {
                switch part {
                case .head(let head):
                    let guardian = AccessGuard(accessToken: "access-secret", formToken: "form-secret")
                    let path = String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
                    _ = WebApp.localPath(path)
                    _ = guardian.check(host: head.headers.first(name: "host"), queryToken: nil, cookieHeader: head.headers.first(name: "cookie"),
                                       isChange: head.method == .POST, origin: head.headers.first(name: "origin"))
                    _ = guardian.checkForm(formToken: head.headers.first(name: "x-form-token"))
                    _ = AccessMiddleware.origin(ofReferer: head.headers.first(name: "referer") ?? "")
                case .body(let buffer):
                    _ = FormFields(encoded: String(buffer: buffer))
                case .end:
                    break
                }
            }
            _ = try? channel.finish()
        },
    ]
}

extension Result where Failure == any Error {
    var failureMessage: String? {
        if case .failure(let error) = self { return userMessage(for: error) }
        return nil
    }
}

/// What the targets share, made once per process.
enum Fixtures {
    static let verifier: PrescriptionVerifier = {
        let key = try! AudiologistSigningKey.generate(for: .init(name: "Fuzz Clinic", identifier: "AUD-1"))
        return PrescriptionVerifier(trustedKeys: [key.publicKey], now: Date(timeIntervalSince1970: 1_795_000_000))
    }()
    static let settingsValidator = SettingsValidator(knownCategories: SettingsValidator.cocoCategories)
    static let commandLanguage = try? CommandLanguage(language: "en", categories: SettingsValidator.cocoCategories)
    /// The exact phrase patterns and value readers; the sentence model is left out because one
    /// inference per input would hold the fuzzer to tens of runs a second (its input is text the
    /// patterns have already normalised, so the part that reads outside bytes is fuzzed here).
    static let controlUnderstanding = CommandUnderstanding(language: commandLanguage!, classifier: nil)
    static let controlStorage: CommandController.UserStorage? = {
        let location = StorageLocation(databaseFile: folder.appendingPathComponent("user.sqlite"),
                                       keyFile: folder.appendingPathComponent("storage.key"))
        guard let database = try? UserDatabase.open(location) else { return nil }
        return CommandController.UserStorage(
            settings: SettingsStore(database: database, validator: settingsValidator),
            history: DetectionHistory(database: database), usage: UsageStatistics(database: database))
    }()
    /// One file per process in shared memory: decoders that read files get the bytes as a file.
    static let folder: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("assist-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: "/dev/shm/assist-fuzz-\(getpid())") }
        return url
    }()

    static func withFile(_ data: Data, suffix: String, _ body: (URL) -> Void) {
        let url = folder.appendingPathComponent("input\(suffix)")
        guard (try? data.write(to: url)) != nil else { return }
        body(url)
    }
}
