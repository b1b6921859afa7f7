import ArgumentParser
import Foundation
import Hearing
import Media

/// Hidden: processes a file through the fitted chain with noise reduction on or bypassed, so the
/// benchmark can score speech quality with and without it under the same prescription and program
/// (`assist hear` itself has no switch for that, and should not: it is a measurement knob).
struct BenchHearingFile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearing-file",
        abstract: "Processes IN through the hearing chain into OUT (stereo, aligned with IN), optionally with noise reduction bypassed.",
        discussion: """
        Example:
          assist bench hearing-file speech_in_noise.wav -o aided.wav --audiogram sloping.json --program restaurant --no-noise-reduction
        """)

    @Argument(help: ArgumentHelp("The input audio file.", valueName: "in"))
    var input: String

    @Option(name: .shortAndLong, help: "The output WAV file (stereo, 32-bit float, same length and timing as the input).")
    var output: String

    @OptionGroup var fitting: FittingArguments

    @Flag(help: "Bypass noise reduction (everything else in the chain stays as prescribed).")
    var noNoiseReduction = false

    func run() async throws {
        try await reportingErrors {
            var settings = try fitting.settings()
            settings.startupRampSeconds = 0
            if noNoiseReduction { settings.bypass.insert(.noiseReduction) }
            let reader = try AudioFileReader(url: URL(fileURLWithPath: input))
            let format = try ProcessingFormat(sampleRate: reader.sampleRate, blockSize: 64, inputChannels: reader.channelCount)
            let processor = HearingAidProcessor(control: try HearingAidControl(settings: settings))
            try processor.prepare(format)
            var samples = try reader.read(maxFrames: reader.frameCount)
            // Flush the chain's delay with silence and drop it at the start, so OUT lines up with IN.
            samples.append(contentsOf: [Float](repeating: 0, count: processor.latencyFrames * reader.channelCount))
            var processed = processor.processAll(samples)
            processed.removeFirst(min(processor.latencyFrames * 2, processed.count))
            let writer = try AudioFileWriter(url: URL(fileURLWithPath: output), sampleRate: reader.sampleRate, channelCount: 2,
                                             encoding: .float32)
            try writer.write(processed)
            writer.close()
        }
    }
}
