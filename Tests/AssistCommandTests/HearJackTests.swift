import Foundation
import TestSupport
import Testing

/// `assist hear --live` through a real JACK server of the test's own (dummy backend). Only
/// load-independent facts are asserted: gain, delay in samples (JACK runs the graph in order
/// within each period, so it does not depend on timing), what was said; times and dropouts
/// are measured and printed, never asserted (the 60-s soak is `scripts/bench --hearing-live`).
@Suite("assist hear --live through a JACK server", .serialized)
struct HearJackTests {
    struct Summary: Decodable {
        var hostAPI: String
        var sampleRateHz: Double
        var blockFrames: Int
        var blocks: Int
        var dropouts: Int
        var inputPeakDBFS: Double
        var outputPeakDBFS: Double
        var outputCeilingDBFS: Double
        var chainLatencyMilliseconds: Double
        var totalLatencyMilliseconds: Double
        var deviceLosses: Int
        var reconnections: Int
        var announcements: [String]
    }

    static func workspace() throws -> URL {
        let folder = try TemporaryFolder.make("hear-jack")
        try Data(HearCommandTests.audiogram.utf8).write(to: folder.appendingPathComponent("me.json"))
        return folder
    }

    /// Starts `assist hear --live …` with `typing` on stdin (kept open until the process ends).
    static func startHearing(_ arguments: [String], environment: [String: String], typing: String = "")
        throws -> (process: Process, output: URL, errorLines: PrintedLines, input: Pipe) {
        let output = TemporaryFolder.path("hear-jack-out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = AssistBinary.url
        process.arguments = ["hear", "--live"] + arguments
        let user = AssistBinary.userFolders()
        process.environment = ProcessInfo.processInfo.environment.merging(user.environment) { $1 }.merging(environment) { $1 }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: output)
        let errorPipe = Pipe()
        process.standardError = errorPipe
        let errorLines = PrintedLines(errorPipe.fileHandleForReading)
        try process.run()
        if !typing.isEmpty { input.fileHandleForWriting.write(Data(typing.utf8)) }
        return (process, output, errorLines, input)
    }

    /// Ends a hearing aid started with a long `--duration` the way a user does: `q`.
    static func quit(_ hearing: (process: Process, output: URL, errorLines: PrintedLines, input: Pipe)) {
        hearing.input.fileHandleForWriting.write(Data("q\n".utf8))
        hearing.process.waitUntilExit()
    }

    static func summary(_ output: URL) throws -> Summary {
        let text = try String(contentsOf: output, encoding: .utf8)
        guard let start = text.range(of: "{\n") else { throw JackServer.Failed(description: "no JSON summary in: \(text)") }
        return try JSONDecoder().decode(Summary.self, from: Data(text[start.lowerBound...].utf8))
    }

    /// The prescribed insertion gain at 1 kHz for the left ear, as `assist hear verify` states its target.
    static func targetGainAt1kHz(audiogram: URL) throws -> Double {
        let verify = try AssistBinary.run(["hear", "verify", "--audiogram", audiogram.path])
        let row = verify.standardOutput.split(separator: "\n").first { $0.hasPrefix("  1000 ") }!
        // "  1000     19.6 /  19.6 (-0.0) …": the 65 dB SPL column's target is the fourth number.
        let numbers = row.split(whereSeparator: { " /()".contains($0) }).compactMap { Double($0) }
        return numbers[5]
    }

