import Commands
import LiveGuidance
import SessionControl
import Testing

/// The five questions about the picture reach the session as questions, from the same words typed,
/// spoken, sent over the socket or given with --at (all through the one command controller).
@Suite("Questions about the picture are session commands")
struct PictureQuestionCommandTests {
    @Test("read the text, read the page, what colour is this, is the light on, how many faces: each is asked of the newest frame")
    func questionsReachTheSession() throws {
        let english = try CommandLanguage(categories: ["person", "chair"])
        let expected: [(String, PictureQuestion)] = [
            ("read the text", .readText), ("read the page", .readPage), ("what colour is this", .colour),
            ("is the light on", .light), ("how many faces", .countFaces),
        ]
        for (line, question) in expected {
            let command = try #require(english.interpret(line).command, "not understood: \(line)")
            #expect(CommandController.sessionRequest(for: command) == .ask(question), "\(line)")
            #expect(!english.confirmation(for: command).contains("not available"), "\(line)")
        }
        // Help lists them (from the intents' own examples), in every mode.
        let help = english.help(mode: "continuous")
        for line in ["read the text", "read the page", "what colour is this", "is the light on", "how many faces"] {
            #expect(help.contains(line), "help lacks \(line)")
        }
    }
}
