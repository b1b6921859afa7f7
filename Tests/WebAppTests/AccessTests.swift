import Foundation
import Hummingbird
import Storage
import Testing
@testable import WebApp

@Suite("Who may open the web app")
struct AccessTests {
    @Test("a page without the token is refused with a sentence that says where the token is")
    func noToken() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        for path in ["/", "/settings", "/history", "/help", "/live", "/assets/app.css", "/live/events"] {
            let reply = try await web.request(.get, path, cookie: nil)
            #expect(reply.status == .unauthorized, "\(path)")
            #expect(reply.body == AccessGuard.Refusal.missingToken.sentence + "\n")
        }
    }

    @Test("a wrong token is refused, in the address or in the cookie")
    func wrongToken() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        #expect(try await web.request(.get, "/settings?token=guess", cookie: nil).status == .unauthorized)
        #expect(try await web.request(.get, "/settings", cookie: "assist_access=access-secreT").status == .unauthorized)
        #expect(try await web.request(.get, "/settings", cookie: "other=access-secret").status == .unauthorized)
    }

    @Test("the token in the address sets a SameSite=Strict cookie and leaves the address")
    func tokenInAddress() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let first = try await web.request(.get, "/settings?token=access-secret", cookie: nil)
        #expect(first.status == .seeOther)
        #expect(first.headers[.location] == "/settings")
        #expect(first.headers[.setCookie] == "assist_access=access-secret; Path=/; HttpOnly; SameSite=Strict")
        let page = try await web.request(.get, "/settings")
        #expect(page.status == .ok)
        #expect(page.body.contains("<h1>Settings</h1>"))
    }

    @Test("a request naming a host other than this computer is refused (DNS rebinding)")
    func foreignHost() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let reply = try await web.request(.get, "/settings", host: "evil.example:8470")
        #expect(reply.status == .forbidden)
        #expect(reply.body.contains("evil.example"))
        #expect(try await web.request(.get, "/settings", host: "localhost:8470").status == .ok)
    }

    @Test("every page forbids outside resources and framing")
    func securityHeaders() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let policy = try await web.request(.get, "/help").headers[.contentSecurityPolicy] ?? ""
        #expect(policy.contains("default-src 'self'"))
        #expect(policy.contains("frame-ancestors 'none'"))
    }

    @Test("a change from another site, or without the page's form token, is refused and stores nothing")
    func crossSiteChange() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let crossSite = try await web.request(.post, "/settings", form: ["key": "speech.pitch", "value": "70", "form_token": "form-secret"],
                                              origin: "http://evil.example")
        #expect(crossSite.status == .forbidden)
        #expect(crossSite.body == AccessGuard.Refusal.crossSite(origin: "http://evil.example").sentence + "\n")
        let noFormToken = try await web.request(.post, "/settings", form: ["key": "speech.pitch", "value": "70"])
        #expect(noFormToken.status == .forbidden)
        #expect(noFormToken.body == AccessGuard.Refusal.missingFormToken.sentence + "\n")
        let wrongFormToken = try await web.request(.post, "/settings", form: ["key": "speech.pitch", "value": "70", "form_token": "access-secret"])
        #expect(wrongFormToken.status == .forbidden)
        let noCookie = try await web.request(.post, "/settings", cookie: nil, form: ["key": "speech.pitch", "value": "70", "form_token": "form-secret"])
        #expect(noCookie.status == .unauthorized)
        #expect(try web.store.current().speech.pitch == Storage.Settings.defaults.speech.pitch)
    }

    @Test("tokens are 64 hex digits and differ every run")
    func randomTokens() {
        let first = AccessGuard(), second = AccessGuard()
        #expect(first.accessToken.count == 64 && first.accessToken.allSatisfy(\.isHexDigit))
        #expect(first.accessToken != second.accessToken)
        #expect(first.accessToken != first.formToken)
    }
}
