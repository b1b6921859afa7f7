import Foundation
import TestSupport
import Testing

/// Issue 16 item 2's reproducers through the binary: a float WAV of a 0.1 sine with one sample
/// of 3e38, and the same file scaled to 1e20, once drove both outputs to full scale.
@Suite("assist hear with damaged float WAVs")
struct HearSafetyCommandTests {
    /// A 1-s, 0.1-amplitude 1 kHz float WAV made by sox, with `change` applied to its samples.
    static func floatWAV(in folder: URL, name: String, change: (inout [Float]) -> Void) throws -> URL {
        let url = folder.appendingPathComponent(name)
        _ = try Program.run(Program.named("sox"), ["-n", "-r", "48000", "-c", "1", "-e", "floating-point", "-b", "32", url.path,
                                                   "synth", "1", "sine", "1000", "vol", "0.1"])
        var bytes = try Data(contentsOf: url)
        guard let marker = bytes.range(of: Data("data".utf8)) else { throw JackServer.Failed(description: "no data chunk") }
        let start = marker.upperBound + 4
        var samples = bytes[start...].withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        change(&samples)
        bytes.replaceSubrange(start..., with: samples.withUnsafeBytes { Data($0) })
        try bytes.write(to: url)
        return url
    }

    @Test("one 3e38 sample, or the whole file at 1e20: the output stays at or below the fitted −10 dBFS ceiling and the damage is said",
          arguments: ["spike", "scaled"])
    func damagedFloatWAV(kind: String) throws {
        let folder = try TemporaryFolder.make("hear-safety")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(HearCommandTests.audiogram.utf8).write(to: folder.appendingPathComponent("me.json"))
        let input = try Self.floatWAV(in: folder, name: "\(kind).wav") { samples in
            if kind == "spike" { samples[24_000] = 3e38 } else { samples = samples.map { $0 * 1e20 } }
        }
        let output = folder.appendingPathComponent("aided.wav")
        let run = try AssistBinary.run(["hear", input.path, "-o", output.path, "--audiogram", folder.appendingPathComponent("me.json").path])
        #expect(run.status == 0, "\(run.standardError)")
        // Every sample of the scaled file is damaged but those at the sine's zero crossings.
        let said = kind == "spike" ? "1 sample of \(input.path) was damaged" : "samples of \(input.path) were damaged"
        #expect(run.standardError.contains(said), "\(run.standardError)")
        let aided = try floatSamples(of: output)
        let ceiling: Float = 0.3163   // 100 dB SPL maximum output at 110 dB SPL full scale: −10 dBFS
        let peak = aided.map(abs).max() ?? 1
        #expect(peak <= ceiling, "peak \(20 * log10(peak)) dBFS")
        if kind == "spike" {
            // Not stuck: the last quarter second is the aided sine, not silence and not a rail.
            let tail = aided.suffix(24_000)
            #expect(tail.map(abs).max()! > 0.1 && tail.map(abs).max()! < ceiling)
        }
    }
}
