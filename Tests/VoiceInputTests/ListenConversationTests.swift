import Commands
import Testing
@testable import VoiceInput

/// What the listener would hand over for `text`, heard ending at `seconds` of the audio's clock.
private func heard(_ text: String, at seconds: Double, meaning: CommandDecision?) -> ListenerEvent<CommandDecision> {
    .heard(HeardCommand(text: text, transcripts: HeardTranscripts(text, confidence: 1), meaning: meaning,
                        confidence: 0.9, signalToNoiseDecibels: 30, latencyMilliseconds: 250, endOfSpeechSeconds: seconds))
}

@Suite("assist listen: a command asked about is shown carried out only after yes, on the audio's clock")
struct ListenConversationTests {
    let language = try! CommandLanguage(language: "en", categories: cocoNames)
    let pending = Command(.stopTalking)
    var question: CommandDecision { .confirm(question: "Stop talking? Say yes or no.", pending: pending) }
    /// What the understanding makes of a lone "yes" or "no": no command.
    var noCommand: CommandDecision { .refuse("Sorry, I didn't understand. Say help to hear what I can do.") }

    @Test("yes within the question's time: carried out")
    func yes() {
        var conversation = ListenConversation(language: language)
        #expect(conversation.output(for: heard("stop talking", at: 1, meaning: question)).event == "asked")
        let answer = conversation.output(for: heard("yes", at: 4, meaning: noCommand))
        #expect(answer.event == "confirmed")
        #expect(answer.intent == "stopTalking")
        #expect(answer.reply == language.confirmation(for: pending))
        #expect(answer.line(json: false).contains("(confirmed)"))
        // The question is answered: another yes is no answer to anything.
        #expect(conversation.output(for: heard("yes", at: 5, meaning: noCommand)).event == "cancelled")
    }

    @Test("no, or a yes after the time is up on the recording's clock: nothing done")
    func noOrLate() {
        var conversation = ListenConversation(language: language)
        _ = conversation.output(for: heard("stop talking", at: 1, meaning: question))
        let no = conversation.output(for: heard("no", at: 2, meaning: noCommand))
        #expect(no.event == "cancelled" && no.command == nil && no.reply == language.cancelledSentence)

        _ = conversation.output(for: heard("stop talking", at: 10, meaning: question))
        let late = conversation.output(for: heard("yes", at: 10 + 10.5, meaning: noCommand))
        #expect(late.event == "cancelled" && late.command == nil)
    }

    @Test("another command instead of an answer drops the question and is shown as itself")
    func otherCommand() {
        var conversation = ListenConversation(language: language)
        _ = conversation.output(for: heard("stop talking", at: 1, meaning: question))
        let other = conversation.output(for: heard("scan now", at: 2, meaning: .act(Command(.scanNow))))
        #expect(other.event == "heard" && other.intent == "scanNow")
        #expect(conversation.output(for: heard("yes", at: 3, meaning: noCommand)).event == "cancelled")
    }
}
