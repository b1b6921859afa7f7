import AssistCore
import CEspeakNG
import Foundation

// The one place that touches libespeak-ng (STYLE.md §2). espeak-ng keeps one global engine per
// process, so every call goes through `SpeechSynthesizer.engineLock`; synthesis runs in
// synchronous mode and the audio comes back through a C callback into a buffer we own.

/// Synthesised speech: mono 16-bit samples at the engine's rate.
public struct SpeechAudio: Sendable, Equatable {
    public var samples: [Int16]
    public var sampleRate: Int
    public var durationSeconds: Double { Double(samples.count) / Double(sampleRate) }

    public init(samples: [Int16], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }
}

/// Anything that turns text into speech audio: espeak-ng (`SpeechSynthesizer`) or the natural
/// voice (`NaturalVoice`); the seam also lets the utterance queue be tested with a voice that fails.
public protocol TextToSpeech: Sendable {
    var sampleRate: Int { get }
    func synthesize(_ text: String) throws(SpeechError) -> SpeechAudio
    /// `urgent`: a hazard warning, which must not wait for a slow voice (the natural voice says
    /// it with the fast one unless it has it ready).
    func synthesize(_ text: String, urgent: Bool) throws(SpeechError) -> SpeechAudio
    /// Whether the queue should say `text` as it is made, piece by piece (`Utterance.pieces`):
    /// true for a voice too slow to make a whole sentence before it is due (the natural one), for
    /// a sentence it does not have ready, so the first words play while the rest is synthesised.
    func streamsPieces(of text: String, urgent: Bool) -> Bool
}

extension TextToSpeech {
    public func synthesize(_ text: String, urgent: Bool) throws(SpeechError) -> SpeechAudio { try synthesize(text) }
    public func streamsPieces(of text: String, urgent: Bool) -> Bool { false }
}

/// How to speak: voice (a language or voice name espeak-ng knows), rate in words per minute,
/// pitch 0–100 (50 normal) and volume in percent.
public struct SpeechVoiceSettings: Sendable, Equatable {
    /// The ranges of `SpeechLimits` (see `SpeechSynthesizer.engineRate(forWordsPerMinute:)` for the rate).
    public static let rateRange = SpeechLimits.rateWordsPerMinute
    public static let pitchRange = SpeechLimits.pitch
    public static let volumeRange = SpeechLimits.volumePercent

    public var voice: String
    public var wordsPerMinute: Int
    public var pitch: Int
    /// 70 % by default: loud enough over street noise in earphones without startling.
    public var volumePercent: Int

    public init(voice: String = "en", wordsPerMinute: Int = 175, pitch: Int = 50, volumePercent: Int = 70) {
        self.voice = voice
        self.wordsPerMinute = wordsPerMinute
        self.pitch = pitch
        self.volumePercent = volumePercent
    }
}

public enum SpeechError: UserFacingError, Equatable {
    case engineUnavailable
    case emptyText
    case unknownVoice(String, available: [String])
    case outOfRange(field: String, value: Int, allowed: ClosedRange<Int>)
    case synthesisFailed(code: Int32)
    /// The natural voice's model failed on a sentence (`NaturalVoice`).
    case naturalVoiceFailed(detail: String)

    public var userMessage: String {
        switch self {
        case .engineUnavailable:
            return "Voice response failed: the speech engine espeak-ng could not start (is espeak-ng-data installed?)."
        case .emptyText:
            return "There is no text to speak."
        case .unknownVoice(let voice, let available):
            return "The voice \(voice) is not installed; installed voices: \(available.joined(separator: ", "))."
        case .outOfRange(let field, let value, let allowed):
            return "The speech \(field) \(value) is out of range; it must be from \(allowed.lowerBound) to \(allowed.upperBound)."
        case .synthesisFailed(let code):
            return "Voice response failed (speech engine error \(code))."
        case .naturalVoiceFailed(let detail):
            return "The natural voice failed: \(detail)."
        }
    }
}

/// Text to speech through espeak-ng.
public final class SpeechSynthesizer: TextToSpeech, @unchecked Sendable {
    // espeak-ng's engine is process-global and not thread-safe.
    private static let engineLock = NSLock()
    nonisolated(unsafe) private static var engineSampleRate: Int32 = 0

    public let settings: SpeechVoiceSettings
    public let sampleRate: Int

    public init(settings: SpeechVoiceSettings = SpeechVoiceSettings()) throws(SpeechError) {
        for (field, value, range) in [("rate in words per minute", settings.wordsPerMinute, SpeechVoiceSettings.rateRange),
                                      ("pitch", settings.pitch, SpeechVoiceSettings.pitchRange),
                                      ("volume in percent", settings.volumePercent, SpeechVoiceSettings.volumeRange)]
        where !range.contains(value) {
            throw .outOfRange(field: field, value: value, allowed: range)
        }
        Self.engineLock.lock()
        defer { Self.engineLock.unlock() }
        try Self.startEngineIfNeeded()
        sampleRate = Int(Self.engineSampleRate)
        self.settings = settings
        guard Self.selectVoice(settings.voice) else {
            throw .unknownVoice(settings.voice, available: Self.unlockedVoiceNames())
        }
    }

