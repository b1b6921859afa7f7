import Foundation
@testable import Guidance
@testable import LiveGuidance
import Perception
import Speech
import TestSupport
import Testing

/// One session from start to exit, in process, on the input clock (issue 14's acceptance: a whole
/// session with commands, a settings change, a hazard and stop runs in process on a test clock):
/// twelve seconds of input take a fraction of a second, and nothing depends on how busy the machine is.
@Suite("A whole guidance session on the input clock")
struct WholeSessionTests {
    private let sentences = try! SessionSentences.bundled()
    /// 60 words: 6 s with the test voice (0.1 s a word), twice the limit of one utterance.
    private let longAnswer = (1...10).map { "Say command \($0) for thing \($0)." }.joined(separator: " ")

    /// A person ahead all along; from 6 s a car coming closer on the left (8 m to 2 m); from 8.5 s
    /// a bicycle on the right.
    private func street(_ seconds: Double) -> [LocatedObject] {
        var objects = [sighting("person", meters: 3, degrees: 0)]
        if seconds >= 6 { objects.append(sighting("car", meters: max(2, 8 - (seconds - 6) * 1.5), degrees: -15)) }
        if seconds >= 8.5 { objects.append(sighting("bicycle", meters: 4, degrees: 30)) }
        return objects
    }

    @Test("a settings change, a long answer stopped and resumed, a hazard and exit: each heard in turn, as printed")
    func wholeSession() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 120) }
        harness.configuration.scheduledLines = [ScheduledLine(atSeconds: 1, text: "bicycles are not hazards")]
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 2, request: .say(longAnswer)),
                                                   ScheduledRequest(atSeconds: 3, request: .stopTalking),
                                                   ScheduledRequest(atSeconds: 5, request: .more),
                                                   ScheduledRequest(atSeconds: 11, request: .quit)]
        let session = try harness.makeSession(firstAnalyzer: SceneScriptAnalyzer(street))
        let controls = session.controls
        var withoutBicycles = GuidanceSettings()
        withoutBicycles.hazards["bicycle"] = nil
        // What the command language does with a settings change: the new settings, then the confirmation.
        session.carryOutLine = { [withoutBicycles] _ in
            controls.update(SessionSettingsUpdate(guidance: withoutBicycles))
            controls.send(.say("Bicycles are no longer hazards."))
        }
        let ending = try await harness.run(session)
        #expect(ending == .userQuit)

        let transcript = session.transcript()
        let texts = transcript.map(\.text)
        // What is reported as said is what was heard, when it was heard; no utterance over 3 s.
        #expect(harness.said.map { TranscriptEntry.text(for: $0.utterance) } == texts)
        #expect(harness.said.map(\.timeSeconds) == transcript.map(\.startSeconds))
        for entry in transcript {
            #expect(entry.endSeconds - entry.startSeconds <= 3.0, "\(entry.text): \(entry.endSeconds - entry.startSeconds) s")
        }
        #expect(texts.contains { $0.contains("Person, 3 meters, ahead.") }, "\(texts)")
        // The settings change is confirmed at its moment.
        let confirmed = try #require(transcript.first { $0.text.contains("Bicycles are no longer hazards.") }, "\(texts)")
        #expect(confirmed.startSeconds >= 1)
        // Stop cuts the long answer within 100 ms; more goes on with the next part, no part twice.
        let cut = try #require(transcript.first { $0.startSeconds < 3 && $0.endSeconds > 2 && $0.text.hasPrefix("Say command") },
                               "\(texts)")
        #expect(cut.endSeconds <= 3 + 0.1, "still speaking at \(cut.endSeconds) s")
        let parts = transcript.filter { $0.text.hasPrefix("Say command") }
        #expect(parts.contains { $0.startSeconds >= 5 }, "more goes on with the next part: \(texts)")
        #expect(Set(parts.map(\.text)).count == parts.count, "no part twice")
        // The approaching car is a hazard, with its tone; the bicycle, no longer a hazard, is an object.
        let car = try #require(harness.said.first { $0.utterance.text.contains("Car") }, "\(texts)")
        #expect(car.utterance.priority == .hazard && car.utterance.earcon != nil)
        #expect(car.timeSeconds >= 6)
        let bicycle = try #require(harness.said.first { $0.utterance.text.contains("Bicycle") }, "\(texts)")
        #expect(bicycle.utterance.priority != .hazard && bicycle.utterance.earcon == nil)
        // Exit: Goodbye is the last thing heard, within a second of audio time.
        let last = try #require(transcript.last)
        #expect(last.text.hasSuffix(sentences.goodbye))
        #expect(last.endSeconds <= 11 + 1.0, "ended at \(last.endSeconds) s")
    }
}
