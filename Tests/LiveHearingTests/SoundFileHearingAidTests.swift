import Foundation
import Hearing
import LiveHearing
import Media
import Prescription
import TestSupport
import Testing

@Suite("The hearing chain run on a sound file (assist serve --hear-input)")
struct SoundFileHearingAidTests {
    @Test("a file shorter than the run loops, its level shows in the monitors, and commands act as in assist hear --live")
    func loopsAndTakesCommands() throws {
        let folder = try TemporaryFolder.make("sound-file-aid")
        defer { try? FileManager.default.removeItem(at: folder) }
        let audiogram = folder.appendingPathComponent("me.json")
        try Data(#"{"rule": "nal-r", "left": {"thresholds": {"250": 20, "500": 30, "1000": 40, "2000": 55, "4000": 70}}, "right": {"thresholds": {"250": 20, "500": 30, "1000": 40, "2000": 55, "4000": 70}}}"#.utf8)
            .write(to: audiogram)
        // 0.05 s of a 1 kHz tone: under five 512-frame blocks, so twenty blocks read it four times.
        let tone = folder.appendingPathComponent("tone.wav")
        let samples = (0..<2_400).map { Float(0.1 * sin(2 * Double.pi * 1000 * Double($0) / 48_000)) }
        try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: 48_000, channelCount: 1), to: tone)
        let fitted = try HearingFitting(audiogramFile: audiogram.path).fitted(openStore: { throw PrescriptionError.noPrescriptionInUse }, tell: { _ in })
        let said = SaidLines()
        let aid = try SoundFileHearingAid(fitted: fitted, soundFile: tone, say: { said.append($0) }, show: { _ in })
        for _ in 0..<20 { try aid.processNextBlock() }
        #expect(aid.blocksProcessed == 20)
        let band1k = try #require(HearingMonitors.bandFrequenciesHz.firstIndex(of: 1000))
        #expect(aid.control.monitors.value(.inputLevelSPL, ear: .left, band: band1k) > 40)
        try aid.session.perform(.program("tv"))
        #expect(aid.control.settings.program == .tv)
        #expect(said.all == [LiveHearingSession.spokenName(.tv)])
        #expect(throws: PrescriptionError.debuggingModeLocked) { try aid.session.perform(.threshold("left:2000=60")) }
    }
}

final class SaidLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
