import Hummingbird
import Logging
import NIOCore

/// The request context of the web app. Built from the logger alone, so tests can drive the
/// router in process with no socket and no channel.
public struct WebContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection, when the request came over one: a request refused before its body is read
    /// closes the connection's input, so the rest of that body is never read.
    let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    public init(logger: Logger) {
        coreContext = .init(source: LoggerSource(logger: logger))
        channel = nil
    }

    struct LoggerSource: RequestContextSource {
        var logger: Logger
    }
}
