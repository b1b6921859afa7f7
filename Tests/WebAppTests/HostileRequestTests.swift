import Foundation
import Hummingbird
import Testing
@testable import WebApp

/// Requests an attacker (or a page on another site) sends: each is answered on what its headers
/// say, with the same security headers as a page, and without reading more than it must.
@Suite("Hostile requests to the web app")
struct HostileRequestTests {
    static let boundary = "----assistboundary39"

    /// 20,000 one-byte fields: the body that took the server 5–6 s to parse (issue 39).
    static func manyParts(_ count: Int, formToken: String? = "form-secret") -> Data {
        multipartBody(boundary: boundary, fields: (formToken.map { [("form_token", $0)] } ?? []) + (0..<count).map { ("f\($0)", "x") })
    }

    @Test("a change without the access token is refused before a byte of its body is read, a large upload too")
    func refusedBeforeBody() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        for (cookie, status) in [(nil, HTTPResponse.Status.unauthorized), ("assist_access=guess", .unauthorized)] {
            let body = WatchedBody(Self.manyParts(20_000, formToken: nil))
            let reply = try await web.request(.post, "/hearing/prescriptions/import", cookie: cookie, streamed: body,
                                              extraHeaders: [.contentType: "multipart/form-data; boundary=\(Self.boundary)"])
            #expect(reply.status == status)
            #expect(!body.reads.any, "the body was read before the token was checked")
        }
        // From another host or another site: refused on the headers as well.
        let foreign = WatchedBody(Data(repeating: 0x61, count: 100_000))
        let fromElsewhere = try await web.request(.post, "/settings", origin: "http://evil.example", streamed: foreign,
                                                  extraHeaders: [.contentType: "application/x-www-form-urlencoded"])
        #expect(fromElsewhere.status == .forbidden)
        #expect(!foreign.reads.any)
    }

    @Test("a body that declares more bytes than its form can have is refused before it is read, with the page's headers")
    func declaredTooLarge() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let body = WatchedBody(Data(repeating: 0x61, count: 1000))
        let reply = try await web.request(.post, "/settings", streamed: body,
                                          extraHeaders: [.contentType: "application/x-www-form-urlencoded", .contentLength: "\(100 * 1024 * 1024)"])
        #expect(reply.status == .contentTooLarge)
        #expect(reply.body == "The form is larger than this server accepts.\n")
        #expect(!body.reads.any)
        #expect(reply.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
        #expect(reply.headers[.init("X-Content-Type-Options")!] == "nosniff")
    }

    @Test("an upload of 20,000 parts is refused as more parts than any form has, with the token or without")
    func tooManyParts() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let reply = try await web.request(.post, "/hearing/prescriptions/import",
                                          upload: ("multipart/form-data; boundary=\(Self.boundary)", Self.manyParts(20_000)))
        #expect(reply.status == .contentTooLarge)
        #expect(reply.body == "The upload has more than 16 parts, more than any form of this server sends.\n")
        #expect(reply.headers[.contentSecurityPolicy] != nil)
        // A form of the page's own size is still read: the form token among its parts is found.
        let few = try await web.request(.post, "/hearing/prescriptions/import",
                                        upload: ("multipart/form-data; boundary=\(Self.boundary)", Self.manyParts(3)))
        #expect(few.status == .unprocessableContent)
        #expect(few.body.contains("Open your prescriptions with the passphrase first."))
    }

    @Test("a Host with a loopback name followed by anything but a port is another host")
    func hostWithUserInfo() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        for host in ["localhost:8470@evil.example", "127.0.0.1:8470@evil.example", "localhost.evil.example", "localhost:", "localhost:80a",
                     "127.0.0.1.evil.example:8470", "[::1]@evil.example"] {
            let reply = try await web.request(.get, "/settings", host: host)
            #expect(reply.status == .forbidden, "\(host)")
        }
        for host in ["localhost:8470", "127.0.0.1:8470", "[::1]:8470", "LOCALHOST:8470", "127.0.0.1"] {
            #expect(try await web.request(.get, "/settings", host: host).status == .ok, "\(host)")
        }
    }

    @Test("the token in an address leads back only to a path on this server, never to another host")
    func noOpenRedirect() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        for path in ["//evil.example/x?token=access-secret", "/\\evil.example?token=access-secret", "/%5Cevil.example?token=access-secret",
                     "/\\/evil.example/?token=access-secret", "/http:evil.example?token=access-secret"] {
            let reply = try await web.request(.get, path, cookie: nil)
            #expect(reply.status == .seeOther, "\(path)")
            let location = reply.headers[.location] ?? ""
            #expect(location == "/" || (location.hasPrefix("/") && !location.hasPrefix("//") && !location.contains("\\") && !location.contains(":")),
                    "\(path) → \(location)")
        }
        #expect(try await web.request(.get, "/history?token=access-secret", cookie: nil).headers[.location] == "/history")
    }

    @Test("a missing page and a refusal carry the security headers a page carries, and a sentence")
    func headersOnEveryAnswer() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let missing = try await web.request(.get, "/no-such-page")
        #expect(missing.status == .notFound)
        #expect(missing.body == "There is no page at this address.\n")
        let refused = try await web.request(.get, "/settings", cookie: nil)
        let tooLarge = try await web.request(.post, "/settings", form: ["value": String(repeating: "x", count: 100_000), "form_token": "form-secret"])
        #expect(tooLarge.status == .contentTooLarge)
        for reply in [missing, refused, tooLarge] {
            #expect(reply.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true, "\(reply.status)")
            #expect(reply.headers[.init("X-Content-Type-Options")!] == "nosniff", "\(reply.status)")
            #expect(reply.headers[.init("Referrer-Policy")!] == "same-origin", "\(reply.status)")
        }
    }
}