    @Test("a 1 kHz tone burst sent into the hearing aid's JACK input comes out with the prescribed gain (±1 dB) after the chain's delay")
    func toneBurstGainAndDelay() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let audiogram = folder.appendingPathComponent("me.json")
        let target = try Self.targetGainAt1kHz(audiogram: audiogram)
        // Ended with `q` once the recording is made, not by a duration that a slow start could use up.
        let hearing = try Self.startHearing(["--audiogram", audiogram.path, "--duration", "600", "--json"], environment: jack.environment)
        defer { if hearing.process.isRunning { hearing.process.terminate() } }
        #expect(try jack.waitForPort("assist-hear:in_1"))
        // The test client: jack_metro's 1 kHz bursts (400 ms, one a second) at 65 dB SPL
        // (−45 dBFS at the default 110 dB SPL full scale) replace the dummy microphone.
        for input in ["in_1", "in_2"] { try jack.run("jack_disconnect", ["system:capture_\(input.suffix(1))", "assist-hear:\(input)"]) }
        let tone = try jack.launch("jack_metro", ["-n", "tone", "-b", "60", "-f", "1000", "-A", "0.005623", "-D", "400", "-a", "5", "-d", "5"])
        // jack_metro does not end on SIGTERM while its server runs.
        defer { kill(tone.processIdentifier, SIGKILL); tone.waitUntilExit() }
        #expect(try jack.waitForPort("tone:60_bpm"))
        for input in ["in_1", "in_2"] { #expect(try jack.run("jack_connect", ["tone:60_bpm", "assist-hear:\(input)"]).status == 0) }
        // 7 s of what goes in and what comes out, side by side, from the moment the tone is
        // connected: the last whole burst (one starts every second) begins at least 5 s in, after
        // the 2-s start-up ramp, without a wait for it.
        let recording = folder.appendingPathComponent("recording.wav")
        #expect(try jack.run("jack_rec", ["-f", recording.path, "-d", "7", "-b", "32", "tone:60_bpm", "assist-hear:out_1"]).status == 0)
        Self.quit(hearing)
        let summary = try Self.summary(hearing.output)
        #expect(summary.hostAPI == "JACK" && summary.sampleRateHz == 48_000 && summary.blockFrames == 64)
        #expect(summary.blocks > 0 && summary.inputPeakDBFS > -50 && summary.outputPeakDBFS <= summary.outputCeilingDBFS + 0.01)

        let samples = try floatSamples(of: recording)
        let reference = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let output = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        // The last whole burst (10-ms blocks above half its level, ended before the recording
        // ends): its middle 200 ms, away from the ramps.
        let blocks = reference.count / 480
        let active = (0..<blocks).map { b in (b * 480..<(b + 1) * 480).reduce(0.0) { $0 + Double(reference[$1] * reference[$1]) } / 480 > 4e-6 }
        var runs: [Range<Int>] = [], runStart: Int?
        for b in 0..<blocks {
            if active[b], runStart == nil { runStart = b }
            if !active[b], let first = runStart { runs.append(first..<b); runStart = nil }
        }
        guard let burst = runs.last(where: { $0.count >= 30 }) else { Issue.record("no tone burst recorded: \(runs)"); return }
        let centre = (burst.lowerBound + burst.upperBound) * 240
        let middle = (centre - 4_800)..<(centre + 4_800)
        // Delay, in two steps. Within a steady tone every lag a whole period (48 samples) apart
        // lines up almost equally well, so a dropout can tip a plain correlation of the burst's
        // middle to a neighbouring period (runs measured 96 and 144 for 192). The burst's end is
        // unambiguous: first where each signal's envelope (|x| averaged over one period) last
        // falls through half its level in the middle (the end, not the start: the compressor's
        // gain is settled there, while at the start it is still the higher gain for silence),
        // then the sample within half a period of that where the waveforms line up best.
        let referenceEnvelope = envelope(reference), outputEnvelope = envelope(output)
        func lastAboveHalf(_ x: [Float], before end: Int) -> Int {
            let half = middle.reduce(0) { $0 + x[$1] } / Float(middle.count) / 2
            return (middle.upperBound..<min(end, x.count)).last { x[$0] > half } ?? middle.upperBound
        }
        let edgeLag = lastAboveHalf(outputEnvelope, before: burst.upperBound * 480 + 2_400 + 1_024)
            - lastAboveHalf(referenceEnvelope, before: burst.upperBound * 480 + 2_400)
        let nearEdge = min(max(0, edgeLag - 24), 1_000)
        let bestLag = lagOfBestFit(reference: reference, output: output, over: middle, lags: nearEdge..<(nearEdge + 49))
        func rms(_ x: [Float], _ range: Range<Int>) -> Double { (range.reduce(0.0) { $0 + Double(x[$1] * x[$1]) } / Double(range.count)).squareRoot() }
        let gain = 20 * log10(rms(output, middle.lowerBound + bestLag..<middle.upperBound + bestLag) / rms(reference, middle))
        print("JACK round trip at 64-frame periods: delay \(bestLag) samples (\(Double(bestLag) / 48.0) ms), gain \(gain) dB, "
              + "target \(target) dB, \(summary.dropouts) dropouts in \(summary.blocks) blocks")
        #expect(abs(gain - target) <= 1, "gain \(gain) dB, prescribed \(target) dB")
        // The chain's 192-sample delay (4.0 ms), or one 64-frame period more where the aid's
        // block lines up one period late with the server's; half a tone period either way.
        #expect(bestLag >= 192 - 24 && bestLag <= 192 + 64 + 24, "delay \(bestLag) samples (end of the burst: \(edgeLag))")
        #expect(summary.chainLatencyMilliseconds == Double(192 + 64) / 48)
        // The ports' latencies are in the total, read once the server had worked them out (at
        // start they could still be 0: the bench once reported the chain alone).
        #expect(summary.totalLatencyMilliseconds > summary.chainLatencyMilliseconds + 1, "\(summary.totalLatencyMilliseconds) ms")
    }

