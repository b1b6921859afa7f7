import AssistCore
import Foundation
@testable import Guidance
@testable import LiveGuidance
import Media
import Perception
import Speech
import Testing

/// Objects by the frame's time: what a scripted scene shows at each moment.
final class SceneScriptAnalyzer: SceneAnalyzing, @unchecked Sendable {
    let usesDepthModel = false
    private let objects: (Double) -> [LocatedObject]
    init(_ objects: @escaping (Double) -> [LocatedObject]) { self.objects = objects }
    func analyze(_ frame: Frame) throws -> SceneReport { report(objects(frame.timestampSeconds)) }
    func cancel() {}
}

/// The spoken contract (issue 14, section 4), each part on the input clock: the session renders
/// its speech into memory aligned with input time, so nothing here depends on how busy the machine is.
@Suite("The spoken contract")
struct SpokenContractTests {
    private let sentences = try! SessionSentences.bundled()
    /// 60 words: 6 s with the test voice (0.1 s a word), twice the limit.
    private let longAnswer = (1...10).map { "Say command \($0) for thing \($0)." }.joined(separator: " ")

    /// People passing: a new person every 2 s, each in view for 3 s, moving from left to right.
    private func peoplePassing(_ seconds: Double) -> [LocatedObject] {
        (0..<10).compactMap { index -> LocatedObject? in
            let appears = Double(index) * 2
            guard seconds >= appears && seconds < appears + 3 else { return nil }
            return sighting(index % 2 == 0 ? "person" : "chair", meters: 3, degrees: -30 + (seconds - appears) * 20)
        }
    }

