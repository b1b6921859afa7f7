import ArgumentParser
import AssistCore
import Benchmarks
import Foundation
import Commands
import SessionControl
import VoiceInput

struct BenchVoice: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voice",
        abstract: "Measures command recognition: synthesised commands (festival, espeak-ng, Piper), clean and in noise, and recorded human speech.",
        discussion: """
        Every command phrase is synthesised with each --voices voice (festival's cmu_us_slt_arctic_hts, \
        espeak-ng en-us, espeak-ng en-gb, Piper) at each --rates speed, then replayed through the recogniser (Silero VAD and \
        Moonshine, as the live listener uses them; --decode adds its earlier forms for comparison) as live 20 ms chunks: clean, with white noise and \
        with six-talker babble at --snr dB (active-speech RMS over noise RMS). A trial is correct when \
        exactly one confident utterance is heard and it means the command said. Latency runs from the \
        end of the speech in the audio to the command being in hand (the detector's silence wait plus \
        processing). Debian's recordings of human speech (/usr/share/pocketsphinx/test/data) are transcribed \
        with no phrase favoured and scored by word error rate. Build with -c release for representative times.

        Example:
          scripts/assist bench voice --json
          scripts/assist bench voice --voices festival,espeak-en-us,espeak-en-gb --decode neural,neural-baseline --snr 20
        """ + DocsPage.benchmarks.seeAlso)

    @Option(help: "Speaking rates for festival's HTS engine (1 is the voice's own, 1.25 a quarter faster).")
    var rates: String = "0.8,1.0,1.25"

    @Option(help: "Signal-to-noise ratios of the noisy conditions, in dB, comma-separated (each noise is run at each).")
    var snr: String = "10"

    @Option(help: "Phrasings said per command (intent), the first ones of the language file (0: the non-commands alone).")
    var phrasesPerCommand: Int = 1

    @Option(help: "Listening conditions to run, comma-separated: clean, white, babble.")
    var conditions: String = "clean,white,babble"

    @Option(help: "Voices saying the commands, comma-separated: festival, espeak-en-us, espeak-en-gb, piper (the natural voice, Piper joe), piper-fast (it a quarter faster).")
    var voices: String = "festival"

    @Option(help: "Decoding, comma-separated: neural (the listener's: Silero VAD and Moonshine), neural-ort (the same with Moonshine run from its .ort files as they are, slower: the twenty-second session's before-and-after), neural-level-end (the level weighed against the background's in finding the end of a command: an experiment, off in the listener), neural-baseline (the recogniser as it was before transcribing ahead and the certain-words rule: the before-and-after comparison).")
    var decode: String = ListeningDecoding.standard.rawValue

    @Option(help: "The neural decoding's bar on Moonshine's confidence (0…1) at and above which its words are decided as said, like a typed line (default: the listener's).")
    var neuralCertainWords: Double?

    @Option(help: "The neural decodings' silence that ends a command, in 32 ms windows of the speech detector (default: the listener's, 11).")
    var neuralEndSilence: Int?

    @Option(help: "After how many 32 ms windows of silence the neural decoding transcribes ahead, 1 to 4 (4: of exactly the audio transcribed after the wait; fewer: sooner, the rest of the kept silence stood in for by digital silence; default: the listener's).")
    var neuralAheadAfter: Int?

    @Option(help: "A file of lines that are no command (e.g. bench/commands/held-out-none.txt), said by every voice; acting on one counts against.")
    var nonCommands: String?

    @Option(help: "A file of labelled lines (\"<text> => <intent> [slot]\", e.g. bench/commands/spoken-held-out.txt) said instead of the language file's phrasings, each judged against its label.")
    var commands: String?

    @Flag(help: "Push-to-talk: each trial's whole audio is one utterance, instead of the detector ending it.")
    var pushToTalk = false

    @Flag(help: "Skip the recorded human speech (/usr/share/pocketsphinx/test/data).")
    var skipHuman = false

    @Option(help: "Keep the synthetic audio in this folder (default: a temporary folder, removed afterwards).")
    var keepAudio: String?

    @Flag(help: "Print every trial and the summary as JSON.")
    var json = false

    private var plan: VoiceBenchmarkPlan {
        VoiceBenchmarkPlan(rates: rates, snr: snr, conditions: conditions, voices: voices, decode: decode)
    }

    func validate() throws {
        if let problem = plan.problem { throw ValidationError(FailureReport.sentence(for: problem)) }
        guard phrasesPerCommand >= (nonCommands == nil ? 1 : 0) else {
            throw ValidationError("--phrases-per-command must be at least 1 (0 only with --non-commands).")
        }
        if let problem = plan.rateProblem { throw ValidationError(FailureReport.sentence(for: problem)) }
        if let problem = VoiceBenchmarkPlan.neuralProblem(certainWords: neuralCertainWords, aheadAfterWindows: neuralAheadAfter,
                                                          endSilenceWindows: neuralEndSilence) {
            throw ValidationError(FailureReport.sentence(for: problem))
        }
    }

    func run() throws {
        var run = VoiceBenchmarkRun(
            plan: plan, phrasesPerCommand: phrasesPerCommand, pushToTalk: pushToTalk, skipsHumanSpeech: skipHuman,
            keptAudioFolder: keepAudio.map { URL(fileURLWithPath: $0) })
        run.neuralCertainWords = neuralCertainWords
        run.neuralEndSilenceWindows = neuralEndSilence
        run.neuralAheadAfterWindows = neuralAheadAfter
        run.nonCommandsFile = nonCommands.map { URL(fileURLWithPath: $0) }
        run.labelledCommandsFile = commands.map { URL(fileURLWithPath: $0) }
        let report = try run.run(categories: SettingsStorageAccess.validator().knownCategories)
        try print(json ? JSONReport.text(report) : report.table())
    }
}
