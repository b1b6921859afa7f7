import Foundation
import TestSupport
import Testing
@testable import WebApp

@Suite("What the session says reaches the Live page")
struct LiveSessionTests {
    @Test("a page opened later sees the last few sentences; a stopping server ends every stream")
    func recentAndFinish() async {
        let sentences = SpokenSentences(recentLimit: 2, now: { Date(timeIntervalSince1970: 100) })
        let listening = sentences.listen()
        for text in ["one", "two", "three"] { sentences.publish(text) }
        #expect(sentences.recent.map(\.text) == ["two", "three"])
        #expect(sentences.recent.allSatisfy { $0.publishedAt == Date(timeIntervalSince1970: 100) })
        sentences.finish()
        var received: [String] = []
        for await sentence in listening { received.append(sentence.text) }
        #expect(received == ["one", "two", "three"])
        // After the end, a new listener ends at once.
        var late = 0
        for await _ in sentences.listen() { late += 1 }
        #expect(late == 0)
    }
}
