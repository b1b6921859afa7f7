import AssistCore
import CPocketSphinx
import Foundation

/// What the decoder searches: a grammar (commands) or a statistical language model (free speech).
public enum DecoderSearch: Sendable, Equatable {
    /// A JSGF grammar in text form; only its sentences can be recognised.
    case grammar(jsgf: String)
    /// An n-gram language model file (e.g. the model's en-us.lm.bin): any English sentence.
    case languageModel(URL)
    /// One key phrase spotted in continuous audio (pocketsphinx's keyphrase search); every
    /// word must have a pronunciation. Its threshold is `-kws_threshold` (DecoderTuning.extraArguments).
    case keyphrase(String)
    /// An n-gram model given as ARPA text (the command language's, `NGramLanguageModel`),
    /// optionally interpolated linearly with a general model file: p = (1 − w) · p_commands + w · p_general.
    /// `keepBinaryAt`: also write the command model there in sphinxbase's binary format, which
    /// `.languageModel` reads back in a fraction of the ARPA text's time.
    case interpolatedLanguageModel(arpa: String, general: URL?, generalWeight: Double, keepBinaryAt: URL? = nil)
}

/// How the decoder listens: the voice-activity detector's timing, in 10 ms frames (pocketsphinx's own unit).
public struct DecoderTuning: Sendable, Equatable {
    /// Silence after speech before the utterance is declared over. pocketsphinx's default is
    /// 50 frames (0.5 s); 25 (250 ms) keeps the pause between words inside one command (they
    /// are under 150 ms in the commands we measured) while answering within the 300 ms target.
    public var postSpeechFrames: Int
    /// Speech frames needed before the detector switches from silence to speech (default 10).
    public var startSpeechFrames: Int
    /// Audio kept from before the switch, so the first consonant is not cut (default 20).
    public var preSpeechFrames: Int
    /// Log-ratio of signal to noise level above which a frame is speech. pocketsphinx's default,
    /// 2.0, opens utterances on other people's voices 30 dB below the user's, and the command
    /// then drowns in a sentence of theirs; 3.0 leaves clean commands as they were (96.4 % of
    /// 111, measured with `assist bench voice`) and gets 54 % right rather than 11 % with
    /// six-talker babble 30 dB down. 4.0 clips quiet syllables (clean falls to 68 %).
    public var vadThreshold: Double

    /// Search beams (pocketsphinx's -beam/-pbeam and -wbeam, as powers of ten): paths scoring
    /// below best × 10^beam are dropped. The defaults (1e-48, 7e-29) lose the grammar's final
    /// state in noise, so that nothing at all is recognised; wider beams cost time.
    public var beamExponent: Int
    public var wordBeamExponent: Int
    /// Further pocketsphinx options as name/value pairs (e.g. "-cmn", "live"), passed last so
    /// they win; for measuring settings with the benchmark before making them defaults.
    public var extraArguments: [String] = []

    public init(postSpeechFrames: Int = 25, startSpeechFrames: Int = 10, preSpeechFrames: Int = 20, vadThreshold: Double = 3.0,
                beamExponent: Int = -48, wordBeamExponent: Int = -29) {
        self.beamExponent = beamExponent
        self.wordBeamExponent = wordBeamExponent
        self.postSpeechFrames = postSpeechFrames
        self.startSpeechFrames = startSpeechFrames
        self.preSpeechFrames = preSpeechFrames
        self.vadThreshold = vadThreshold
    }
}

/// The decoder's best guess for one utterance.
public struct DecoderHypothesis: Sendable, Equatable {
    /// The words, lower case, separated by single spaces (fillers such as <sil> removed).
    public let text: String
    /// Posterior probability of the best path in the word lattice, 0…1 (1 when nothing competed).
    public let posterior: Double
    /// Acoustic score of the best path per frame, natural log: higher (closer to 0) is a better fit.
    public let acousticScorePerFrame: Double
    /// Frames (10 ms) the decoder searched in the utterance (speech, after silence removal).
    public let frameCount: Int
}

/// Why pocketsphinx could not be started or used, as one sentence.
public enum PocketSphinxError: UserFacingError, Equatable {
    case modelMissing(path: String)
    case configurationRejected
    case decoderFailed
    case grammarRejected(reason: String)
    case languageModelUnreadable(path: String)
    case audioRejected

    public var userMessage: String {
        switch self {
        case .modelMissing(let path):
            return "The speech recognition model was not found at \(path); install Debian's pocketsphinx-en-us package (scripts/setup does)."
        case .configurationRejected:
            return "pocketsphinx rejected the recogniser's configuration."
        case .decoderFailed:
            return "The speech recogniser could not start; check that the pocketsphinx-en-us model is complete."
        case .grammarRejected(let reason):
            return "The speech recogniser rejected the command grammar: \(reason)."
        case .languageModelUnreadable(let path):
            return "The language model \(path) could not be read."
        case .audioRejected:
            return "The speech recogniser could not process the audio."
        }
    }
}

