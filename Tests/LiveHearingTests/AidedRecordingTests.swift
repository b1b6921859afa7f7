import Foundation
import TestSupport
import Hearing
import LiveHearing
import Media
import Prescription
import Testing

@Suite("A recording heard through the fitted chain (assist hear IN -o OUT), in process")
struct AidedRecordingTests {
    static func settings() throws -> HearingAidSettings {
        let hearing = PrescribedHearing(audiogram: try LiveHearingSessionTests.audiogram(), options: FittingOptions(rule: .nalR),
                                        programs: [.quiet], origin: "test")
        return HearingAidSettings(prescription: try hearing.fitting())
    }

    @Test("OUT is stereo with IN's exact length; damaged samples are counted and said, and played as silence")
    func alignedAndDamageCounted() throws {
        let folder = try TemporaryFolder.make("aided")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.wav"), output = folder.appendingPathComponent("out.wav")
        // 0.5 s of a 1 kHz tone at 48 kHz, with two samples that are not numbers.
        var samples = (0..<24_000).map { Float(0.1 * sin(2 * Double.pi * 1000 * Double($0) / 48_000)) }
        samples[100] = .nan
        samples[20_000] = .infinity
        let writer = try AudioFileWriter(url: input, sampleRate: 48_000, channelCount: 1, encoding: .float32)
        try writer.write(samples)
        writer.close()

        var warnings: [String] = []
        let result = try AidedRecording(settings: try Self.settings())
            .process(input, into: output, warn: { warnings.append($0) })
        #expect(result.damagedSamples == 2)
        #expect(warnings == ["2 samples of \(input.path) were damaged (not a number, or far beyond full scale) and played as silence."])
        #expect(abs(result.seconds - 0.5) < 1e-9)
        let reader = try AudioFileReader(url: output)
        #expect(reader.channelCount == 2)
        #expect(reader.frameCount == samples.count)
        let aided = try reader.read(maxFrames: reader.frameCount)
        #expect(aided.allSatisfy { $0.isFinite })
    }

    @Test("an empty recording is refused by name, not written as a success")
    func emptyInput() throws {
        let folder = try TemporaryFolder.make("aided")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("empty.wav")
        try AudioFileWriter(url: input, sampleRate: 48_000, channelCount: 1).close()
        #expect(throws: AudioFileError.empty(path: input.path)) {
            _ = try AidedRecording(settings: try Self.settings()).process(input, into: folder.appendingPathComponent("out.wav"))
        }
    }

    @Test("an audiogram file needs no store: it always ramps in at a live start, at the chosen volume, and unlocks no debugging")
    func audiogramFileFitting() throws {
        let folder = try TemporaryFolder.make("fitting")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("me.json")
        try Data(#"{"rule": "nal-r", "left": {"thresholds": {"500": 30, "1000": 40, "2000": 55}}, "right": {"thresholds": {"500": 30, "1000": 45, "2000": 60}}}"#.utf8)
            .write(to: file)
        var told: [String] = []
        let fitted = try HearingFitting(audiogramFile: file.path, program: "quiet")
            .fitted(openStore: { throw AudioFileError.missing(path: "no store may be opened for an audiogram file") },
                    tell: { told.append($0) })
        #expect(told.isEmpty)
        #expect(fitted.store == nil && fitted.liveDebugging == nil)
        let live = fitted.liveSettings(volumeSteps: -2)
        #expect(live.startupRampSeconds == 2)
        #expect(live.volumeSteps == -2)
        #expect(live.program == .quiet)
    }
}