    /// The value handed to espeak-ng's rate parameter for a requested rate.
    ///
    /// espeak-ng's normal path (up to 449) already shortens pauses at high rates, while its
    /// libsonic path (450 and above) keeps them, so asking it for 450 gives *slower* speech than
    /// 449 (measured: "Person, 2 meters, slightly left. Chair, 3 meters, right. Door, 5 meters,
    /// ahead." lasts 1.88 s at 449 and 2.16 s at 450, 1.93 s at 500). Above 449 we therefore ask
    /// libsonic for 15 % more, measured on two sentences to keep durations falling as the rate
    /// rises: 500 words per minute becomes espeak-ng's 575.
    public static func engineRate(forWordsPerMinute wordsPerMinute: Int) -> Int {
        wordsPerMinute < 450 ? wordsPerMinute : Int((Double(wordsPerMinute) * 1.15).rounded())
    }

    /// Languages and voice names installed, e.g. ["af", "en", "en-us", …].
    public static func availableVoices() throws(SpeechError) -> [String] {
        engineLock.lock()
        defer { engineLock.unlock() }
        try startEngineIfNeeded()
        return unlockedVoiceNames()
    }

    /// Call with `engineLock` held.
    private static func startEngineIfNeeded() throws(SpeechError) {
        guard engineSampleRate <= 0 else { return }
        engineSampleRate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
        guard engineSampleRate > 0 else { throw .engineUnavailable }
        espeak_SetSynthCallback(collectSamples)
    }

    /// espeak-ng's pronunciation of `text` in `voice` (e.g. "en-us") as IPA, words separated by
    /// spaces and espeak-ng's clauses joined by a space. This is what a Piper voice is trained on
    /// (see `PiperPhonemes`). espeak-ng 1.51 leaves punctuation out, so a caller that needs it
    /// splits the text at its punctuation first.
    public static func ipaPhonemes(of text: String, voice: String) throws(SpeechError) -> String {
        engineLock.lock()
        defer { engineLock.unlock() }
        try startEngineIfNeeded()
        guard selectVoice(voice) else { throw .unknownVoice(voice, available: unlockedVoiceNames()) }
        var clauses: [String] = []
        text.withCString { start in
            // espeak-ng reads one clause per call, moves the pointer on, and sets it to nil at the end.
            var position: UnsafeRawPointer? = UnsafeRawPointer(start)
            while position != nil {
                guard let phonemes = espeak_TextToPhonemes(&position, espeakCHARS_UTF8, espeakPHONEMES_IPA) else { break }
                let clause = String(cString: phonemes).trimmingCharacters(in: .whitespacesAndNewlines)
                if !clause.isEmpty { clauses.append(clause) }
            }
        }
        return clauses.joined(separator: " ")
    }

    /// Selects a voice by its file name ("en", "fr") or, failing that, by the language names that
    /// `availableVoices` lists ("fr-fr", "en-us"), which `espeak_SetVoiceByName` does not take.
    /// Call with `engineLock` held.
    private static func selectVoice(_ voice: String) -> Bool {
        if espeak_SetVoiceByName(voice) == EE_OK { return true }
        return voice.withCString { language in
            var properties = espeak_VOICE()
            properties.languages = language
            return espeak_SetVoiceByProperties(&properties) == EE_OK
        }
    }

    private static func unlockedVoiceNames() -> [String] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var names: [String] = []
        var index = 0
        while let voice = list[index] {
            // `languages` is a priority byte followed by a NUL-terminated language name.
            if let languages = voice.pointee.languages { names.append(String(cString: languages + 1)) }
            index += 1
        }
        return Array(Set(names)).sorted()
    }

    /// Speaks `text` into samples. Safe to call from any thread; calls are serialised.
    public func synthesize(_ text: String) throws(SpeechError) -> SpeechAudio {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .emptyText }
        Self.engineLock.lock()
        defer { Self.engineLock.unlock() }
        _ = Self.selectVoice(settings.voice)
        espeak_SetParameter(espeakRATE, Int32(Self.engineRate(forWordsPerMinute: settings.wordsPerMinute)), 0)
        espeak_SetParameter(espeakPITCH, Int32(settings.pitch), 0)
        // espeak-ng's volume is 0–200 with 100 as its normal level; our 100 % maps to its 100.
        espeak_SetParameter(espeakVOLUME, Int32(settings.volumePercent), 0)

        let collector = SampleCollector()
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        let status = text.withCString { pointer in
            espeak_Synth(pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0,
                         UInt32(espeakCHARS_UTF8), nil, context.toOpaque())
        }
        guard status == EE_OK else { throw .synthesisFailed(code: status.rawValue) }
        return SpeechAudio(samples: collector.samples, sampleRate: sampleRate)
    }
}

/// Receives the audio espeak-ng produces during one synchronous `espeak_Synth` call.
private final class SampleCollector {
    var samples: [Int16] = []
}

/// espeak-ng's synthesis callback: appends each chunk to the collector named in the events' user data.
private func collectSamples(_ wave: UnsafeMutablePointer<Int16>?, _ count: Int32,
                            _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events, let userData = events.pointee.user_data else { return 0 }
    let collector = Unmanaged<SampleCollector>.fromOpaque(userData).takeUnretainedValue()
    if let wave, count > 0 { collector.samples.append(contentsOf: UnsafeBufferPointer(start: wave, count: Int(count))) }
    return 0   // 0 = continue synthesis
}
