import Foundation
import TestSupport
import Testing
@testable import VoiceInput

@Suite("The wake benchmark reads its lists and scores wakes as the issue's targets state them")
struct WakeBenchmarkScoringTests {
    @Test("a list line gives the text, the rate and the noise; comments and blank lines are skipped")
    func parsesLines() throws {
        let renderings = try WakeRendering.parse("""
            # a comment

            assistive vision | 1.0 | clean
            okay, assistive vision | 0.8 | white 20
            um, assistive vision please | 1.25 | babble 15
            """)
        #expect(renderings == [
            WakeRendering(text: "assistive vision", speakingRate: 1, condition: .clean),
            WakeRendering(text: "okay, assistive vision", speakingRate: 0.8, condition: .noisy(.white, snrDecibels: 20)),
            WakeRendering(text: "um, assistive vision please", speakingRate: 1.25, condition: .noisy(.babble, snrDecibels: 15)),
        ])
    }

    @Test("a malformed line is named by its number", arguments: [
        "assistive vision", "assistive vision | fast | clean", "assistive vision | 1 | pink 20", "assistive vision | 1 | white",
        " | 1 | clean", "assistive vision | 9 | clean", "assistive vision | 1 | clean 20",
    ])
    func refusesBadLines(line: String) {
        #expect(throws: WakeRendering.BadLine(number: 2, line: line.trimmingCharacters(in: .whitespaces))) {
            try WakeRendering.parse("# first\n" + line)
        }
    }

    let rendering = WakeRendering(text: "assistive vision", speakingRate: 1, condition: .clean)

    @Test("a rendering's latency runs from the end of its speech: the detector's wait plus the processing after it")
    func latency() {
        let trial = WakeTrial(voice: "v", rendering: rendering, heard: ["assistive vision"], wakes: [(audioSeconds: 3.5, processingSeconds: 0.25)],
                              speechEndSeconds: 3.0)
        #expect(trial.woken && trial.wakes == 1)
        #expect(abs(trial.endDetectionMilliseconds! - 500) < 1e-6)
        #expect(abs(trial.latencyMilliseconds! - 750) < 1e-6)
        let missed = WakeTrial(voice: "v", rendering: rendering, heard: ["assist division"], wakes: [], speechEndSeconds: 3.0)
        #expect(!missed.woken && missed.latencyMilliseconds == nil)
    }

    func trials(woken: Int, of count: Int) -> [WakeTrial] {
        (0..<count).map { index in
            WakeTrial(voice: "v", rendering: rendering, heard: [], wakes: index < woken ? [(audioSeconds: 2 + Double(index), processingSeconds: 0)] : [],
                      speechEndSeconds: 2)
        }
    }

    func stream(minutes: Double, falseWakes: Int) -> WakeFalseAlarmRun {
        WakeFalseAlarmRun(voice: "v", sentences: 10, audioSeconds: minutes * 60, speechSeconds: minutes * 30, utterancesTranscribed: 10,
                          falseWakes: (0..<falseWakes).map { FalseWake(voice: "v", audioSeconds: Double($0), heard: "assistive vision", said: "x") },
                          checked: [], cpuSeconds: minutes * 6)
    }

    @Test("woken on 38 of 40 meets the 95 % target; 37 of 40 does not")
    func wokenTarget() {
        #expect(WakeSummary(trials: trials(woken: 38, of: 40), falseAlarms: []).wokenOften)
        #expect(!WakeSummary(trials: trials(woken: 37, of: 40), falseAlarms: []).wokenOften)
        #expect(!WakeSummary(trials: [], falseAlarms: []).wokenOften)
    }

    @Test("no false wake meets the target only over 30 minutes of audio, summed over the voices")
    func falseWakeTarget() {
        let enough = WakeSummary(trials: [], falseAlarms: [stream(minutes: 20, falseWakes: 0), stream(minutes: 10, falseWakes: 0)])
        #expect(enough.neverFalselyWoken && enough.audioMinutes == 30)
        #expect(abs(enough.cpuPercentOfOneCore! - 10) < 1e-9)
        #expect(!WakeSummary(trials: [], falseAlarms: [stream(minutes: 29, falseWakes: 0)]).neverFalselyWoken)
        let woken = WakeSummary(trials: [], falseAlarms: [stream(minutes: 40, falseWakes: 0), stream(minutes: 1, falseWakes: 2)])
        #expect(!woken.neverFalselyWoken && woken.falseWakes == 2)
    }

    @Test("the median latency is over the woken renderings only")
    func medianLatency() {
        // Woken at 0, 1000 and 2000 ms after the speech; one not woken.
        let summary = WakeSummary(trials: trials(woken: 3, of: 4), falseAlarms: [])
        #expect(summary.medianLatencyMilliseconds == 1000 && summary.worstLatencyMilliseconds == 2000)
        #expect(WakeSummary.median([1, 2, 3, 4]) == 2.5 && WakeSummary.median([]) == nil)
    }

    @Test("the speech without the phrase goes clean, white noise, babble in turn, at rates 1, 0.9 and 1.15")
    func sentenceConditions() {
        #expect((0..<4).map { WakeBenchmark.sentenceCondition($0, snrDecibels: 10) }
            == [.clean, .noisy(.white, snrDecibels: 10), .noisy(.babble, snrDecibels: 10), .clean])
        #expect((0..<10).map(WakeBenchmark.sentenceRate) == [1, 1, 1, 0.9, 0.9, 0.9, 1.15, 1.15, 1.15, 1])
    }

    @Test("the replay hands out 20 ms chunks and times from a chunk only once it was handed out")
    func replay() throws {
        let replay = TimedReplay([Int16](repeating: 1, count: 700))
        #expect(replay.secondsSinceHandingOut(audioSeconds: 0) == 0)
        var sizes: [Int] = []
        while let chunk = try replay.nextChunk() { sizes.append(chunk.count) }
        #expect(sizes == [320, 320, 60])
        #expect(replay.secondsSinceHandingOut(audioSeconds: 0.03) >= 0)
        #expect(replay.secondsSinceHandingOut(audioSeconds: 1) == 0)
    }
}

