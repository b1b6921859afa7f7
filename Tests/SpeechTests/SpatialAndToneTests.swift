import Foundation
import Testing
@testable import Speech

@Suite("Placing sound in the stereo field")
struct StereoPlacementTests {
    @Test("panning keeps constant power from left to right and is centred ahead")
    func constantPower() {
        for degrees in stride(from: -90.0, through: 90, by: 15) {
            let placement = StereoPlacement(directionDegrees: degrees)
            #expect(abs(placement.leftGain * placement.leftGain + placement.rightGain * placement.rightGain - 1) < 1e-9)
        }
        let ahead = StereoPlacement(directionDegrees: 0)
        #expect(abs(ahead.leftGain - ahead.rightGain) < 1e-12 && ahead.interauralDelaySeconds == 0)
    }

    @Test("a sound on the right reaches the left ear later, by at most about 0.7 ms")
    func interauralDelay() {
        let right = StereoPlacement(directionDegrees: 90)
        #expect(right.delaysLeftEar)
        #expect(right.interauralDelaySeconds > 0.0006 && right.interauralDelaySeconds < 0.0007)
        let click: [Float] = [1] + [Float](repeating: 0, count: 99)
        let stereo = right.place(click, sampleRateHz: 22050)
        let leftFirst = stride(from: 0, to: stereo.count, by: 2).first { stereo[$0] != 0 }.map { $0 / 2 }
        let rightFirst = stride(from: 1, to: stereo.count, by: 2).first { stereo[$0] != 0 }.map { $0 / 2 }
        #expect(rightFirst == 0 && leftFirst == 14)   // 0.656 ms at 22 050 Hz is 14.5 frames
    }
}

@Suite("Earcons")
struct EarconTests {
    let tones = ToneSynthesizer(sampleRateHz: 22050)

    /// Zero crossings per second in each 40 ms window: a pitch contour with rhythm.
    func contour(_ samples: [Float]) -> [Int] {
        let window = 882
        return stride(from: 0, to: samples.count, by: window).map { start in
            let part = samples[start..<min(start + window, samples.count)]
            return zip(part, part.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count * 25 / 10 * 10
        }
    }

    @Test("every hazard class and event has its own sound")
    func distinct() {
        let sounds = Earcon.allCases.map { contour(tones.render($0)) }
        for i in sounds.indices {
            for j in sounds.indices where j > i {
                #expect(sounds[i] != sounds[j], "\(Earcon.allCases[i]) sounds like \(Earcon.allCases[j])")
            }
        }
        #expect(Earcon.allCases.allSatisfy { tones.render($0).count < 22050 / 2 })   // short: under half a second
    }

    @Test("a more severe situation sounds louder, and a category marked loud louder still")
    func intensity() {
        func peak(_ s: [Float]) -> Float { s.map { abs($0) }.max() ?? 0 }
        let mild = peak(tones.render(.obstacleHazard, severity: 0.1))
        let severe = peak(tones.render(.obstacleHazard, severity: 1))
        #expect(severe > mild * 2)
        let loud = ToneSynthesizer(sampleRateHz: 22050, loudEarcons: [.obstacleHazard])
        #expect(peak(loud.render(.obstacleHazard, severity: 1)) > severe * 1.4)
        #expect(peak(loud.render(.vehicleHazard, severity: 1)) == peak(tones.render(.vehicleHazard, severity: 1)))
        #expect(peak(loud.render(.obstacleHazard, severity: 1)) < 0.95)
    }

    @Test("a tone alone is played where no words are given")
    func toneAlone() throws {
        let queue = UtteranceQueue(voice: nil)
        guard case .queued(let plan) = queue.enqueue(.tone(.nothingFound)) else { Issue.record("not queued"); return }
        #expect(plan.voiceFailure == nil && plan.speechSeconds == 0)
        let recorder = RecordingAudioOutput()
        try queue.renderUntilIdle(to: recorder)
        #expect(abs(plan.durationSeconds - 0.15) < 0.001)
        #expect(Rendered.energy(recorder.samples, channel: 0) > 1)
    }
}

@Suite("Splitting text into messages")
struct SentenceSplittingTests {
    @Test("running text becomes one message per sentence, keeping numbers and abbreviations without a following space whole")
    func sentences() {
        #expect(Utterance.sentences(in: "Bus, 4 meters, ahead. Mind the step!  Is the door open?") ==
                ["Bus, 4 meters, ahead.", "Mind the step!", "Is the door open?"])
        #expect(Utterance.sentences(in: "Battery at 80.5 percent") == ["Battery at 80.5 percent"])
        #expect(Utterance.sentences(in: "   ").isEmpty)
    }
}