/// The one wrapper of pocketsphinx (5prealpha, Debian 12): owns the `ps_decoder_t`, frees it in
/// `deinit`, and hands out value types. Audio is 16 kHz mono 16-bit, pushed in chunks of any
/// size; `isInSpeech` is pocketsphinx's voice-activity detector for the audio pushed so far.
/// Not thread-safe: one decoder per listening thread.
public final class PocketSphinxDecoder {
    public static let sampleRateHz = 16_000

    private let decoder: OpaquePointer
    private let searchName = "commands"
    private var utteranceOpen = false

    /// - Parameter logFile: pocketsphinx's own log (configuration, timings); nil keeps it silent,
    ///   so it never reaches a user's terminal.
    /// - Parameter search: nil to set it later with `use(_:)` (after checking a grammar's words).
    public init(model: SpeechModel = .englishUS, search: DecoderSearch?, tuning: DecoderTuning = DecoderTuning(),
                logFile: URL? = nil) throws {
        try model.checkInstalled()
        Self.routeLog(to: logFile)
        var arguments = [
            "assist",
            "-hmm", model.acousticModel.path,
            "-dict", model.dictionary.path,
            "-samprate", "\(Self.sampleRateHz)",
            "-vad_postspeech", "\(tuning.postSpeechFrames)",
            "-vad_startspeech", "\(tuning.startSpeechFrames)",
            "-vad_prespeech", "\(tuning.preSpeechFrames)",
            "-vad_threshold", "\(tuning.vadThreshold)",
            "-beam", "1e\(tuning.beamExponent)",
            "-pbeam", "1e\(tuning.beamExponent)",
            "-wbeam", "1e\(tuning.wordBeamExponent)",
        ]
        arguments += tuning.extraArguments
        if let logFile { arguments += ["-logfn", logFile.path] }
        // Strings must outlive the call: strdup'd copies, freed once the configuration is parsed.
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        guard let config = cmd_ln_parse_r(nil, ps_args(), Int32(argv.count), &argv, 1) else {
            throw PocketSphinxError.configurationRejected
        }
        defer { cmd_ln_free_r(config) }  // the decoder keeps its own reference
        guard let decoder = ps_init(config) else { throw PocketSphinxError.decoderFailed }
        self.decoder = decoder
        if let search {
            do { try use(search) } catch { ps_free(decoder); throw error }
        }
    }

    deinit {
        if utteranceOpen { ps_end_utt(decoder) }
        ps_free(decoder)
    }

    /// sphinxbase logs process-wide; the last decoder made decides where to. Silenced with a
    /// NULL stream (err.h documents this as the way to disable logging).
    private static func routeLog(to file: URL?) {
        if let file { err_set_logfile(file.path) } else { err_set_logfp(nil) }
    }

    /// Replaces what is searched (between utterances).
    public func use(_ search: DecoderSearch) throws {
        if utteranceOpen { ps_end_utt(decoder); utteranceOpen = false }
        switch search {
        case .grammar(let jsgf):
            guard ps_set_jsgf_string(decoder, searchName, jsgf) == 0 else {
                throw PocketSphinxError.grammarRejected(reason: "it is not valid JSGF or uses a word without a pronunciation")
            }
        case .keyphrase(let phrase):
            guard ps_set_keyphrase(decoder, searchName, phrase) == 0 else {
                throw PocketSphinxError.grammarRejected(reason: "the key phrase \"\(phrase)\" uses a word without a pronunciation")
            }
        case .languageModel(let url):
            guard FileManager.default.fileExists(atPath: url.path),
                  ps_set_lm_file(decoder, searchName, url.path) == 0 else {
                throw PocketSphinxError.languageModelUnreadable(path: url.path)
            }
        case .interpolatedLanguageModel(let arpa, let general, let generalWeight, let binary):
            try useLanguageModel(arpa: arpa, general: general, generalWeight: generalWeight, keepBinaryAt: binary)
        }
        guard ps_set_search(decoder, searchName) == 0 else { throw PocketSphinxError.decoderFailed }
    }

