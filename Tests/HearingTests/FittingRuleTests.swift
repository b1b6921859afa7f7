import Testing
@testable import Hearing

/// The three audiograms of the acceptance criteria. The sloping and reverse-slope ones leave
/// out 750, 1500, 3000 and 6000 Hz on purpose, so the hand-computed values also check the
/// log-frequency interpolation (e.g. 750 Hz on the sloping loss: 30 + log2(1.5)·10 = 35.8496).
enum TestAudiograms {
    static func flat40() throws -> EarAudiogram { try .flat(40) }
    static func slopingHighFrequency() throws -> EarAudiogram {
        try EarAudiogram(ear: .left, thresholdsHL: [250: 20, 500: 30, 1000: 40, 2000: 55, 4000: 70, 8000: 75])
    }
    static func reverseSlope() throws -> EarAudiogram {
        try EarAudiogram(ear: .left, thresholdsHL: [250: 60, 500: 55, 1000: 45, 2000: 35, 4000: 25, 8000: 20])
    }
}

let ruleFrequencies: [Double] = [250, 500, 750, 1000, 1500, 2000, 3000, 4000, 6000]

func expectGains(_ rule: FittingRule, _ audiogram: EarAudiogram, _ expected: [Double],
                 sourceLocation: SourceLocation = #_sourceLocation) {
    for (f, want) in zip(ruleFrequencies, expected) {
        let got = rule.insertionGain(for: audiogram, frequencyHz: f)
        #expect(abs(got - want) <= 0.1, "\(rule.rawValue) at \(f) Hz: \(got) dB, hand-computed \(want) dB",
                sourceLocation: sourceLocation)
    }
}

@Suite("Fitting rules match hand-computed targets")
struct FittingRuleTests {
    // NAL-R: G = 0.31·H + 0.15·(H500+H1000+H2000)/3 + k(f), clipped at 0.
    @Test("NAL-R for a flat 40 dB HL loss: X = 6, 0.31·40 = 12.4, plus k(f)")
    func nalRFlat() throws {
        expectGains(.nalR, try TestAudiograms.flat40(), [1.4, 10.4, 15.4, 19.4, 19.4, 17.4, 16.4, 16.4, 16.4])
    }

    @Test("NAL-R for a sloping high-frequency loss clips the negative 250 Hz gain to 0")
    func nalRSloping() throws {
        // 3FA = (30+40+55)/3 = 41.667, X = 6.25; 250 Hz: 6.2 + 6.25 − 17 = −4.55 → 0.
        expectGains(.nalR, try TestAudiograms.slopingHighFrequency(),
                    [0, 7.55, 14.3634, 19.65, 22.3701, 22.3, 24.0201, 25.95, 26.8567])
    }

    @Test("NAL-R for a reverse-slope loss")
    func nalRReverse() throws {
        // 3FA = 45, X = 6.75.
        expectGains(.nalR, try TestAudiograms.reverseSlope(),
                    [8.35, 15.8, 18.9866, 21.7, 19.8866, 16.6, 13.7866, 12.5, 11.5933])
    }

    @Test("NAL-RP equals NAL-R below 60 dB HL 3FA and 95 dB HL at 2 kHz")
    func nalRPMatchesNalRForModerateLoss() throws {
        expectGains(.nalRP, try TestAudiograms.slopingHighFrequency(),
                    [0, 7.55, 14.3634, 19.65, 22.3701, 22.3, 24.0201, 25.95, 26.8567])
    }

    @Test("NAL-RP for a flat 100 dB HL loss adds 0.2·(3FA − 60) and the 100 dB HL row of corrections")
    func nalRPProfound() throws {
        // X = 0.15·100 + 0.2·40 = 23; 0.31·100 = 31; corrections (100 dB HL row) 6 4 [1.66] 0 −2 −3 −3 −3 −3.
        // 750 Hz correction: 4 + log2(1.5)·(0 − 4) = 1.6602.
        expectGains(.nalRP, try .flat(100), [43, 50, 52.6602, 55, 53, 50, 49, 49, 49])
    }