    @Test("""
        the JACK server stopping mid-run is said ("The sound device went away; trying again.") and the hearing aid \
        comes back when it returns; a program switch is said in the ear
        """)
    func serverStopsAndReturns() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let folder = try Self.workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let hearing = try Self.startHearing(["--audiogram", folder.appendingPathComponent("me.json").path, "--duration", "600", "--json"],
                                            environment: jack.environment, typing: "program tv\n")
        defer { if hearing.process.isRunning { hearing.process.terminate() } }
        #expect(try jack.waitForPort("assist-hear:out_1"))
        // Each step waits for what the hearing aid says, not for a time: it is listening (the
        // typed program switch was said), it noticed the server go, it is back on the new one.
        try #require(hearing.errorLines.wait(for: "Program tv."))
        jack.stop()
        try #require(hearing.errorLines.wait(for: "The sound device went away; trying again."))
        try jack.start()
        try #require(hearing.errorLines.wait(for: "The sound is back."))
        #expect(try jack.waitForPort("assist-hear:out_1"))
        Self.quit(hearing)
        #expect(hearing.process.terminationStatus == 0)
        let summary = try Self.summary(hearing.output)
        #expect(summary.deviceLosses >= 1 && summary.reconnections >= 1)
        #expect(summary.announcements.contains("Program tv.") && summary.announcements.contains("The sound device went away; trying again."))
        #expect(summary.announcements.contains("The sound is back."))
        // The dummy microphone is silent: all the output is the spoken announcements, within the ceiling.
        #expect(summary.inputPeakDBFS < -100)
        #expect(summary.outputPeakDBFS > -50 && summary.outputPeakDBFS <= summary.outputCeilingDBFS + 0.01)
        print("server stop: \(summary.deviceLosses) losses, \(summary.reconnections) reconnections, \(summary.dropouts) dropouts")
    }
}

/// |x| averaged over one period of the 1 kHz test tone (48 samples at 48 kHz), centred.
private func envelope(_ x: [Float]) -> [Float] {
    var sums = [Double](repeating: 0, count: x.count + 1)
    for i in x.indices { sums[i + 1] = sums[i] + Double(abs(x[i])) }
    return x.indices.map { i in
        let low = max(0, i - 24), high = min(x.count, i + 24)
        return Float((sums[high] - sums[low]) / Double(high - low))
    }
}

/// The lag, among `lags`, at which `output` best lines up with `reference` over `range`.
private func lagOfBestFit(reference: [Float], output: [Float], over range: Range<Int>, lags: Range<Int>) -> Int {
    var bestLag = lags.lowerBound, best = -Double.infinity
    for lag in lags {
        var sum = 0.0
        for i in range { sum += Double(reference[i]) * Double(output[i + lag]) }
        if sum > best { best = sum; bestLag = lag }
    }
    return bestLag
}