    @Test("what is reported as said is exactly what was heard, at the moment it started being heard; the rest is superseded, never queued-and-forgotten")
    func saidIsHeard() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 200) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 5, request: .say(longAnswer)),
                                                   ScheduledRequest(atSeconds: 9, request: .explore),
                                                   ScheduledRequest(atSeconds: 12, request: .say(longAnswer))]
        let (session, ending) = try await harness.run(firstAnalyzer: SceneScriptAnalyzer(peoplePassing))
        #expect(ending == .inputEnded)
        let transcript = session.transcript()
        #expect(harness.said.map { TranscriptEntry.text(for: $0.utterance) } == transcript.map(\.text))
        #expect(harness.said.map(\.timeSeconds) == transcript.map(\.startSeconds))
        let records = harness.reports.flatMap(\.announcements).filter { $0.said != "[vibration]" }
        #expect(records.contains { $0.outcome == "queued" })
        for record in records where record.outcome == "queued" {
            #expect(record.firstAudioTime != nil, "\(record.said) was queued and never heard nor superseded")
        }
    }

    @Test("no utterance is longer than 3 s: a long answer is said in parts, most important first, with new objects between them")
    func noMonologue() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 200) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 1, request: .say(longAnswer))]
        let (session, _) = try await harness.run(firstAnalyzer: SceneScriptAnalyzer(peoplePassing))
        let transcript = session.transcript()
        for entry in transcript {
            #expect(entry.endSeconds - entry.startSeconds <= 3.0, "\(entry.text): \(entry.endSeconds - entry.startSeconds) s")
        }
        let parts = transcript.filter { $0.text.hasPrefix("Say command") }
        #expect(parts.count >= 2)
        #expect(parts.map(\.text).joined(separator: " ") == longAnswer, "every word, in order")
        // Something else was heard between the parts (the people passing).
        let first = try #require(transcript.firstIndex { $0.text.hasPrefix("Say command") })
        let last = try #require(transcript.lastIndex { $0.text.hasPrefix("Say command") })
        #expect(transcript[first...last].contains { !$0.text.hasPrefix("Say command") }, "\(transcript.map(\.text))")
    }

    @Test("stop silences within 100 ms of audio time and holds the rest of a long answer; more goes on with it")
    func stopAndMore() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 100) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 1, request: .say(longAnswer)),
                                                   ScheduledRequest(atSeconds: 2.02, request: .stopTalking),
                                                   ScheduledRequest(atSeconds: 6, request: .more)]
        let (session, _) = try await harness.run(mode: .onDemand)
        let transcript = session.transcript()
        let cut = try #require(transcript.first { $0.startSeconds < 2.02 && $0.endSeconds > 2.0 && $0.text.hasPrefix("Say command") })
        #expect(cut.endSeconds <= 2.02 + 0.1, "still speaking at \(cut.endSeconds) s")
        // Silence in the rendered audio from 100 ms after the stop until "more".
        let samples = harness.audio.samples, rate = harness.queue.sampleRateHz
        let silent = (Int(2.12 * rate)..<Int(6 * rate)).allSatisfy { samples[2 * $0] == 0 && samples[2 * $0 + 1] == 0 }
        #expect(silent)
        let afterMore = transcript.filter { $0.startSeconds >= 6 && $0.text.hasPrefix("Say command") }
        #expect(!afterMore.isEmpty, "more goes on with the next part")
        let saidParts = transcript.filter { $0.text.hasPrefix("Say command") }.map(\.text)
        #expect(Set(saidParts).count == saidParts.count, "no part twice")
    }

    @Test("--json lists as said only what was heard: announcements of one frame that exit took out before they were heard are superseded")
    func reportsListOnlyWhatWasHeard() async throws {
        // Five hazards come into view together: five announcements of one frame, queued together
        // and said one after another. (Five ordinary objects would no longer do: while the channel
        // is busy, object announcements are held back, not queued; see `heardFromFreshFrames`.)
        let crowd: (Double) -> [LocatedObject] = { seconds in
            seconds < 0.5 ? [] : ["car", "bus", "truck", "motorcycle", "bicycle"].enumerated().map { index, label in
                sighting(label, meters: 2 + Double(index), degrees: -40 + Double(index) * 20)
            }
        }
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 100) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 2, request: .quit)]
        let (_, ending) = try await harness.run(firstAnalyzer: SceneScriptAnalyzer(crowd))
        #expect(ending == .userQuit)
        let records = harness.reports.flatMap(\.announcements).filter { $0.said != "[vibration]" }
        #expect(records.contains { $0.outcome == "superseded" }, "\(records.map { "\($0.said) \($0.outcome)" })")
        for record in records where record.outcome == "queued" {
            #expect(record.firstAudioTime != nil, "\(record.said) is listed as said but was never heard")
        }
    }

    @Test("exit ends within 1 s of audio time whatever is queued: Goodbye is heard, the backlog is not")
    func exitAtOnce() async throws {
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 300) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 1, request: .say(longAnswer)),
                                                   ScheduledRequest(atSeconds: 1.1, request: .say(longAnswer + " Again.")),
                                                   ScheduledRequest(atSeconds: 1.2, request: .explore),
                                                   ScheduledRequest(atSeconds: 2, request: .quit)]
        let (session, ending) = try await harness.run(firstAnalyzer: SceneScriptAnalyzer(peoplePassing))
        #expect(ending == .userQuit)
        let transcript = session.transcript()
        let last = try #require(transcript.last)
        #expect(last.text.hasSuffix(sentences.goodbye))
        #expect(last.endSeconds <= 2 + 1.0, "ended at \(last.endSeconds) s")
        #expect(transcript.dropLast().allSatisfy { $0.endSeconds <= 2.1 }, "nothing else after exit")
        let samples = harness.audio.samples
        #expect(Double(samples.count / 2) / harness.queue.sampleRateHz <= 2 + 1.1)
    }

    @Test("an object not heard because an answer kept the channel busy is announced where it is now, as soon as the channel frees")
    func noObjectLost() async throws {
        // A dog walks in at 1.5 s while a long answer (6 s) is being said, and stays in view, moving right.
        let dog: (Double) -> [LocatedObject] = { seconds in
            seconds >= 1.5 ? [sighting("dog", meters: 2, degrees: -20 + seconds * 5)] : []
        }
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 150) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 1, request: .say(longAnswer))]
        let (session, _) = try await harness.run(firstAnalyzer: SceneScriptAnalyzer(dog))
        let transcript = session.transcript()
        let heard = try #require(transcript.first { $0.text.contains("Dog") }, "\(transcript.map(\.text))")
        #expect(heard.startSeconds <= 1.5 + 4, "first heard at \(heard.startSeconds) s")
    }

    @Test("objects appearing together are each heard within the speech lead of a fresh frame, not queued behind one another; each is heard once")
    func heardFromFreshFrames() async throws {
        // Three objects step in together at 1 s and stay; the dog moves right. Each sentence is
        // about 0.5 s with the test voice: queued together, the third would be heard over 1 s
        // after its frame, describing where the dog was then.
        let scene: (Double) -> [LocatedObject] = { seconds in
            seconds < 1 ? [] : [sighting("person", meters: 2, degrees: -30), sighting("chair", meters: 3, degrees: 25),
                                sighting("dog", meters: 4, degrees: -10 + seconds * 4)]
        }
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 80) }
        let (session, ending) = try await harness.run(firstAnalyzer: SceneScriptAnalyzer(scene))
        #expect(ending == .inputEnded)
        let heard = session.transcript().map(\.text)
        for label in ["Person", "Chair", "Dog"] {
            #expect(heard.filter { $0.contains(label) }.count == 1, "\(label): \(heard)")
        }
        let lead = harness.configuration.speechLeadSeconds, frameCost = 0.1
        var heldBack = 0
        for report in harness.reports {
            for record in report.announcements where record.priority == "new object" {
                if record.outcome == "held back" { heldBack += 1 }
                guard let start = record.firstAudioTime else { continue }
                #expect(start - report.time <= frameCost + lead + 0.01,
                        "\(record.said) heard \(start - report.time) s after its frame at \(report.time) s")
            }
        }
        #expect(heldBack >= 2, "the channel was busy for the second and third")
    }

    @Test("a folder of pictures describes every picture, each as a scene of its own, and ends with End of pictures")
    func pictures() async throws {
        let pictures: [[LocatedObject]] = [[sighting("bus", meters: 4, degrees: 0), sighting("person", meters: 2, degrees: -20)],
                                           [sighting("person", meters: 3, degrees: 10)],
                                           [sighting("chair", meters: 2, degrees: 15)]]
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 3, framesPerSecond: 1) }
        harness.configuration.input.picturesAreScenes = true
        var index = -1
        let analyzer = SceneScriptAnalyzer { _ in
            index += 1
            return pictures[min(index, pictures.count - 1)]
        }
        let (session, ending) = try await harness.run(mode: .onDemand, firstAnalyzer: analyzer)
        #expect(ending == .inputEnded)
        let said = session.transcript().map(\.text)
        #expect(said.contains { $0.contains("Bus") }, "\(said)")
        #expect(said.contains { $0.contains("Chair") }, "\(said)")
        #expect(said.filter { $0.contains("Person") || $0.contains("person") }.count >= 2, "the person in both pictures: \(said)")
        #expect(said.last?.hasSuffix(sentences.endOfPictures) == true)
    }
}

