@testable import Hearing

/// Builds a prepared processor for tests: 48 kHz, 64-frame blocks, no start-up ramp unless asked.
func makeProcessor(left: EarAudiogram, right: EarAudiogram? = nil, rule: FittingRule = .nalR,
                   program: ListeningProgram = .quiet, bypass: ProcessingBypass = [.noiseReduction],
                   inputChannels: Int = 1, blockSize: Int = 64, sampleRate: Double = 48_000,
                   startupRampSeconds: Double = 0, maximumOutputSPL: Double = 100) throws -> HearingAidProcessor {
    let audiogram = Audiogram(left: left, right: right ?? left)
    let prescription = try Prescription(audiogram: audiogram, options: FittingOptions(rule: rule, maximumOutputSPL: maximumOutputSPL))
    let settings = HearingAidSettings(prescription: prescription, program: program, bypass: bypass,
                                      startupRampSeconds: startupRampSeconds)
    let processor = HearingAidProcessor(control: try HearingAidControl(settings: settings))
    try processor.prepare(try ProcessingFormat(sampleRate: sampleRate, blockSize: blockSize, inputChannels: inputChannels))
    return processor
}

/// Insertion gain (dB) of a steady tone: output SPL minus input SPL, read on the last `measureSeconds`.
func measuredInsertionGain(_ processor: HearingAidProcessor, frequencyHz: Double, inputSPL: Double, ear: Ear = .left,
                           seconds: Double = 0.35, measureSeconds: Double = 0.15) -> Double {
    let rate = processor.format!.sampleRate
    let calibration = processor.control.settings.calibration
    let input = TestSignals.tone(frequencyHz: frequencyHz, amplitude: calibration.inputSineAmplitude(spl: inputSPL),
                                 seconds: seconds, sampleRate: rate)
    let channels = processor.format!.inputChannels
    let interleaved = channels == 1 ? input : input.flatMap { x -> [Float] in [x, x] }
    let output = processor.processAll(interleaved)
    let frames = input.count
    let range = (frames - Int(measureSeconds * rate))..<frames
    let amplitudeOut = SignalMeasurement.toneAmplitude(output, frequencyHz: frequencyHz, sampleRate: rate, frames: range,
                                                       channel: ear.channelIndex, channels: 2)
    let outputSPL = calibration.outputSPL(fromDBFS: 20 * log10(amplitudeOut))
    return outputSPL - inputSPL
}

import Foundation
