import AssistCore
import Foundation
import Media
import Perception
import Speech

extension GuidanceSession {
    // MARK: Short-text mode

    /// "Read text": from now on every frame is read quickly, and text is said as soon as it is
    /// steady in view, each text once (the reader, `PictureQuestions`, keeps what was said).
    func startShortText(at time: Double) {
        guard let answering = configuration.pictureQuestions else {
            requestFailure = sentences.questionUnavailable
            say(Utterance(sentences.questionUnavailable, priority: .answer, contentKey: "question:readText@\(time)"), at: time)
            return
        }
        readingShortText = true
        say(Utterance(answering.startShortText(), priority: .answer, contentKey: "short-text:started@\(time)"), at: time)
    }

    /// Ends short-text mode; "stop" (`time` given) says so, a new mode or a page to read does not.
    func endShortText(sayingAt time: Double?) {
        guard readingShortText else { return }
        readingShortText = false
        guard let sentence = configuration.pictureQuestions?.stopShortText(), let time else { return }
        say(Utterance(sentence, priority: .answer, contentKey: "short-text:stopped@\(time)"), at: time)
    }

    /// One frame in short-text mode, read on a thread of its own under the question watchdog; new
    /// steady text is said as an answer, unless "stop" or "exit" came meanwhile. A reader that cannot
    /// read at all (a missing language) is said once, and ends the mode. Returns the processing
    /// seconds (as `cost` maps them), or nil when the reading was abandoned.
    func readShortText(in frame: Frame, cost: (Double) -> Double) async -> Double? {
        guard let answering = configuration.pictureQuestions else {
            readingShortText = false
            return nil
        }
        let silencedBefore = silenceRequests.value
        let workStart = wallClock.seconds
        let outcome = await analysis.readShortText(in: frame, with: answering)
        let processing = cost(wallClock.seconds - workStart)
        // Offline, what was read is heard after its processing, on the input clock.
        let spokenAt = configuration.isOffline ? nowSeconds + processing : nowSeconds
        renderAudio(upTo: spokenAt)
        switch outcome {
        case .abandoned:
            return nil
        case .timedOut:
            readingShortText = false
            say(Utterance(sentences.questionTimedOut, priority: .answer, contentKey: "short-text:timed-out@\(spokenAt)",
                          earcon: .error), at: spokenAt)
        case .finished(.failure(let error)):
            readingShortText = false
            say(Utterance(userMessage(for: error), priority: .answer, contentKey: "short-text:failed@\(spokenAt)",
                          earcon: .error), at: spokenAt)
        case .finished(.success(let text)):
            guard let text, readingShortText, silenceRequests.value == silencedBefore, ending == nil else { break }
            say(Utterance(text, priority: .answer, contentKey: "short-text@\(spokenAt)"), at: spokenAt)
        }
        publishSnapshot()
        return processing
    }
}