    @Test("NAL-RP interpolates the profound correction between the 95 and 100 dB HL rows")
    func nalRPInterpolatesRows() throws {
        let ear = try EarAudiogram(ear: .left, thresholdsHL: [250: 97.5, 500: 97.5, 1000: 97.5, 2000: 97.5, 4000: 97.5])
        // X = 14.625 + 0.2·37.5 = 22.125; 0.31·97.5 = 30.225; 250 Hz correction (4+6)/2 = 5.
        #expect(abs(FittingRule.nalRP.insertionGain(for: ear, frequencyHz: 250) - (30.225 + 22.125 - 17 + 5)) < 0.01)
    }

    @Test("half-gain rule gives half the threshold")
    func halfGain() throws {
        expectGains(.halfGain, try TestAudiograms.flat40(), Array(repeating: 20, count: 9))
        expectGains(.halfGain, try TestAudiograms.slopingHighFrequency(),
                    [10, 15, 17.9248, 20, 24.3872, 27.5, 31.8872, 35, 36.4624])
        expectGains(.halfGain, try TestAudiograms.reverseSlope(),
                    [30, 27.5, 24.5752, 22.5, 19.5752, 17.5, 14.5752, 12.5, 11.0376])
    }

    @Test("POGO is half gain less 10 dB at 250 Hz and 5 dB at 500 Hz")
    func pogo() throws {
        expectGains(.pogo, try TestAudiograms.flat40(), [10, 15, 20, 20, 20, 20, 20, 20, 20])
        expectGains(.pogo, try TestAudiograms.slopingHighFrequency(),
                    [0, 10, 17.9248, 20, 24.3872, 27.5, 31.8872, 35, 36.4624])
        expectGains(.pogo, try TestAudiograms.reverseSlope(),
                    [20, 22.5, 24.5752, 22.5, 19.5752, 17.5, 14.5752, 12.5, 11.0376])
    }

    @Test("FIG6 soft, medium and loud gains for 50 and 70 dB HL thresholds")
    func fig6Points() {
        // H = 50: 50−20 = 30; 0.6·30 = 18; 0.1·10^1.4 = 2.5119.
        #expect(abs(FittingRule.fig6Gain40(50) - 30) < 1e-9)
        #expect(abs(FittingRule.fig6Gain65(50) - 18) < 1e-9)
        #expect(abs(FittingRule.fig6Gain95(50) - 2.5119) < 1e-3)
        // H = 70: 70−20−5 = 45; 0.8·70−23 = 33; 0.1·30^1.4 = 11.6942.
        #expect(abs(FittingRule.fig6Gain40(70) - 45) < 1e-9)
        #expect(abs(FittingRule.fig6Gain65(70) - 33) < 1e-9)
        #expect(abs(FittingRule.fig6Gain95(70) - 11.6942) < 1e-3)
        // Normal hearing gets no gain at any level.
        #expect(FittingRule.fig6Gain40(15) == 0 && FittingRule.fig6Gain65(15) == 0 && FittingRule.fig6Gain95(35) == 0)
    }

    @Test("a FIG6 prescription interpolates 50 and 80 dB SPL targets between the published points")
    func fig6Prescription() throws {
        let prescription = try EarPrescription(ear: .left, audiogram: try .flat(50), options: FittingOptions(rule: .fig6))
        let band = try #require(prescription.band(atHz: 1000))
        // 50 dB SPL: 30 + (10/25)·(18 − 30) = 25.2; 80 dB SPL: 18 + (15/30)·(2.5119 − 18) = 10.256.
        #expect(abs(band.softGain - 25.2) < 0.01)
        #expect(abs(band.mediumGain - 18) < 0.01)
        #expect(abs(band.loudGain - 10.256) < 0.01)
        #expect(band.lowerCompressionRatio > 1.1 && band.upperCompressionRatio < 3)
        #expect(abs(band.insertionGain(inputLevelSPL: 65) - 18) < 1e-9)
        #expect(abs(band.insertionGain(inputLevelSPL: 30) - band.insertionGain(inputLevelSPL: 45)) < 1e-9, "linear below the knee")
    }

