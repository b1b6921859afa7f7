import Foundation
import Testing
@testable import Hearing

/// Acoustic feedback: the adaptive canceller and the howling detector, in a closed loop with a
/// simulated earphone-to-microphone path (`FeedbackPath`), driven by sample counts only.
@Suite("Feedback cancellation and howling suppression")
struct FeedbackTests {
    /// Bisgaard N3 (moderate, sloping): 25–35 dB of gain from 1.5 kHz up, where feedback paths peak.
    static func moderateLoss() throws -> EarAudiogram {
        try EarAudiogram(ear: .left, thresholdsHL: [250: 35, 500: 35, 750: 35, 1000: 40, 1500: 45, 2000: 50,
                                                    3000: 55, 4000: 60, 6000: 65, 8000: 65])
    }

    static func makeStereoProcessor(_ feedback: FeedbackManagement) throws -> HearingAidProcessor {
        let processor = try makeProcessor(left: try moderateLoss(), inputChannels: 2)
        try processor.control.update { $0.feedbackManagement = feedback }
        return processor
    }

    /// Speech-shaped noise at 65 dB SPL (the calibration's 110 dB SPL full scale).
    static func speechAt65(seconds: Double) -> [Float] {
        TestSignals.speechShapedNoise(rmsDBFS: 65 - 110, seconds: seconds, sampleRate: 48_000, seed: 7)
    }

    /// Path gains (peak, dB). Scanned in 1 dB steps with this fitting and source, the uncancelled
    /// chain is stable up to −22 dB and howls from −21 dB (`assist hear bench --feedback` prints
    /// the scan); the cancelled one is tested 10 dB past that limit.
    static let uncancelledStablePathGain = -22.0
    static let howlingPathGain = -19.0
    static let cancelledPathGain = uncancelledStablePathGain + 10

    @Test("the canceller learns a fixed path from what was played: the residual feedback is 20 dB below the feedback")
    func cancellerConverges() {
        let canceller = FeedbackCanceller()
        canceller.prepare(hopSize: 64)
        let path = FeedbackPath.openFitEarbud(gainDecibels: -20)
        let hops = 48_000 * 4 / 64
        // White noise from a fixed linear congruential sequence, 0.1 peak.
        var state: UInt32 = 12_345
        let played = (0..<(hops * 64)).map { _ -> Float in
            state = state &* 1_664_525 &+ 1_013_904_223
            return (Float(state >> 8) / Float(1 << 24) - 0.5) * 0.2
        }
        var feedbackPower = 0.0, residualPower = 0.0
        var microphone = [Float](repeating: 0, count: 64)
        for j in 0..<hops {
            for i in 0..<64 {
                let n = j * 64 + i
                var heard: Float = 0
                for (k, h) in path.impulseResponse.enumerated() where n - path.delayFrames - k >= 0 {
                    heard += h * played[n - path.delayFrames - k]
                }
                microphone[i] = heard
            }
            microphone.withUnsafeBufferPointer { canceller.cancel($0.baseAddress!, adapting: true) }
            if j >= hops - 48_000 / 64 {
                for i in 0..<64 {
                    feedbackPower += Double(microphone[i] * microphone[i])
                    residualPower += Double(canceller.corrected[i] * canceller.corrected[i])
                }
            }
            played.withUnsafeBufferPointer { canceller.played($0.baseAddress! + j * 64) }
        }
        let attenuation = 10 * log10(feedbackPower / residualPower)
        #expect(attenuation >= 20, "residual feedback only \(attenuation) dB below the feedback")
    }

    @Test("without feedback management the prescribed chain howls on the test path")
    func uncancelledChainHowls() throws {
        let excess = try FeedbackLoop.excessOutputDecibels(
            makeProcessor: { try Self.makeStereoProcessor([]) }, source: Self.speechAt65(seconds: 3),
            path: .openFitEarbud(gainDecibels: Self.howlingPathGain))
        #expect(excess > 10, "closed loop only \(excess) dB above the open loop: the test path does not make it howl")
    }

    @Test("with cancellation the chain stays stable 10 dB past its uncancelled limit, while the path changes")
    func cancellationAddsStableGain() throws {
        let seconds = 4.0
        let excess = try FeedbackLoop.excessOutputDecibels(
            makeProcessor: { try Self.makeStereoProcessor(.cancellation) }, source: Self.speechAt65(seconds: seconds),
            path: .openFitEarbud(gainDecibels: Self.cancelledPathGain),
            // A hand near the ear: the path's peak moves up 300 Hz and rises 2 dB halfway through.
            changedPath: .openFitEarbud(gainDecibels: Self.cancelledPathGain + 2, resonanceHz: 3_300),
            changeAtFrame: Int(seconds / 2 * 48_000))
        #expect(abs(excess) < 3, "closed loop \(excess) dB from the open loop")
    }

    @Test("the howling detector lowers the ringing band's gain and ends the howl without a canceller")
    func howlDetectorEndsHowl() throws {
        let processor = try Self.makeStereoProcessor(.howlSuppression)
        let source = Self.speechAt65(seconds: 4)
        let output = FeedbackLoop.run(processor, source: source, path: .openFitEarbud(gainDecibels: Self.howlingPathGain))
        let reduced = (0..<BandLayout.bandCount).map { processor.monitors.value(.howlGainReductionDecibels, ear: .left, band: $0) }
        #expect(reduced.contains { $0 >= HowlDetector.stepDecibels }, "no band lowered: \(reduced)")
        let reference = try Self.makeStereoProcessor([]).processAll(source.flatMap { [$0, $0] })
        let last = (output.count / 2 - 48_000)..<(output.count / 2)
        let excess = 20 * log10(SignalMeasurement.rms(output, frames: last, channel: 0, channels: 2)
                                / SignalMeasurement.rms(reference, frames: last, channel: 0, channels: 2))
        #expect(excess < 6, "still \(excess) dB above the open loop after the detector acted")
    }

    @Test("feedback management never lets a howling loop past the limiter ceiling")
    func howlStaysUnderCeiling() throws {
        for feedback: FeedbackManagement in [[], .all] {
            let processor = try Self.makeStereoProcessor(feedback)
            let output = FeedbackLoop.run(processor, source: Self.speechAt65(seconds: 1.5),
                                          path: .openFitEarbud(gainDecibels: 0))
            let peak = SignalMeasurement.peak(output, frames: 0..<(output.count / 2), channel: 0, channels: 2)
            #expect(peak <= processor.outputCeiling, "peak \(peak) above the ceiling \(processor.outputCeiling)")
            #expect(output.allSatisfy { $0.isFinite })
        }
    }

    @Test("without a feedback path, feedback management leaves the output level of speech-shaped noise within 0.5 dB")
    func cancellerTransparentWithoutFeedback() throws {
        let source = Self.speechAt65(seconds: 3)
        let stereo = source.flatMap { [$0, $0] }
        let plain = try Self.makeStereoProcessor([]).processAll(stereo)
        let cancelled = try Self.makeStereoProcessor(.all).processAll(stereo)
        let last = (source.count - 48_000)..<source.count
        let difference = 20 * log10(SignalMeasurement.rms(cancelled, frames: last, channel: 0, channels: 2)
                                    / SignalMeasurement.rms(plain, frames: last, channel: 0, channels: 2))
        #expect(abs(difference) < 0.5, "the canceller changed the output level by \(difference) dB")
    }
}
