import Foundation
import TestSupport
import Testing
@testable import Hearing
import Media

@Suite("Audiogram files and audio files")
struct FileTests {
    func temporaryFile(_ name: String, contents: String? = nil) throws -> URL {
        let directory = try TemporaryFolder.make("hearing-tests")
        let url = directory.appendingPathComponent(name)
        if let contents { try contents.write(to: url, atomically: true, encoding: .utf8) }
        return url
    }

    @Test("a JSON audiogram with both ears, a rule and a UCL becomes a prescription")
    func readsDocument() throws {
        let url = try temporaryFile("a.json", contents: """
        {"rule": "nal-r", "maximumOutputSPL": 95,
         "left": {"thresholds": {"250": 20, "500": 30, "1000": 40, "2000": 55, "4000": 70, "8000": 75}},
         "right": {"thresholds": {"500": 40, "1000": 40, "2000": 40}, "uncomfortable": {"1000": 80}}}
        """)
        let prescription = try AudiogramDocument.load(from: url).prescription()
        #expect(prescription.options.rule == .nalR)
        #expect(abs(prescription.left.band(atHz: 2000)!.mediumGain - 22.3) < 0.01)
        #expect(prescription.right.band(atHz: 1000)!.maximumOutputSPL == 87)
        #expect(prescription.left.band(atHz: 1000)!.maximumOutputSPL == 95)
    }

    @Test("a document missing an ear, with a value out of range, or not JSON is refused in one sentence")
    func badDocuments() throws {
        let oneEar = try temporaryFile("b.json", contents: #"{"left": {"thresholds": {"500": 30, "1000": 40, "2000": 50}}}"#)
        #expect(throws: HearingError.missingEar(.right)) { try AudiogramDocument.load(from: oneEar).audiogram() }
        let outOfRange = try temporaryFile("c.json", contents: #"{"left": {"thresholds": {"500": 30, "1000": 140, "2000": 50}}, "right": {"thresholds": {"500": 30, "1000": 40, "2000": 50}}}"#)
        #expect(throws: HearingError.thresholdOutOfRange(ear: .left, frequencyHz: 1000, decibelsHL: 140)) {
            try AudiogramDocument.load(from: outOfRange).audiogram()
        }
        let notJSON = try temporaryFile("d.json", contents: "250 Hz: 20 dB")
        #expect(throws: HearingError.unreadableAudiogram(path: notJSON.path, reason: "it is not valid JSON")) {
            try AudiogramDocument.load(from: notJSON)
        }
        let unknownRule = try temporaryFile("e.json", contents: #"{"rule": "dsl-v5", "left": {"thresholds": {"500": 30, "1000": 40, "2000": 50}}, "right": {"thresholds": {"500": 30, "1000": 40, "2000": 50}}}"#)
        #expect(throws: HearingError.unknownFittingRule("dsl-v5")) { try AudiogramDocument.load(from: unknownRule).prescription() }
    }

    @Test("a WAV written through libsndfile reads back with its rate, channels and samples")
    func wavRoundTrip() throws {
        let url = try temporaryFile("tone.wav")
        let tone = TestSignals.tone(frequencyHz: 440, amplitude: 0.5, seconds: 0.1, sampleRate: 44_100)
        let stereo = tone.flatMap { x -> [Float] in [x, -x] }
        try AudioFile.writeWAV(AudioBuffer(samples: stereo, sampleRate: 44_100, channelCount: 2), to: url, encoding: .float32)
        let back = try AudioFile.read(url)
        #expect(back.sampleRate == 44_100 && back.channelCount == 2 && back.frameCount == tone.count)
        #expect(back.samples == stereo)
        // 16-bit: quantised, and out-of-range samples clip instead of wrapping.
        try AudioFile.writeWAV(AudioBuffer(samples: [0.25, 1.5, -1.5], sampleRate: 48_000, channelCount: 1), to: url)
        let pcm = try AudioFile.read(url).samples
        #expect(abs(pcm[0] - 0.25) < 1e-4 && pcm[1] > 0.99 && pcm[2] < -0.99)
    }

    @Test("a missing file and a file that is not audio are refused in one sentence")
    func badAudioFiles() throws {
        let missing = try temporaryFile("nothing.wav")
        #expect(throws: AudioFileError.missing(path: missing.path)) { try AudioFile.read(missing) }
        let text = try temporaryFile("notes.wav", contents: "these are not samples, just some words in a text file")
        #expect(throws: AudioFileError.notAudio(path: text.path)) { try AudioFile.read(text) }
        #expect(AudioFileError.notAudio(path: "x.wav").userMessage == "The file x.wav is not a sound file that can be read, or its header is damaged (WAV, FLAC and Ogg files are read).")
    }
}

@Suite("Live audio devices")
struct LiveAudioTests {
    @Test("asking for a device that does not exist gives one sentence (no device, or not found), never a crash")
    func missingDevice() throws {
        let audio = try AudioDuplexStream()
        do {
            _ = try audio.device(named: "no such device 4f1c", forInput: true)
            Issue.record("a device with an impossible name was found")
        } catch let error as AudioDeviceError {
            switch error {
            case .noAudioDevice, .deviceNotFound: #expect(error.userMessage.hasSuffix("."))
            default: Issue.record("unexpected \(error)")
            }
        }
    }
}