    @Test("fitting rules are chosen by name, and an unknown name is refused in one sentence")
    func ruleNames() throws {
        #expect(try FittingRule(named: "NAL-R") == .nalR)
        #expect(try FittingRule(named: "nal_rp") == .nalRP)
        #expect(try FittingRule(named: "half-gain") == .halfGain)
        #expect(throws: HearingError.unknownFittingRule("dsl")) { try FittingRule(named: "dsl") }
    }
}

@Suite("Audiogram validation and conversions")
struct AudiogramTests {
    @Test("a threshold outside −10…120 dB HL is refused and named")
    func outOfRange() {
        #expect(throws: HearingError.thresholdOutOfRange(ear: .right, frequencyHz: 1000, decibelsHL: 130)) {
            try EarAudiogram(ear: .right, thresholdsHL: [500: 30, 1000: 130, 2000: 40])
        }
        #expect(throws: HearingError.self) { try EarAudiogram(ear: .left, thresholdsHL: [500: -20, 1000: 30, 2000: 40]) }
        let message = HearingError.thresholdOutOfRange(ear: .right, frequencyHz: 1000, decibelsHL: 130).userMessage
        #expect(message.contains("right") && message.contains("1000 Hz") && message.hasSuffix("."))
    }

    @Test("an audiogram without the speech frequencies, or at a non-standard frequency, is refused")
    func missingFrequencies() {
        #expect(throws: HearingError.tooFewThresholds(.left)) { try EarAudiogram(ear: .left, thresholdsHL: [4000: 50]) }
        #expect(throws: HearingError.notAnAudiometricFrequency(1234)) {
            try EarAudiogram(ear: .left, thresholdsHL: [500: 20, 1234: 30, 2000: 40])
        }
    }

    @Test("missing frequencies are interpolated in log frequency and held beyond the ends")
    func interpolation() throws {
        let ear = try TestAudiograms.slopingHighFrequency()
        #expect(abs(ear.thresholdHL(atHz: 750) - 35.8496) < 1e-3)
        #expect(ear.thresholdHL(atHz: 125) == 20)
        #expect(ear.thresholdHL(atHz: 8000) == 75)
    }

    @Test("dB HL ↔ dB SPL uses the TDH-39 RETSPL; dBFS ↔ dB SPL uses the calibration setting")
    func conversions() throws {
        #expect(LevelCalibration.spl(fromHL: 40, frequencyHz: 1000) == 47)
        #expect(LevelCalibration.hl(fromSPL: 65.5, frequencyHz: 250) == 40)
        let calibration = LevelCalibration(inputFullScaleSPL: 105, outputFullScaleSPL: 100)
        #expect(calibration.inputDBFS(fromSPL: 65) == -40)
        #expect(calibration.outputSPL(fromDBFS: -20) == 80)
        #expect(abs(calibration.linearFactor(insertionGainDecibels: 0) - amplitude(decibels: 5)) < 1e-12)
        #expect(throws: HearingError.calibrationOutOfRange(200)) { try LevelCalibration(inputFullScaleSPL: 200).validated() }
    }

    @Test("a UCL lowers the band's maximum output, and no setting exceeds 111 dB SPL")
    func maximumOutput() throws {
        let ear = try EarAudiogram(ear: .left, thresholdsHL: [500: 40, 1000: 40, 2000: 40], uncomfortableLevelsHL: [1000: 85])
        let prescription = try EarPrescription(ear: .left, audiogram: ear, options: FittingOptions(rule: .nalR))
        #expect(prescription.band(atHz: 1000)?.maximumOutputSPL == 92) // 85 dB HL + 7 dB RETSPL
        #expect(throws: HearingError.maximumOutputOutOfRange(115)) {
            try EarPrescription(ear: .left, audiogram: ear, options: FittingOptions(maximumOutputSPL: 115))
        }
    }
}