@Suite("The spoken contract at the end of the input")
struct SpokenContractEndTests {
    private let sentences = try! SessionSentences.bundled()

    /// An answer of `parts` parts of six words (0.6 s each with the test's voice) asked for at
    /// 2.5 s of a 3-s input, on demand: the answer, what was said, and how the session ended.
    private func answerAtTheEnd(parts: Int) async throws -> (answer: String, said: [String], ending: SessionEnding) {
        let answer = (1...parts).map { "Say command \($0) for thing \($0)." }.joined(separator: " ")
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 30) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 2.5, request: .say(answer))]
        let (session, ending) = try await harness.run(mode: .onDemand)
        return (answer, session.transcript().map(\.text), ending)
    }

    @Test("a long answer asked for just before the input ends is heard whole, all its parts, before End of video")
    func answerHeardWholeAtTheEnd() async throws {
        let (answer, said, ending) = try await answerAtTheEnd(parts: 10)
        #expect(ending == .inputEnded)
        #expect(said.filter { $0.hasPrefix("Say command") }.joined(separator: " ") == answer)
        #expect(!said.contains { $0.hasSuffix(sentences.answerCut) }, "an answer heard whole is not said to be cut")
        #expect(said.last?.hasSuffix(sentences.endOfVideo) == true)
    }

    @Test("an answer longer than the 30 s the end waits for is cut, and the user is told so before End of video")
    func answerCutAtTheEndIsSaid() async throws {
        // 60 parts: well over 30 s of speech.
        let (answer, said, ending) = try await answerAtTheEnd(parts: 60)
        #expect(ending == .inputEnded)
        let parts = said.filter { $0.hasPrefix("Say command") }
        #expect(!parts.isEmpty && parts.count < 60, "\(parts.count) parts said")
        #expect(answer.hasPrefix(parts.joined(separator: " ")), "the parts said are the answer's beginning, in order")
        #expect(said.suffix(2).map { $0.hasSuffix(sentences.answerCut) || $0.hasSuffix(sentences.endOfVideo) } == [true, true],
                "\(said.suffix(3))")
        #expect(said.last?.hasSuffix(sentences.endOfVideo) == true)
    }
}
