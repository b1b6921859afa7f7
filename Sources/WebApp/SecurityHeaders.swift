import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// The headers every answer of `assist serve` carries, defined once: the router's middleware puts
/// them on every page, refusal and 404, and `SecurityHeadersHandler` on what the router never
/// sees (Hummingbird's own 400 for an unparsable or oversized request head).
enum SecurityHeaders {
    static let fields: HTTPFields = {
        var fields = HTTPFields()
        fields[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        fields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        // Not no-referrer: with it Chromium sends "Origin: null" on the pages' own forms, which
        // the cross-site check must refuse. same-origin tells other sites nothing either.
        fields[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return fields
    }()

    /// `fields` set on `headers`, replacing what was there under the same names.
    static func add(to headers: inout HTTPFields) {
        for field in fields { headers[field.name] = field.value }
    }
}

/// On each connection, below the router: adds the security headers to every response head that
/// lacks them, so Hummingbird's own 400 (written by its channel handler, not the router) carries
/// them too (issue 39).
final class SecurityHeadersHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.headerFields[.contentSecurityPolicy] == nil else {
            context.write(data, promise: promise)
            return
        }
        SecurityHeaders.add(to: &head.headerFields)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}
