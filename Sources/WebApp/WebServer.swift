import AssistCore
import Commands
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import SessionControl
import Storage

/// `assist serve`: the web app on 127.0.0.1, its pages over the same settings, history, help and
/// session commands as the command line. Built from values (storage, language, how to reach the
/// session) so tests drive its router in process.
public struct WebApp: Sendable {
    public static let defaultPort = 8470

    public let access: AccessGuard
    let settings: SettingsPage
    let history: HistoryPage
    let help: HelpPage
    let live: LivePage
    let sendToSession: SessionCommandSender
    let view: LiveViewPanel
    public let sentences: SpokenSentences
    /// The hearing assistant's pages: patient home, prescriptions, debug, audiologist.
    public let hearing: HearingPages

    public init(access: AccessGuard = AccessGuard(), store: SettingsStore, history: DetectionHistory, language: CommandLanguage,
                sentences: SpokenSentences = SpokenSentences(), sessionRunning: @escaping @Sendable () -> Bool,
                sendToSession: @escaping SessionCommandSender, viewOfSession: @escaping SessionViewSource = { nil },
                hearing: HearingPages = HearingPages(soundFile: nil)) {
        self.hearing = hearing
        self.access = access
        self.settings = SettingsPage(store: store)
        self.history = HistoryPage(history: history)
        self.help = HelpPage(language: language)
        self.live = LivePage(language: language, sentences: sentences, sessionRunning: sessionRunning)
        self.sendToSession = sendToSession
        self.view = LiveViewPanel(source: viewOfSession)
        self.sentences = sentences
    }

