import Foundation
import Synchronization

/// One sentence the session said, with the time it reached the web app (sent to the page, which
/// uses it to measure how long the sentence took to show).
public struct SpokenSentence: Sendable, Equatable {
    public var text: String
    public var publishedAt: Date
}

/// The sentences the session said, handed to every open Live page as they come (server-sent
/// events). Nothing is kept beyond the last few, for a page opened a moment later: what the page
/// shows is not stored.
public final class SpokenSentences: Sendable {
    private struct State {
        var listeners: [Int: AsyncStream<SpokenSentence>.Continuation] = [:]
        var nextID = 0
        var recent: [SpokenSentence] = []
        var finished = false
    }
    private let state = Mutex(State())
    private let now: @Sendable () -> Date
    /// Sentences a newly opened page shows at once.
    public let recentLimit: Int

    public init(recentLimit: Int = 5, now: @escaping @Sendable () -> Date = { Date() }) {
        self.recentLimit = recentLimit
        self.now = now
    }

    /// Hands `text` to every listener now.
    public func publish(_ text: String) {
        let sentence = SpokenSentence(text: text, publishedAt: now())
        let listeners = state.withLock { state -> [AsyncStream<SpokenSentence>.Continuation] in
            state.recent.append(sentence)
            if state.recent.count > recentLimit { state.recent.removeFirst(state.recent.count - recentLimit) }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(sentence) }
    }

    /// The last few sentences, oldest first.
    public var recent: [SpokenSentence] { state.withLock { $0.recent } }

    /// Every sentence published from now on, until `finish()` or the consumer stops.
    public func listen() -> AsyncStream<SpokenSentence> {
        let (stream, continuation) = AsyncStream<SpokenSentence>.makeStream(bufferingPolicy: .bufferingNewest(100))
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
        let listeners = state.withLock { state -> [AsyncStream<SpokenSentence>.Continuation] in
            state.finished = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }
}