    /// sphinxbase reads models from files only: the ARPA text goes through a temporary file,
    /// removed at once. Both models share the decoder's log table (ngram_model_set_init's rule).
    private func useLanguageModel(arpa: String, general: URL?, generalWeight: Double, keepBinaryAt binary: URL?) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("assist-commands-\(getpid())-\(UUID().uuidString).arpa")
        do { try Data(arpa.utf8).write(to: file) } catch { throw PocketSphinxError.languageModelUnreadable(path: file.path) }
        defer { try? FileManager.default.removeItem(at: file) }
        let config = ps_get_config(decoder), logmath = ps_get_logmath(decoder)
        guard let commands = ngram_model_read(config, file.path, NGRAM_ARPA, logmath) else {
            throw PocketSphinxError.languageModelUnreadable(path: file.path)
        }
        if let binary { Self.write(commands, to: binary) }
        guard let general, generalWeight > 0 else {
            defer { ngram_model_free(commands) }  // the search keeps its own reference
            guard ps_set_lm(decoder, searchName, commands) == 0 else { throw PocketSphinxError.decoderFailed }
            return
        }
        guard let generalModel = ngram_model_read(config, general.path, NGRAM_AUTO, logmath) else {
            ngram_model_free(commands)
            throw PocketSphinxError.languageModelUnreadable(path: general.path)
        }
        // The set owns its members from here (they are freed with it).
        var models: [OpaquePointer?] = [commands, generalModel]
        let names = [strdup("commands"), strdup("general")]
        defer { names.forEach { free($0) } }
        var nameArray: [UnsafeMutablePointer<CChar>?] = names
        var weights: [Float] = [Float(1 - min(generalWeight, 1)), Float(min(generalWeight, 1))]
        guard let set = ngram_model_set_init(config, &models, &nameArray, &weights, 2) else {
            throw PocketSphinxError.languageModelUnreadable(path: general.path)
        }
        defer { ngram_model_free(set) }
        guard ps_set_lm(decoder, searchName, set) == 0 else { throw PocketSphinxError.decoderFailed }
    }

    /// Written beside the target and renamed into place, so a reader never sees half a file;
    /// one that cannot be written only costs time at the next start.
    private static func write(_ model: OpaquePointer, to file: URL) {
        let partial = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid()).partial")
        if ngram_model_write(model, partial.path, NGRAM_BIN) == 0, rename(partial.path, file.path) == 0 { return }
        try? FileManager.default.removeItem(at: partial)
    }

    /// The pronunciation of `word` (phones separated by spaces), or nil when the dictionary lacks it.
    public func pronunciation(of word: String) -> String? {
        guard let phones = ps_lookup_word(decoder, word) else { return nil }
        defer { free(phones) }
        return String(cString: phones)
    }

    /// Adds a word to the dictionary (phones in the model's phone set, e.g. "HH AE P T IH K S").
    /// Returns false when a phone is unknown to the acoustic model.
    @discardableResult
    public func addWord(_ word: String, phones: String) -> Bool {
        // update = 1 rebuilds the search so the word can be used at once.
        ps_add_word(decoder, word, phones, 1) >= 0
    }

    /// Starts an utterance (resets the detector's speech state).
    public func startUtterance() throws {
        if utteranceOpen { ps_end_utt(decoder) }
        guard ps_start_utt(decoder) == 0 else { throw PocketSphinxError.decoderFailed }
        utteranceOpen = true
    }

    /// Pushes 16 kHz mono samples into the open utterance.
    public func process(_ samples: UnsafeBufferPointer<Int16>) throws {
        if !utteranceOpen { try startUtterance() }
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        // no_search 0, full_utt 0: decode as the audio arrives, so little is left at the end.
        guard ps_process_raw(decoder, base, samples.count, 0, 0) >= 0 else { throw PocketSphinxError.audioRejected }
    }

    /// Whether the voice-activity detector hears speech in the audio pushed so far.
    public var isInSpeech: Bool { utteranceOpen && ps_get_in_speech(decoder) != 0 }

    /// The words recognised so far in the open utterance (for keyphrase spotting, the key
    /// phrase as soon as it is heard); nil when none yet.
    public var partialText: String? {
        guard utteranceOpen else { return nil }
        var score: Int32 = 0
        guard let raw = ps_get_hyp(decoder, &score) else { return nil }
        let text = String(cString: raw).split(separator: " ").joined(separator: " ").lowercased()
        return text.isEmpty ? nil : text
    }

    /// Ends the open utterance and returns the best hypothesis (nil when nothing was recognised).
    public func endUtterance() throws -> DecoderHypothesis? {
        guard utteranceOpen else { return nil }
        utteranceOpen = false
        guard ps_end_utt(decoder) >= 0 else { throw PocketSphinxError.decoderFailed }
        var pathScore: Int32 = 0
        guard let raw = ps_get_hyp(decoder, &pathScore) else { return nil }
        let text = String(cString: raw).split(separator: " ").joined(separator: " ").lowercased()
        guard !text.isEmpty else { return nil }
        let logmath = ps_get_logmath(decoder)
        let frames = Int(ps_get_n_frames(decoder))
        let posterior = ps_get_prob(decoder)  // log base of the logmath table; computed from the lattice
        return DecoderHypothesis(
            text: text,
            posterior: min(1, max(0, logmath_exp(logmath, posterior))),
            acousticScorePerFrame: logmath_log_to_ln(logmath, pathScore) / Double(max(frames, 1)),
            frameCount: frames)
    }
}
