import Commands
import Foundation
@testable import LiveGuidance
import Perception
import SessionControl
import Storage
import Testing

/// The commands people asked for and did not find (issue 35, item 7), carried out by a running
/// session through the command controller as `assist see`, its console and its control socket
/// carry them out (`LiveSettingsSession`): what is said, what is stored, what is heard.
@Suite("Commands people asked for: several at once, absolute values, status questions, units, hazard alerts")
struct AskedForCommandsTests {
    /// The run's lines, each at its own second from 2 s on.
    static func run(_ texts: [String], seconds: Double = 4, mode: GuidanceMode = .continuous,
                    scene: @escaping @Sendable (Double) -> [LocatedObject] = { _ in [] }) async throws -> LiveSettingsSession {
        let lines = texts.enumerated().map { ScheduledLine(atSeconds: 2 + Double($0.offset), text: $0.element) }
        let run = try LiveSettingsSession(mode: mode, seconds: max(seconds, 3 + Double(texts.count)), scene: scene, lines: lines)
        try await run.run()
        return run
    }

    @Test("'louder and slower please' makes the voice louder, then slower, each confirmed, in that order")
    func louderAndSlower() async throws {
        let run = try await Self.run(["louder and slower please"])
        #expect(run.replies == [ControlReply(understood: true, intent: "volumeUp,speakSlower",
                                             reply: "Volume 80 percent. Slower: 150 words per minute.")])
        // Said in that order.
        let said = run.saidTexts
        let louder = try #require(said.firstIndex(of: "Volume 80 percent."), "\(said)")
        let slower = try #require(said.firstIndex { $0.hasPrefix("Slower") }, "\(said)")
        #expect(louder < slower)
        let stored = try run.store.current().speech
        #expect(stored.volumePercent == 80 && stored.rateWordsPerMinute == 150)
    }

    @Test("'stop detecting and exit' pauses, then ends the session")
    func stopAndExit() async throws {
        let run = try await Self.run(["stop detecting and exit"], seconds: 30)
        #expect(run.replies.map(\.reply) == ["Detection paused. Goodbye."])
        #expect(run.saidTexts.contains("Goodbye."))
        // It ended at once, long before its 30 s of input.
        #expect((run.said.last?.timeSeconds ?? 30) < 10)
    }

    @Test("'switch to navigate mode then find a chair' ends in find mode, looking for a chair")
    func modeThenFind() async throws {
        let run = try await Self.run(["switch to navigation mode then find a chair", "what am I looking for"])
        #expect(run.replies.map(\.reply) == ["Scene navigation on. Looking for chairs.", "I am looking for a chair."])
    }

    @Test("a line with two commands and one part not understood does nothing, and says so")
    func notAllUnderstood() async throws {
        let run = try await Self.run(["louder, slower and flibber the gronkle"])
        #expect(run.replies.map(\.reply) == ["I understood only part of that (increase volume, slower), so I did nothing. Please say it again, one command at a time."])
        #expect(try run.store.changedValues().isEmpty)
    }

    @Test("'prioritise bicycles and cars' is one command, not split")
    func prioritiseNotSplit() async throws {
        let run = try await Self.run(["prioritise bicycles and cars"])
        #expect(try run.store.current().detection.prioritisedCategories == ["person", "bicycle", "car"])
    }

    @Test("absolute and extreme volumes and rates are set and said; a volume out of range is refused with the range")
    func absoluteValues() async throws {
        let run = try await Self.run(["set volume to 50 percent", "maximum volume", "minimum volume", "fastest speech",
                                      "slowest speech", "set the volume to 5 percent"])
        #expect(run.replies.map(\.reply) == ["Volume 50 percent.", "Volume 100 percent, the loudest.", "Volume 10 percent, the quietest.",
                                             "Fastest: 500 words per minute.", "Slowest: 80 words per minute.",
                                             "The volume must be from 10 to 100 percent."])
        #expect(run.replies.map(\.understood) == [true, true, true, true, true, false])
        let stored = try run.store.current().speech
        #expect(stored.volumePercent == 10 && stored.rateWordsPerMinute == 80)
    }

    @Test("'be less picky' lowers the confidence threshold a step at a time down to its end, which is said; 'be more careful' raises it")
    func relativeConfidence() async throws {
        let run = try await Self.run(["be less picky", "be more careful", "be more careful"] + Array(repeating: "be less picky", count: 8))
        #expect(run.replies.map(\.reply) == ["Less picky: confidence threshold 50 percent.", "More careful: confidence threshold 60 percent.",
                                             "More careful: confidence threshold 70 percent."]
                + [60, 50, 40, 30, 20, 10, 5].map { "Less picky: confidence threshold \($0) percent." }
                + ["The confidence threshold is already at its lowest, 5 percent."])
        #expect(try run.store.current().detection.confidenceThreshold == 0.05)
    }

    @Test("status questions are answered from the session's state in one sentence")
    func statusQuestions() async throws {
        let run = try await Self.run(["what mode am I in", "what is the volume", "how fast are you talking", "what am I looking for",
                                      "are hazard alerts on", "navigation mode", "what mode am I in"])
        #expect(run.replies.map(\.reply) == ["The mode is continuous detection.", "The volume is 70 percent.",
                                             "The speech rate is 175 words per minute. Say faster or slower to change it.",
                                             "I am not looking for anything. Say find and a thing, for example find a chair.",
                                             "Hazard alerts are on.", "Scene navigation on.", "The mode is navigation."])
    }

    @Test("asked for a female or a male voice, the answer says what the two voices are and nothing is changed")
    func voiceBySex() async throws {
        let run = try await Self.run(["use a female voice", "use a male voice"])
        #expect(run.replies.map(\.reply) == ["I have no female voice: the natural voice and the fast voice are both male, so nothing was changed.",
                                             "Both my voices are male, the natural voice and the fast voice: say use the natural voice or use the fast voice to choose."])
        #expect(try run.store.changedValues()["speech.voice"] == nil)
    }

    @Test("after 'use feet' the next distance is said in feet, and 'use meters' brings meters back")
    func unitsByVoice() async throws {
        let run = try LiveSettingsSession(seconds: 16, scene: { seconds in
            switch seconds {
            case 1..<3: return [LiveSettingsSession.object("chair", meters: 3)]
            case 7..<9: return [LiveSettingsSession.object("bench", meters: 3)]
            case 12..<14: return [LiveSettingsSession.object("bottle", meters: 3)]
            default: return []
            }
        }, lines: [ScheduledLine(atSeconds: 4, text: "use feet"), ScheduledLine(atSeconds: 10, text: "use meters")])
        try await run.run()
        let said = run.saidTexts
        #expect(run.replies.map(\.reply) == ["Distances in feet.", "Distances in meters."])
        #expect(try #require(said.first { $0.lowercased().contains("chair") }).contains("meter"))
        #expect(try #require(said.first { $0.lowercased().contains("bench") }).contains("feet"))
        #expect(try #require(said.first { $0.lowercased().contains("bottle") }).contains("meter"))
    }

    /// A car 6 m ahead from 5 to 8 s: a hazard, unless hazard alerts are off.
    static let car: @Sendable (Double) -> [LocatedObject] = { seconds in
        (5..<8).contains(seconds) ? [LiveSettingsSession.object("car", meters: 6)] : []
    }

    @Test("with hazard alerts on a near car is a hazard alert; after 'turn off hazard warnings' it is not, and the status question says so")
    func hazardAlertsByVoice() async throws {
        let on = try LiveSettingsSession(seconds: 10, scene: Self.car)
        try await on.run()
        #expect(on.said.contains { $0.utterance.priority == .hazard }, "\(on.saidTexts)")

        let off = try LiveSettingsSession(seconds: 10, scene: Self.car,
                                          lines: [ScheduledLine(atSeconds: 2, text: "turn off hazard warnings"),
                                                  ScheduledLine(atSeconds: 3, text: "are hazard alerts on")])
        try await off.run()
        #expect(!off.said.contains { $0.utterance.priority == .hazard }, "\(off.saidTexts)")
        #expect(off.replies.map(\.reply) == ["Hazard alerts off: vehicles near you will not sound a warning.",
                                             "Hazard alerts are off. Say hazard alerts on to hear them again."])
        // Obeyed, not hidden: the car is still announced, as any object is.
        #expect(off.saidTexts.contains { $0.hasPrefix("Car") })
        #expect(try off.store.current().detection.hazardAlerts == false)
    }
}
