import Foundation
import Synchronization

/// The sentences the session said, handed to every open Live page as they come (server-sent
/// events). Nothing is kept beyond the last few, for a page opened a moment later: what the page
/// shows is not stored.
public final class SpokenSentences: Sendable {
    private struct State {
        var listeners: [Int: AsyncStream<String>.Continuation] = [:]
        var nextID = 0
        var recent: [String] = []
        var finished = false
    }
    private let state = Mutex(State())
    /// Sentences a newly opened page shows at once.
    public let recentLimit: Int

    public init(recentLimit: Int = 5) {
        self.recentLimit = recentLimit
    }

    /// Hands `sentence` to every listener now.
    public func publish(_ sentence: String) {
        let listeners = state.withLock { state -> [AsyncStream<String>.Continuation] in
            state.recent.append(sentence)
            if state.recent.count > recentLimit { state.recent.removeFirst(state.recent.count - recentLimit) }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(sentence) }
    }

    /// The last few sentences, oldest first.
    public var recent: [String] { state.withLock { $0.recent } }

    /// Every sentence published from now on, until `finish()` or the consumer stops.
    public func listen() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(100))
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            defer { state.nextID += 1 }
            state.listeners[state.nextID] = continuation
            return state.nextID
        }
        guard let id else { continuation.finish(); return stream }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every listener (the server is stopping, so open pages let go at once).
    public func finish() {
        let listeners = state.withLock { state -> [AsyncStream<String>.Continuation] in
            state.finished = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }
}
