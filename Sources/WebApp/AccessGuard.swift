import Foundation

/// Who may use the web app: a request from this machine's browser that carries the random access
/// token `assist serve` printed, and, for a change, the form token of a page this server gave out.
///
/// The server listens on loopback only, but any web page the user opens can make their browser send
/// requests to 127.0.0.1, and a rebinding DNS name can even read the answers. So every request must
/// name a loopback host (the rebinding check), carry the access token (in the address once, then in
/// a SameSite=Strict cookie that other sites' requests never carry), and every POST must come with
/// the form token and, when the browser says where it comes from, from this very address.
public struct AccessGuard: Sendable {
    /// The secret printed in the address; 32 random bytes as hex.
    public let accessToken: String
    /// Put in every form and checked on every POST; a second secret so a leaked page reveals no
    /// access token.
    public let formToken: String

    public static let cookieName = "assist_access"
    public static let formField = "form_token"
    /// Hosts a browser on this machine uses to reach a loopback server.
    static let loopbackHosts: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    public init(accessToken: String = AccessGuard.randomToken(), formToken: String = AccessGuard.randomToken()) {
        self.accessToken = accessToken
        self.formToken = formToken
    }

    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ -> String in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined(separator: "")
    }

    /// Why a request is refused, as the one sentence the browser shows.
    public enum Refusal: Error, Equatable, Sendable {
        case notLoopbackHost(String)
        case missingToken
        case wrongToken
        case crossSite(origin: String)
        case missingFormToken

        public var statusCode: Int {
            switch self {
            case .missingToken, .wrongToken: return 401
            case .notLoopbackHost, .crossSite, .missingFormToken: return 403
            }
        }

        public var sentence: String {
            switch self {
            case .notLoopbackHost(let host):
                return "This server answers only addresses on this computer (127.0.0.1 or localhost), not \(host)."
            case .missingToken:
                return "This page needs the access token: open the address that assist serve printed, which ends with ?token= and the token."
            case .wrongToken:
                return "The access token is wrong or from an earlier run: open the address that assist serve printed this time."
            case .crossSite(let origin):
                return "The change was refused because it came from another site (\(origin)), not from a page of this server."
            case .missingFormToken:
                return "The change was refused because the form did not come from a page of this server; reload the page and try again."
            }
        }
    }

    /// What a request that passes may do: read only, or also change.
    public enum Grant: Equatable, Sendable {
        /// Allowed; when the token came in the address, the cookie to set so the next pages need not carry it.
        case allowed(setCookie: Bool)
    }

    /// Checks what the request's headers say: the host, the token (address or cookie) and, for a
    /// change, where it comes from. Everything here is known before the body arrives, so a request
    /// that fails is refused without reading a byte of its body; the form token, which comes in
    /// the body, is checked afterwards by `checkForm`.
    /// - Parameters:
    ///   - host: the Host header (or :authority), with its port.
    ///   - queryToken: `token` from the address, if any.
    ///   - cookieHeader: the Cookie header, if any.
    ///   - isChange: whether the request changes something (POST).
    ///   - origin: the Origin header, or failing that the Referer's scheme, host and port.
    public func check(host: String?, queryToken: String?, cookieHeader: String?, isChange: Bool,
                      origin: String?) -> Result<Grant, Refusal> {
        let host = host ?? ""
        guard Self.isLoopback(host: host) else { return .failure(.notLoopbackHost(host.isEmpty ? "an unnamed host" : host)) }
        var fromAddress = false
        if let queryToken {
            guard Self.same(queryToken, accessToken) else { return .failure(.wrongToken) }
            fromAddress = true
        } else {
            guard let cookie = Self.cookie(Self.cookieName, in: cookieHeader) else { return .failure(.missingToken) }
            guard Self.same(cookie, accessToken) else { return .failure(.wrongToken) }
        }
        if isChange, let origin, origin != "http://" + host { return .failure(.crossSite(origin: origin)) }
        return .success(.allowed(setCookie: fromAddress))
    }

    /// A change's form token (its `form_token` field), once the body that carries it was read;
    /// nil when it is this server's.
    public func checkForm(formToken: String?) -> Refusal? {
        guard let formToken, Self.same(formToken, self.formToken) else { return .missingFormToken }
        return nil
    }

    /// The Set-Cookie value that keeps the token for this browser session.
    public var cookie: String {
        "\(Self.cookieName)=\(accessToken); Path=/; HttpOnly; SameSite=Strict"
    }

    /// Whether a Host header names this computer: a loopback name, then at most a port of digits.
    /// Anything else after the name ("localhost:8470@evil.example", "localhost.evil.example") is
    /// another host, whatever a lenient parser would make of it.
    static func isLoopback(host: String) -> Bool {
        let text = host.lowercased()
        guard let name = loopbackHosts.first(where: { text.hasPrefix($0) }) else { return false }
        let rest = text.dropFirst(name.count)
        if rest.isEmpty { return true }
        guard rest.first == ":" else { return false }
        let port = rest.dropFirst()
        return (1...5).contains(port.count) && port.allSatisfy { $0.isASCII && $0.isNumber }
    }

    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == name { return pair[1] }
        }
        return nil
    }

    /// Compares in time that does not depend on where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}
