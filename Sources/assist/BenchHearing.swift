import ArgumentParser
import Foundation
import Hearing
import LiveHearing

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
        """ + DocsPage.benchmarks.seeAlso)

    @Argument(help: ArgumentHelp("The input audio file.", valueName: "in"))
    var input: String

    @Option(name: .shortAndLong, help: "The output WAV file (stereo, 32-bit float, same length and timing as the input).")
    var output: String

    @OptionGroup var fitting: FittingArguments

    @Flag(help: "Bypass noise reduction (everything else in the chain stays as prescribed).")
    var noNoiseReduction = false

    func run() async throws {
        var settings = try fitting.settings()
        if noNoiseReduction { settings.bypass.insert(.noiseReduction) }
        _ = try AidedRecording(settings: settings, encoding: .float32)
            .process(URL(fileURLWithPath: input), into: URL(fileURLWithPath: output))
    }
}