    /// Every route, behind the access check.
    public func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: AccessMiddleware(access: access))
        router.get("/") { _, _ in Self.redirect(to: WebPage.live.path) }
        router.get("/settings") { _, _ in html(settings.render(formToken: access.formToken)) }
        router.post("/settings") { request, _ in
            let form = try await Self.form(request)
            let outcome = settings.change(key: form["key"] ?? "", text: form["value"] ?? "")
            return html(settings.render(formToken: access.formToken, outcome: outcome), status: outcome.accepted ? .ok : .unprocessableContent)
        }
        router.post("/settings/reset") { request, _ in
            let form = try await Self.form(request)
            let outcome = settings.reset(key: form["key"] ?? "")
            return html(settings.render(formToken: access.formToken, outcome: outcome), status: outcome.accepted ? .ok : .unprocessableContent)
        }
        router.get("/history") { request, _ in
            html(history.render(label: request.uri.queryParameters["label"].map(String.init)))
        }
        router.get("/help") { _, _ in html(help.render(formToken: access.formToken)) }
        router.get("/live") { _, _ in html(live.render(formToken: access.formToken)) }
        router.post("/live/command") { request, _ in
            let form = try await Self.form(request)
            let wantsJSON = request.headers[.accept]?.contains("application/json") ?? false
            guard let line = LivePage.line(from: form) else {
                let sentence = "Choose a command, or type what to find."
                return wantsJSON ? json(ControlReply(understood: false, intent: nil, reply: sentence), status: .unprocessableContent)
                    : html(live.render(formToken: access.formToken, message: PageMessage(text: sentence, isWarning: true)), status: .unprocessableContent)
            }
            let reply: ControlReply
            do { reply = try await sendToSession(line) } catch {
                reply = ControlReply(understood: false, intent: nil, reply: userMessage(for: error))
            }
            sentences.publish(reply.reply)
            if wantsJSON { return json(reply) }
            return html(live.render(formToken: access.formToken, message: PageMessage(text: reply.reply, isWarning: !reply.understood)))
        }
        // The camera view: what the session analysed last, and its picture. Never cached: a
        // frame goes to the browser and is gone.
        router.get("/live/view") { _, _ in
            let reply = await view.latest()
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "no-store"
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(reply)) ?? Data("{}".utf8)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("/live/frame/:picture") { _, context in
            let name = context.parameters.get("picture") ?? ""
            guard name.hasSuffix(".jpg"), let number = Int(name.dropLast(4)), let bytes = view.picture(sequenceNumber: number) else {
                var gone = plain("That frame is no longer held; the view shows a newer one.", status: .notFound)
                gone.headers[.cacheControl] = "no-store"
                return gone
            }
            var headers = HTTPFields()
            headers[.contentType] = "image/jpeg"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("/live/events") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[.cacheControl] = "no-store"
            let stream = sentences.listen()
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                // A comment first, so the browser knows at once that the stream is open.
                try await writer.write(ByteBuffer(string: ": open\n\n"))
                // Ends when the server stops: an open page must not hold up Ctrl-C.
                for await sentence in stream.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: Self.event(sentence)))
                }
                try await writer.finish(nil)
            })
        }
        hearing.addRoutes(to: router, formToken: access.formToken)
        router.get("/assets/:name") { _, context in
            guard let name = context.parameters.get("name"), let asset = WebAssets.asset(named: name) else {
                return plain("There is no such file.", status: .notFound)
            }
            var headers = HTTPFields()
            headers[.contentType] = asset.contentType
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: asset.text)))
        }
        return router
    }

    /// One server-sent event: its id is when the sentence reached the web app, in milliseconds
    /// since 1970 (the page measures the delay to showing it); a line break becomes data lines.
    static func event(_ sentence: SpokenSentence) -> String {
        "id: \(Int64((sentence.publishedAt.timeIntervalSince1970 * 1000).rounded()))\n"
            + sentence.text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { (line: Substring) -> String in "data: \(line)\n" }.joined(separator: "") + "\n"
    }

    static func form(_ request: Request) async throws -> FormFields {
        var request = request
        let body = try await request.collectBody(upTo: 64 * 1024)
        return FormFields(encoded: String(buffer: body))
    }

    /// `path` when it is a path on this server, "/" otherwise: "//evil.example/x" and
    /// "/\\evil.example" are addresses on another host to a browser, and a scheme ("http:") or a
    /// control character has no place in a local path.
    static func localPath(_ path: String) -> String {
        guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"),
              !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
              !(path.split(separator: "/").first?.contains(":") ?? false) else { return "/" }
        return path
    }

    static func redirect(to path: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = path
        return Response(status: .seeOther, headers: headers)
    }

    /// How long a connection may stay open without a byte of a request arriving: a browser's
    /// kept-alive connection is reopened at no cost, and a client that connects and says nothing
    /// (or sends its headers a byte at a time) holds no place for longer (issue 39: 300 silent
    /// connections were all open 20 s later).
    public static let defaultIdleTimeoutSeconds = 10
    /// The most connections open at once; further ones wait in the listen queue until one closes.
    /// A browser opens at most six to a server (the live page holds one for its events), so the
    /// cap never touches a user; it keeps a flood of connections from using up the process's
    /// file descriptors (1024 by default), and the idle timeout empties it. While more than this
    /// many silent connections are open, a page waits for the timeout (BENCHMARKS.md, issue 39).
    public static let maximumConnections = 256
    /// The largest request head: the address and headers of a page request are well under 4 kB.
    public static let maximumHeaderBytes = 16 * 1024

    /// Runs the server on 127.0.0.1:`port` (0: a free port) until SIGINT or SIGTERM; calls
    /// `started` with the port once it listens. Ctrl-C (SIGINT) lets requests being answered
    /// finish, for at most `gracefulStopSeconds`; SIGTERM ends every request at once. A connection
    /// silent for `idleTimeoutSeconds` is closed.
    ///
    /// `beside`: services that run in the same group (the live session of `assist serve --input`),
    /// stopped before the server when it stops; one that ends on its own leaves the server running.
    public func run(port: Int, idleTimeoutSeconds: Int = WebApp.defaultIdleTimeoutSeconds, beside: [any Service] = [],
                    started: @escaping @Sendable (Int) -> Void) async throws {
        var logger = Logger(label: "assist serve")
        logger.logLevel = .error
        let sentences = self.sentences
        let app = Application(
            router: router(),
            server: .http1(configuration: Self.connectionLimits(idleTimeoutSeconds: idleTimeoutSeconds)),
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil,
                                 availableConnectionsDelegate: MaximumAvailableConnections(Self.maximumConnections)),
            onServerRunning: { channel in started(channel.localAddress?.port ?? port) },
            logger: logger)
        guard (0...65535).contains(port) else { throw WebAppError.invalidPort(port) }
        defer { sentences.finish(); hearing.finish() }
        // Shut down in reverse order: what runs beside the server ends first, while the pages still answer.
        let services = [.init(service: app)] + beside.map { .init(service: $0, successTerminationBehavior: .ignore) }
            as [ServiceGroupConfiguration.ServiceConfiguration]
        var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigint],
                                              cancellationSignals: [.sigterm], logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(Self.gracefulStopSeconds)
        do { try await ServiceGroup(configuration: group).run() } catch let error as IOError {
            throw WebAppError.binding(error, port: port)
        }
    }

    /// How long Ctrl-C waits for requests being answered before ending them.
    public static let gracefulStopSeconds: Int64 = 2

    /// Hummingbird's own limits on a connection: the idle timeout and the size of a request head
    /// (a head over them is answered 400 and the connection closed).
    static func connectionLimits(idleTimeoutSeconds: Int) -> HTTP1Channel.Configuration {
        HTTP1Channel.Configuration(additionalChannelHandlers: [SecurityHeadersHandler()],
                                   idleTimeout: .seconds(Int64(idleTimeoutSeconds)),
                                   httpDecoderConfiguration: .init(maxHeaderFieldSize: maximumHeaderBytes,
                                                                   maxHeaderListSize: maximumHeaderBytes, maxHeaderFieldCount: 100))
    }
}