@Suite("The wake phrase's second check picks the reading to weigh and judges the model's weighing")
struct WakePhraseCheckTests {
    let check = WakePhraseCheck()

    @Test("a transcript that holds the phrase is weighed as it is, said alone, after other words or run together")
    func holdsThePhrase() {
        #expect(check.reading(of: "Assistive Vision.") == "assistive vision")
        #expect(check.reading(of: "Okay, assistive vision, what's ahead?") == "okay assistive vision what's ahead")
        #expect(check.reading(of: "assistivevision") == "assistivevision")
        // "er," written as "her" at the start is the filler, not a possessive.
        #expect(check.reading(of: "her assistive vision now") == "her assistive vision now")
        #expect(check.reading(of: "her assisted vision") == "her assistive vision")
    }

    @Test("the words nearest the phrase in spelling are read as the phrase", arguments: [
        ("assisted vision", "assistive vision"),
        ("Hello, assist a vision.", "hello assistive vision"),
        ("assess the vision start guidance", "assistive vision start guidance"),
        ("well then assist division", "well then assistive vision"),
    ])
    func nearMisses(heard: String, reading: String) {
        #expect(check.reading(of: heard) == reading)
    }

    @Test("nothing is weighed for words far from the phrase, nor after or from a determiner", arguments: [
        "the weather is nice today", "turn the television off", "thank you for your assistance", "assisted living",
        "an artistic vision of the city", "a positive vision", "my assistive vision", "I like her assistive vision", "",
    ])
    func nothingToWeigh(heard: String) {
        #expect(check.reading(of: heard) == nil)
    }

    @Test("the phrase's reading wakes it only when the model finds it within the gap of its own transcript")
    func accepts() {
        #expect(check.accepts(AlternativeReading(text: "assistive vision", logProbabilityGap: 0)))
        #expect(check.accepts(AlternativeReading(text: "okay assistive vision", logProbabilityGap: -check.maximumGap)))
        #expect(!check.accepts(AlternativeReading(text: "assistive vision", logProbabilityGap: -check.maximumGap - 0.1)))
        #expect(!check.accepts(AlternativeReading(text: "assistive vision", logProbabilityGap: -.infinity)))
        #expect(!check.accepts(AlternativeReading(text: "assisted vision", logProbabilityGap: 0)))
    }
}
