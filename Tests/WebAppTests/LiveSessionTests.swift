import Foundation
import TestSupport
import Testing
@testable import WebApp

@Suite("What the session says reaches the Live page")
struct LiveSessionTests {
    @Test("a session's printed sentences are published in order, other lines are not, and its end is said")
    func childProcess() async throws {
        let folder = try TemporaryFolder.make("assistivekit-web-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Stands in for `assist see INPUT`: prints as the session does, then ends.
        let script = folder.appendingPathComponent("session")
        try """
        #!/bin/sh
        [ "$1" = see ] || exit 2
        echo "[0.5 s] Assistive Vision activated."
        echo "Scanning."
        echo "[2.0 s] A chair, 2 meters, ahead, seen in $2."
        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let sentences = SpokenSentences()
        let listening = sentences.listen()
        let session = try LiveSessionProcess(executable: script, input: "kitchen.mp4", sentences: sentences)
        var heard: [String] = []
        for await sentence in listening {
            heard.append(sentence.text)
            if sentence.text == "The live session has ended." { break }
        }
        session.stop()
        #expect(heard == ["Assistive Vision activated.", "A chair, 2 meters, ahead, seen in kitchen.mp4.", "The live session has ended."])
    }

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
