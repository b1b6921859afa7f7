import ArgumentParser
import AssistCore
import Benchmarks
import Foundation

struct BenchWake: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wake",
        abstract: "Measures the wake phrase: \"Assistive Vision\" said in several voices (woken or not, how soon), and long speech without it (false wakes, CPU).",
        discussion: """
        The spotter is built as assist wake builds it (its default settings). Each line of --wake-list \
        ("<text> | <rate> | clean, white <dB> or babble <dB>") is said by each --voices voice, with 1.5 s of \
        silence (or that noise) around it, and replayed on its own: it should wake once. The time to the \
        wake runs from the end of the phrase's speech to the wake: the detector's wait on the audio clock \
        plus all processing from there (an upper bound of a live listener's). Then every line of \
        --speech-list is said by each voice, at rates 1, 0.9 and 1.15 in turn, clean, with white noise and \
        with six-talker babble in turn (at --snr dB), with 1 to 3 s between, as one stream per voice: every \
        wake there is false. The CPU time of listening to those streams is reported against their length. \
        Build with -c release for representative times.

        Example:
          scripts/assist bench wake
          scripts/assist bench wake --voices festival --sentences 20 --json
        """ + DocsPage.benchmarks.seeAlso)

    @Option(help: "Voices, comma-separated: festival, espeak-en-us, espeak-en-gb, piper, piper-fast.")
    var voices: String = "festival,espeak-en-us,espeak-en-gb,piper"

    @Option(help: ArgumentHelp("Renderings of the phrase, one a line as \"<text> | <rate> | <noise>\" (\"none\": skip this part).", valueName: "file"))
    var wakeList: String = "bench/wake/held-out-wake.txt"

    @Option(help: ArgumentHelp("Sentences without the phrase, one a line (\"none\": skip this part).", valueName: "file"))
    var speechList: String = "bench/wake/held-out-speech.txt"

    @Option(help: "Only the first this many sentences of --speech-list (default: all), for a shorter run.")
    var sentences: Int?

    @Option(help: "Signal-to-noise ratio of the white noise and babble in the speech without the phrase, in dB.")
    var snr: Double = 10

    @Option(help: ArgumentHelp("Keep the synthetic audio in this folder (default: a temporary folder, removed afterwards).", valueName: "folder"))
    var keepAudio: String?

    @Flag(help: "Print every rendering, every false wake and the summary as JSON.")
    var json = false

    private var voiceNames: [String] { voices.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }

    func validate() throws {
        if let problem = WakeBenchmarkRun.problem(voiceNames: voiceNames, sentenceLimit: sentences, sentenceSNRDecibels: snr,
                                                  skipsRenderings: wakeList == "none", skipsSpeech: speechList == "none") {
            throw ValidationError(FailureReport.sentence(for: problem))
        }
    }

    func run() throws {
        func list(_ path: String) -> URL? { path == "none" ? nil : URL(fileURLWithPath: path) }
        var run = WakeBenchmarkRun(voiceNames: voiceNames, wakeList: list(wakeList), speechList: list(speechList), sentenceLimit: sentences,
                                   sentenceSNRDecibels: snr, keptAudioFolder: keepAudio.map { URL(fileURLWithPath: $0) })
        run.progress = { FileHandle.standardError.write(Data(("… " + $0 + "\n").utf8)) }
        let report = try run.run()
        print(json ? try JSONReport.text(report) : report.table())
    }
}