func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "text/html; charset=utf-8"
    headers[.cacheControl] = "no-store"
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
}

func plain(_ text: String, status: HTTPResponse.Status) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "text/plain; charset=utf-8"
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
}

func json(_ reply: ControlReply, status: HTTPResponse.Status = .ok) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    let data = (try? JSONEncoder().encode(reply)) ?? Data("{}".utf8)
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}

/// Refuses every request that fails `AccessGuard.check`, with its sentence; sets the cookie and
/// drops the token from the address when it came there; adds the headers that keep the pages
/// local (no outside resource, no framing, no referrer) to every answer, a refusal or a missing
/// page included.
///
/// What the headers say (host, token, origin) is checked before any of the body is read, so a
/// request without the token costs the server its headers only, whatever it sends after them
/// (issue 39: a multipart body was parsed before the token was looked at). A body is then read
/// only up to the size its kind of form can have.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let access: AccessGuard

    /// The largest form body (settings, commands, the passphrase): a few fields of text.
    static let maximumFormBytes = 64 * 1024

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await answer(request, context: context, next: next)
        } catch let error as any HTTPResponseError {
            response = error.status == .notFound ? plain("There is no page at this address.", status: .notFound)
                : try error.response(from: request, context: context)
        } catch {
            response = plain(userMessage(for: error), status: .internalServerError)
        }
        SecurityHeaders.add(to: &response.headers)
        return response
    }

    private func answer(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var request = request
        let isChange = request.method == .post
        let origin = request.headers[.origin] ?? request.headers[.referer].flatMap(Self.origin(ofReferer:))
        let queryToken = request.uri.queryParameters["token"].map(String.init)
        switch access.check(host: request.head.authority, queryToken: queryToken, cookieHeader: request.headers[.cookie],
                            isChange: isChange, origin: origin) {
        case .failure(let refusal):
            Self.leaveBodyUnread(request, context: context)
            return plain(refusal.sentence, status: .init(code: refusal.statusCode))
        case .success(.allowed(let setCookie)):
            if isChange {
                // Read the form here, then hand the handler a body it can read again. An upload (a
                // QR code's picture) may be larger, and carries its form token as one of its parts.
                let contentType = request.headers[.contentType]
                let isUpload = MultipartForm.isMultipart(contentType: contentType)
                let limit = isUpload ? MultipartForm.maximumBytes : Self.maximumFormBytes
                let tooLarge = isUpload ? HearingPages.uploadTooLargeSentence : "The form is larger than this server accepts."
                // A declared length over the limit is refused before its first byte.
                if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
                    Self.leaveBodyUnread(request, context: context)
                    return plain(tooLarge, status: .contentTooLarge)
                }
                let body: ByteBuffer
                do { body = try await request.collectBody(upTo: limit) } catch {
                    Self.leaveBodyUnread(request, context: context)
                    return plain(tooLarge, status: .contentTooLarge)
                }
                let formToken: String?
                if isUpload {
                    do throws(MultipartForm.Failure) {
                        formToken = try MultipartForm(body: Data(body.readableBytesView), contentType: contentType).field(AccessGuard.formField)
                    } catch .tooManyParts {
                        return plain(MultipartForm.Failure.tooManyParts.sentence, status: .contentTooLarge)
                    } catch { formToken = nil }
                } else {
                    formToken = FormFields(encoded: String(buffer: body))[AccessGuard.formField]
                }
                if let refusal = access.checkForm(formToken: formToken) {
                    return plain(refusal.sentence, status: .init(code: refusal.statusCode))
                }
                request.body = RequestBody(buffer: body)
                return try await next(request, context)
            }
            if setCookie {
                // The token leaves the address bar (and the history) once the cookie holds it.
                var response = WebApp.redirect(to: WebApp.localPath(request.uri.path))
                response.headers[.setCookie] = access.cookie
                return response
            }
            return try await next(request, context)
        }
    }

    /// A request answered without its body: the rest of it is not read (Hummingbird would
    /// otherwise read and drop it to reach the next request on the connection). The connection
    /// closes once the answer is sent.
    static func leaveBodyUnread(_ request: Request, context: WebContext) {
        let declared = request.headers[.contentLength].flatMap { Int($0) } ?? 0
        guard declared > 0 || request.headers[.transferEncoding] != nil else { return }
        context.channel?.close(mode: .input, promise: nil)
    }

    /// "http://127.0.0.1:8470/settings" → "http://127.0.0.1:8470".
    static func origin(ofReferer referer: String) -> String? {
        guard let url = URL(string: referer), let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
    }
}
