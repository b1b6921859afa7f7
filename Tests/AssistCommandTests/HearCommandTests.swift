import Foundation
import TestSupport
import Testing

@Suite("assist hear, as an audiologist or a patient runs it", .serialized)
struct HearCommandTests {
    static let audiogram = """
    {"rule": "nal-r",
     "left":  {"thresholds": {"250": 20, "500": 30, "1000": 40, "2000": 55, "4000": 70, "8000": 75}},
     "right": {"thresholds": {"250": 25, "500": 35, "1000": 45, "2000": 60, "4000": 70}}}
    """

    /// A scratch folder with the audiogram and a tone made by sox (installed by scripts/setup).
    func workspace(toneRate: Int = 48000) throws -> URL {
        let folder = try TemporaryFolder.make("hear")
        try Data(Self.audiogram.utf8).write(to: folder.appendingPathComponent("me.json"))
        _ = try Program.run(Program.named("sox"), ["-n", "-r", "\(toneRate)", "-c", "1", "-b", "16", folder.appendingPathComponent("tone.wav").path,
                                                   "synth", "1", "sine", "2000", "vol", "0.05"])
        return folder
    }

    @Test("a file is processed into a stereo WAV of the same length, louder where the loss needs gain")
    func processesFile() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try AssistBinary.run(["hear", folder.appendingPathComponent("tone.wav").path,
                                           "-o", folder.appendingPathComponent("aided.wav").path,
                                           "--audiogram", folder.appendingPathComponent("me.json").path])
        #expect(output.status == 0)
        let inputSize = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("tone.wav").path)[.size] as? Int ?? 0
        let outputSize = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("aided.wav").path)[.size] as? Int ?? 0
        // Mono 16-bit in, stereo 16-bit out, same duration: twice the bytes (give or take the header).
        #expect(abs(outputSize - 2 * inputSize) < 200)
        // NAL-R prescribes about 22 dB at 2 kHz for this loss: the aided tone is several times stronger.
        let gain = try rms(folder.appendingPathComponent("aided.wav")) / rms(folder.appendingPathComponent("tone.wav"))
        #expect(gain > 5)
    }

    func rms(_ file: URL) throws -> Double { try SoxLevel.rms(file.path) }

    @Test("verify prints measured insertion gain against target for both ears, within 2 dB from 250 Hz to 6 kHz")
    func verify() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("gains.svg")
        let output = try AssistBinary.run(["hear", "verify", "--audiogram", folder.appendingPathComponent("me.json").path,
                                           "--plot", svg.path])
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("Left ear") && output.standardOutput.contains("Right ear"))
        // Rows of the tone tables: "  1000     19.6 /  19.6 (-0.0) …"; every error in parentheses within ±2 dB.
        let errors = output.standardOutput.split(separator: "\n")
            .filter { line in ["250", "500", "1000", "2000", "4000", "6000"].contains { line.hasPrefix("  \($0) ") } && line.contains("(") }
            .flatMap { line in line.split(separator: "(").dropFirst().compactMap { Double($0.prefix { $0 != ")" }) } }
        #expect(errors.count >= 24)
        #expect(errors.allSatisfy { abs($0) <= 2 })
        let plot = try String(contentsOf: svg, encoding: .utf8)
        #expect(plot.hasPrefix("<?xml") || plot.hasPrefix("<svg"))
    }

    @Test("an unknown program, a low sample rate and a missing audiogram each get one sentence and a non-zero status")
    func badInput() throws {
        let folder = try workspace(toneRate: 16000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tone = folder.appendingPathComponent("tone.wav").path, out = folder.appendingPathComponent("o.wav").path
        let audiogram = folder.appendingPathComponent("me.json").path
        let program = try AssistBinary.run(["hear", tone, "-o", out, "--audiogram", audiogram, "--program", "disco"])
        #expect(program.status != 0 && program.standardError.contains("disco"))
        // Thrown from validate(): still one sentence, without ArgumentParser's "Error:" and usage.
        #expect(program.standardError.split(separator: "\n").count == 1 && !program.standardError.contains("Error:"))
        let rate = try AssistBinary.run(["hear", tone, "-o", out, "--audiogram", audiogram])
        #expect(rate.status != 0 && rate.standardError.contains("16000 Hz"))
        let missing = try AssistBinary.run(["hear", tone, "-o", out, "--audiogram", "/nonexistent/me.json"])
        #expect(missing.status != 0 && missing.standardError.contains("/nonexistent/me.json"))
    }
}
