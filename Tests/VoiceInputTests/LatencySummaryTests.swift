import Testing
@testable import VoiceInput

/// `assist bench voice`'s latency figures: the 95th percentile and where the time went.
@Suite("Latency summary of the voice benchmark")
struct LatencySummaryTests {
    func trial(latency: Double?, correct: Bool = true, endDetection: Double? = nil, encoder: Double = 0, decoder: Double = 0,
               understanding: Double? = nil, ahead: Bool = false) -> RecognitionTrial {
        var timing = TranscriptionTiming()
        timing.encoderSeconds = encoder
        timing.decoderSeconds = decoder
        timing.decoderSteps = 5
        return RecognitionTrial(said: "scan now", voice: "festival slt", decoding: "neural", isCommand: true, speakingRate: 1,
                                condition: "clean", isClean: true, heard: "scan now", confidence: 0.9,
                                understoodAs: correct ? "scanNow" : nil, correct: correct, askedAboutRightCommand: false,
                                actedOnWrongCommand: false, refusedAsTooNoisy: false, recognizedCorrectly: correct,
                                estimatedSNRDecibels: nil, latencyMilliseconds: latency, endDetectionMilliseconds: endDetection,
                                transcription: TranscriptionReport(timing: timing, madeAhead: ahead), understandingMilliseconds: understanding)
    }

    @Test("the 95th percentile is the nearest rank over the right trials; a wrong trial's time does not count")
    func percentile() {
        let right = (1...20).map { trial(latency: Double($0) * 100) }
        let summary = RecognitionSummary(right + [trial(latency: 90_000, correct: false)])
        #expect(summary.medianLatencyMilliseconds == 1_100)
        #expect(summary.percentile95LatencyMilliseconds == 1_900)
        #expect(RecognitionSummary([trial(latency: 300)]).percentile95LatencyMilliseconds == 300)
        #expect(RecognitionSummary([trial(latency: nil)]).percentile95LatencyMilliseconds == nil)
    }

    @Test("the parts are medians of the right, timed trials, and the understanding's time is added to each trial's latency")
    func parts() throws {
        let trials = [trial(latency: 500, endDetection: 400, encoder: 0.1, decoder: 0.2, understanding: 10, ahead: true),
                      trial(latency: 700, endDetection: 450, encoder: 0.3, decoder: 0.4, understanding: 30, ahead: true),
                      trial(latency: 900, endDetection: 500, encoder: 0.5, decoder: 0.6, understanding: 50)]
        let parts = try #require(RecognitionSummary(trials).latencyParts)
        #expect(parts.endDetectionMilliseconds == 450)
        #expect(abs(parts.encoderMilliseconds - 300) < 1e-9)
        #expect(abs(parts.decoderMilliseconds - 400) < 1e-9)
        #expect(parts.madeAhead == 2)
        #expect(parts.understandingMilliseconds == 30)
        #expect(parts.decidedMedianMilliseconds == 730)
        #expect(parts.decidedPercentile95Milliseconds == 950)
    }
}
