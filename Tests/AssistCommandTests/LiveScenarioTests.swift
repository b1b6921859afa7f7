import Foundation
import TestSupport
import Testing

/// The live `assist see` on videos and RGB-D sequences generated from ../shared pictures, rendered
/// offline (--speak-to, --transcript) and judged by what the transcript says when.
@Suite("live assist see, judged through its transcript", .serialized)
struct LiveScenarioTests {
    @Test("the four sentences the contract fixes are the ones in en.session.json")
    func contractSentences() {
        let templates = LiveSentences.sessionTemplates
        #expect(templates["activated"] == LiveSentences.activated)
        #expect(templates["endOfVideo"] == LiveSentences.endOfVideo)
        #expect(templates["streamStopped"] == LiveSentences.streamStopped)
        #expect(templates["detectionFailed"] == LiveSentences.detectionFailed)
    }

    @Test("frozen frame: the street is announced once, then nothing while nothing changes; the WAV is aligned")
    func frozenFrameIsNotRepeated() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let video = try fixtures.frozenFrame(seconds: 10)
        let run = try LiveRun.run(video.path, ["--mode", "continuous"], in: fixtures)
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.endOfVideo, status: 0)
        LiveScenarioChecks.expectAligned(run, inputSeconds: 10)
        let guidance = run.guidance
        #expect(guidance.contains { LiveScenarioChecks.mentions($0, ["bus"]) }, "the bus was never announced\n\(run.transcriptListing)")
        #expect(Set(guidance.map(\.spoken)).count == guidance.count, "an announcement was repeated\n\(run.transcriptListing)")
        // Identical frames: what is said about them is queued at the first frame and heard back to
        // back; nothing is added later, so there is no entry after a pause.
        let block = LiveScenarioChecks.firstBlock(of: guidance)
        #expect(block.count == guidance.count, "spoke again while nothing changed: \(guidance.dropFirst(block.count))")
        #expect((guidance.first?.start ?? 99) < 3, "\(run.transcriptListing)")
        #expect(!guidance.contains { $0.spoken == LiveSentences.noObject })
    }

    @Test("approaching bus: announced again as it comes closer, each time nearer, with the vehicle tone")
    func approachingBusEscalates() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let video = try fixtures.approachingBus()
        let run = try LiveRun.run(video.path, ["--mode", "continuous"], in: fixtures)
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.endOfVideo, status: 0)
        LiveScenarioChecks.expectAligned(run, inputSeconds: 9)
        let bus = run.guidance.filter { LiveScenarioChecks.mentions($0, ["bus"]) }
        try #require(bus.count >= 2, "the bus was not announced again as it came from about 10 m to about 3 m\n\(run.transcriptListing)")
        let distances = bus.compactMap { $0.distancesMeters.min() }
        try #require(distances.count == bus.count, "a bus announcement without a distance\n\(run.transcriptListing)")
        for (earlier, later) in zip(distances, distances.dropFirst()) {
            #expect(later < earlier, "the bus was announced again without coming closer: \(distances)")
        }
        #expect(distances.first ?? 0 >= 6, "first bus distance \(distances)")
        #expect(distances.last ?? 99 <= 4, "last bus distance \(distances)")
        // A bus is a hazard by default: its announcements carry the vehicle earcon.
        #expect(bus.last?.tones.contains("vehicle") == true, "\(run.transcriptListing)")
    }

    @Test("walking towards a wall (RGB-D, navigate): warnings come closer and grow more urgent")
    func wallApproachEscalates() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let steps = 16
        let sequence = try fixtures.walkTowardsWall(steps: steps, fromFactor: 1.5, toFactor: 0.1)
        let run = try LiveRun.run(sequence.path, ["--mode", "navigate"], in: fixtures, json: true)
        // A folder, followed as a walk in navigation (not a series of separate scenes); its end is still told as pictures.
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.endOfPictures, status: 0)
        // Depth from the files is used: the JSON frames carry a corridor reading from the depth image.
        #expect(run.frames.contains { frame in
            ((frame["corridor"] as? [String: Any])?["source"] as? String) == "depth image"
        }, "no frame's corridor came from the depth image")
        let warnings = run.guidance.filter { !$0.distancesMeters.isEmpty }
        try #require(warnings.count >= 2, "fewer than two distance warnings while the wall came from ~3 m to ~0.2 m\n\(run.transcriptListing)")
        let distances = warnings.map { $0.distancesMeters.min() ?? 0 }
        for (earlier, later) in zip(distances, distances.dropFirst()) {
            #expect(later <= earlier, "a warning farther than the one before: \(distances)\n\(run.transcriptListing)")
        }
        #expect((distances.last ?? 99) < (distances.first ?? 0), "\(distances)")
        #expect((distances.last ?? 99) <= 1, "the last warning is not within the 1 m proximity threshold: \(distances)")
        // More urgent: the closest warning sounds the obstacle tone; the first, farthest, need not.
        #expect(warnings.last?.tones.isEmpty == false, "the closest warning has no tone\n\(run.transcriptListing)")
        #expect((warnings.last?.tones.count ?? 0) >= (warnings.first?.tones.count ?? 0))
        #expect(!run.transcript.contains { $0.spoken.lowercased().contains("path clear") && $0.start > Double(steps) / 2 },
                "path called clear while the wall was close\n\(run.transcriptListing)")
        // A warning is only worth hearing while it is true: each is heard within 4 s (the design
        // documents' limit) of the frame that made it, or not at all.
        for frame in run.frames where frame["event"] == nil {
            let time = frame["time"] as? Double ?? 0
            for announcement in frame["announcements"] as? [[String: Any]] ?? [] {
                guard let heard = announcement["firstAudioTime"] as? Double else { continue }
                let when = String(format: "heard at %.1f s, made at %.1f s: ", heard, time)
                #expect(heard - time <= 4, "\(when)\(announcement["said"] ?? "")")
            }
        }
    }

    @Test("cut to dark: the dark frames are called too dark, never \"No object detected\", and not over and over")
    func darkFramesAreCalledDark() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let video = try fixtures.cutToDark(darkFrom: 3, to: 7, seconds: 10)
        let run = try LiveRun.run(video.path, ["--mode", "continuous"], in: fixtures)
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.endOfVideo, status: 0)
        LiveScenarioChecks.expectAligned(run, inputSeconds: 10)
        let dark = run.transcript.filter { $0.spoken == LiveSentences.tooDark }
        #expect(!dark.isEmpty, "the dark frames were not called dark\n\(run.transcriptListing)")
        #expect(dark.allSatisfy { $0.start >= 3 && $0.start < 7.5 }, "too dark outside the dark part: \(dark)")
        #expect(dark.count <= 2, "too dark said \(dark.count) times in 4 s\n\(run.transcriptListing)")
        #expect(!run.transcript.contains { $0.spoken.contains(LiveSentences.noObject) }, "\(run.transcriptListing)")
        #expect(run.guidance.contains { LiveScenarioChecks.mentions($0, ["bus"]) && $0.start < 3 }, "\(run.transcriptListing)")
    }

    @Test("on demand: silent until \"scan now\" at 4 s, then one full description of the street")
    func onDemandWaitsForTheRequest() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let video = try fixtures.frozenFrame(seconds: 8)
        let run = try LiveRun.run(video.path, ["--mode", "on-demand", "--at", "4:scan now"], in: fixtures)
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.endOfVideo, status: 0)
        LiveScenarioChecks.expectAligned(run, inputSeconds: 8)
        let guidance = run.guidance
        #expect(guidance.allSatisfy { $0.start >= 4 }, "spoke before the request\n\(run.transcriptListing)")
        #expect((guidance.first?.start ?? 99) <= 6, "not answered within 2 s of the request\n\(run.transcriptListing)")
        let answer = LiveScenarioChecks.firstBlock(of: guidance)
        #expect(answer.contains { LiveScenarioChecks.mentions($0, ["bus"]) }, "\(run.transcriptListing)")
        #expect(answer.contains { LiveScenarioChecks.mentions($0, ["person", "people"]) }, "not a full description\n\(run.transcriptListing)")
    }

    @Test("find the bus: only the bus is spoken about, never the people in front of it")
    func findSpeaksOnlyOfItsCategory() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let video = try fixtures.frozenFrame(seconds: 6)
        let run = try LiveRun.run(video.path, ["--find", "bus"], in: fixtures)
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.endOfVideo, status: 0)
        let guidance = run.guidance
        #expect(!guidance.isEmpty, "the bus was not found\n\(run.transcriptListing)")
        #expect(guidance.allSatisfy { LiveScenarioChecks.mentions($0, ["bus"]) }, "\(run.transcriptListing)")
        #expect(!guidance.contains { LiveScenarioChecks.mentions($0, ["person", "people"]) }, "\(run.transcriptListing)")
    }

    @Test("\"find person\" typed at 2 s in on-demand mode: silent before, then only about people (and hazards, with their tone)")
    func findRequestedMidRun() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let video = try fixtures.frozenFrame(seconds: 6)
        let run = try LiveRun.run(video.path, ["--mode", "on-demand", "--at", "2:find person"], in: fixtures)
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.endOfVideo, status: 0)
        let guidance = run.guidance
        #expect(guidance.allSatisfy { $0.start >= 2 }, "\(run.transcriptListing)")
        #expect(guidance.contains { LiveScenarioChecks.mentions($0, ["person", "people"]) }, "\(run.transcriptListing)")
        // Hazard alerts take precedence in every mode (the bus 3 m ahead, with the vehicle tone);
        // everything else is about people only.
        let aboutOthers = guidance.filter { !LiveScenarioChecks.isHazardAlert($0) && !LiveScenarioChecks.mentions($0, ["person", "people"]) }
        #expect(aboutOthers.isEmpty, "spoke about other things while finding people: \(aboutOthers)")
        #expect(!guidance.contains { !LiveScenarioChecks.isHazardAlert($0) && LiveScenarioChecks.mentions($0, ["bus"]) },
                "\(run.transcriptListing)")
    }

    @Test("explore: one summary within 2 s of the request: how many objects, then at most 5, closest first")
    func exploreGivesOneSummary() throws {
        let fixtures = try LiveFixtures()
        defer { fixtures.remove() }
        let video = try fixtures.frozenFrame(seconds: 7)
        let run = try LiveRun.run(video.path, ["--mode", "on-demand", "--at", "3:explore"], in: fixtures)
        LiveScenarioChecks.expectFramed(run, closing: LiveSentences.endOfVideo, status: 0)
        // One summary, said in parts of at most 3 s one after the other (nothing else is going on).
        let guidance = run.guidance
        try #require(!guidance.isEmpty, "no summary\n\(run.transcriptListing)")
        #expect(guidance.allSatisfy { $0.end - $0.start <= 3.0 }, "\(run.transcriptListing)")
        #expect(zip(guidance, guidance.dropFirst()).allSatisfy { $1.start - $0.end < 0.5 }, "parts of one answer\n\(run.transcriptListing)")
        var summary = guidance[0]
        summary.end = guidance.last!.end
        summary.spoken = guidance.map(\.spoken).joined(separator: " ")
        summary.text = guidance.map(\.text).joined(separator: " ")
        #expect(summary.start >= 3 && summary.start <= 5, "\(summary)")
        #expect(LiveScenarioChecks.mentions(summary, ["bus"]) && LiveScenarioChecks.mentions(summary, ["person", "people"]), "\(summary)")
        let directions = LiveScenarioChecks.directions(in: summary.spoken)
        #expect(directions.count >= 2 && directions.count <= 5, "\(summary)")
        // The most important first: the count, then the nearest object.
        #expect(summary.spoken.range(of: #"^\d+ objects?, closest first: "#, options: .regularExpression) != nil, "how many, first: \(summary)")
        let meters = summary.distancesMeters
        #expect(meters.count >= 2 && meters == meters.sorted(), "not closest first: \(summary)")
        let afterUnknown = summary.spoken.components(separatedBy: "distance unknown").dropFirst()
        #expect(afterUnknown.allSatisfy { !$0.contains("meter") }, "unknown distances come last: \(summary)")
    }
}
