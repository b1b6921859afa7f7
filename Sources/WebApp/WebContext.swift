import Hummingbird
import Logging

/// The request context of the web app. Built from the logger alone, so tests can drive the
/// router in process with no socket and no channel.
public struct WebContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public init(logger: Logger) {
        coreContext = .init(source: LoggerSource(logger: logger))
    }

    struct LoggerSource: RequestContextSource {
        var logger: Logger
    }
}
