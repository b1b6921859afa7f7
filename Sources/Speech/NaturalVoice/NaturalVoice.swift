import AssistCore
import Foundation
import Synchronization

/// Why the natural voice could not start, told as one sentence (the caller adds that the fast
/// voice speaks instead).
public enum NaturalVoiceError: UserFacingError, Equatable {
    case voiceMissing(folder: String)
    case damagedConfig(reason: String)
    case modelUnusable(detail: String)
    case unknownRuntime(name: String, known: [String])

    public var userMessage: String {
        switch self {
        case .voiceMissing(let folder):
            return "The natural voice is not installed (no \(NaturalVoice.modelFileName) in \(folder)); scripts/setup installs it."
        case .damagedConfig(let reason):
            return "The natural voice's description \(NaturalVoice.modelFileName).json is damaged: \(reason)."
        case .modelUnusable(let detail):
            return "The natural voice's model is damaged or unreadable: \(detail)."
        case .unknownRuntime(let name, let known):
            return "\(NaturalVoiceRuntime.environmentKey) names no runtime called \(name) (known: \(known.joined(separator: ", ")))."
        }
    }
}

/// The natural voice: Piper's en_US-joe-medium (a VITS model) on ONNX Runtime (`NaturalVoiceRuntime`). Text becomes espeak-ng
/// phonemes (the one espeak-ng wrapper), then Piper's phoneme ids, then 22 050 Hz audio.
///
/// It is slower than espeak-ng (on 2 cores a 2 s sentence takes several hundred milliseconds or
/// more), so it keeps what it said: a sentence said before (the same object, the same hazard)
/// comes back at once. A hazard warning never waits for the model: when its sentence is not ready,
/// it is said with the fast voice this once, and the natural one is made ready for next time.
///
/// Settings: the rate sets Piper's length scale (175 words a minute is the voice's own pace), the
/// volume scales the samples; the model has no pitch control, so the pitch setting is ignored.
public final class NaturalVoice: TextToSpeech, @unchecked Sendable {
    public static let name = "en_US-joe-medium"
    public static let modelFileName = "en_US-joe-medium.onnx"
    /// The rate at which the model speaks at its own length scale (espeak-ng's default rate).
    static let naturalWordsPerMinute = 175.0
    /// Peak level of the voice at 100 % volume, as a fraction of full scale. espeak-ng's loudest
    /// samples at its volume 100 sit near this, so switching voices for a hazard keeps the level.
    static let fullVolumePeak: Float = 0.75

    public let sampleRate: Int
    public let settings: SpeechVoiceSettings
    public let config: PiperVoiceConfig
    /// Says hazard warnings whose natural audio is not ready; same rate and volume.
    private let fast: SpeechSynthesizer
    public let runtime: NaturalVoiceRuntime
    /// One inference at a time, under `inferenceLock`.
    private let model: any VoiceModel
    private let inferenceLock = NSLock()
    private let cache = Mutex(SpeechCache(capacitySeconds: 120))
    private let background = DispatchQueue(label: "natural-voice-preparation", qos: .utility)
    private let statistics = Mutex(NaturalVoiceStatistics())
    private let lastFastAudio = Mutex<(text: String, audio: SpeechAudio)?>(nil)

    /// Loads the voice from `folder` (the model and its `.json`); `threadCount` 0 lets the runtime use every core.
    public init(folder: URL, settings: SpeechVoiceSettings = SpeechVoiceSettings(), runtime: NaturalVoiceRuntime = .standard,
                threadCount: Int = 0) throws {
        let model = folder.appendingPathComponent(Self.modelFileName)
        let description = folder.appendingPathComponent(Self.modelFileName + ".json")
        guard FileManager.default.fileExists(atPath: model.path),
              let json = FileManager.default.contents(atPath: description.path) else {
            throw NaturalVoiceError.voiceMissing(folder: folder.path)
        }
        config = try PiperVoiceConfig(json: json)
        var fastSettings = settings
        fastSettings.voice = config.espeakVoice
        fast = try SpeechSynthesizer(settings: fastSettings)   // checks the rate, pitch and volume ranges
        self.settings = settings
        sampleRate = config.sampleRateHz
        self.runtime = runtime
        // Each clause's buffers (tens of megabytes for the decoder) are given back when freed
        // instead of staying in the heaps: 8–12 MB less in a live session (BENCHMARKS.md,
        // "Issue 37 (twenty-third session)").
        FreedMemory.mapLargeBlocksSeparately()
        do { self.model = try runtime.load(model, threadCount: threadCount) } catch {
            throw NaturalVoiceError.modelUnusable(detail: Self.clause(userMessage(for: error)))
        }
        // A model that reads and compiles can still be wrong inside (weights cut short): one
        // short word proves it speaks before anyone relies on it.
        try checkItSpeaks()
        FreedMemory.returnToSystem()
    }

    private func checkItSpeaks() throws(NaturalVoiceError) {
        let probe: SpeechAudio
        do { probe = try render("Yes.") } catch { throw .modelUnusable(detail: Self.clause(error.userMessage)) }
        guard probe.samples.contains(where: { $0 != 0 }) else { throw .modelUnusable(detail: "it gives only silence") }
    }

    public func synthesize(_ text: String) throws(SpeechError) -> SpeechAudio {
        try synthesize(text, urgent: false)
    }

    public func synthesize(_ text: String, urgent: Bool) throws(SpeechError) -> SpeechAudio {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .emptyText }
        if let ready = cache.withLock({ $0.audio(for: text) }) {
            statistics.withLock { $0.cached += 1 }
            return ready
        }
        if urgent {
            // The queue measures a hazard and then makes its track: the fast voice's audio of the
            // one is the other's, so a warning costs one espeak-ng call and is counted once.
            if let last = lastFastAudio.withLock({ $0 }), last.text == text { return last.audio }
            statistics.withLock { $0.saidByFastVoice += 1 }
            prepare([text])
            let audio = try fast.synthesize(text)
            lastFastAudio.withLock { $0 = (text, audio) }
            return audio
        }
        let audio = try render(text)
        cache.withLock { $0.store(audio, for: text) }
        return audio
    }

    /// A sentence it has not ready is said as it is made, piece by piece (see
    /// `UtteranceQueue`): its first words play after a fraction of the whole sentence's synthesis.
    /// A hazard never is: it comes from the cache or the fast voice, at once.
    public func streamsPieces(of text: String, urgent: Bool) -> Bool {
        !urgent && cache.withLock { $0.audio(for: text) } == nil
    }

    /// Makes these sentences ready in the background (the sentences of objects in view, a hazard
    /// said by the fast voice once), so that when they are due they come from the cache.
    public func prepare(_ texts: [String]) {
        background.async { [self] in
            for text in texts where cache.withLock({ $0.audio(for: text) }) == nil {
                guard let audio = try? render(text) else { continue }
                cache.withLock { $0.store(audio, for: text) }
            }
            FreedMemory.returnToSystem()
        }
    }

    /// How often sentences came from the cache, the model, or (hazards) the fast voice.
    public var counts: NaturalVoiceStatistics { statistics.withLock { $0 } }

    /// The most words given to the model at once. Piper synthesises a text sentence by sentence;
    /// this voice does too, but a sentence longer than this is cut between its clauses (each keeps
    /// its comma, so the model still pauses and intones by it), and a clause longer than this after
    /// this many words. On OpenVINO (the voice's first
    /// runtime), whose CPU plugin keeps buffers sized by the audio it has made, a paragraph in one
    /// input cost hundreds of megabytes (`assist say` of a 54-word paragraph: 864 MB resident with
    /// sentences of up to 30 words, 761 MB with clauses of up to 8); 8 words are under 3 s at the
    /// voice's own pace. Each inference also holds the model only briefly, so a sentence prepared
    /// in the background delays one that is due by one clause at most.
    static let maximumWordsPerInference = 8
    /// Fade at the edges of each clause's audio, so that clauses join without a click.
    static let clauseFadeSamples = 44

    /// Runs the model on `text`, clause by clause: phonemes, ids, inference; then the level.
    func render(_ text: String) throws(SpeechError) -> SpeechAudio {
        let lengthScale = config.lengthScale * Float(Self.naturalWordsPerMinute / Double(settings.wordsPerMinute))
        let started = ContinuousClock.now
        var output: [Float] = []
        // Piper's unit is the sentence: one inference each, with its commas inside; only a sentence
        // longer than the bound is cut, between whole clauses where it can be.
        for sentence in Utterance.pieces(of: Utterance.sentences(in: text), breakingAfter: ",;:.!?",
                                         firstPieceWords: Self.maximumWordsPerInference,
                                         maximumWords: Self.maximumWordsPerInference) {
            let ids = config.ids(forPhonemes: try PiperPhonemes.phonemes(of: sentence, espeakVoice: config.espeakVoice))
            guard ids.count > 3 else { continue }   // start, pad, end: nothing to say
            do {
                inferenceLock.lock()
                defer { inferenceLock.unlock() }
                try model.speak(ids: ids, scales: [config.noiseScale, lengthScale, config.noiseW]) { all in
                    // Each clause starts with the model's own leading silence: after the first it
                    // would lengthen the pause at the comma, so it is cut to 2 ms, as the queue cuts
                    // the first (−60 dB below full scale, about the model's peak).
                    var samples = all[...]
                    if !output.isEmpty, let first = samples.firstIndex(where: { abs($0) > 0.001 }) {
                        samples = samples[max(first - Self.clauseFadeSamples, samples.startIndex)...]
                    }
                    let start = output.count
                    output.append(contentsOf: samples)
                    let fade = min(Self.clauseFadeSamples, samples.count / 2)
                    for i in 0..<fade {
                        let gain = Float(i) / Float(fade)
                        output[start + i] *= gain
                        output[output.count - 1 - i] *= gain
                    }
                }
            } catch {
                // One sentence whatever failed: the inference's own, or any other error's.
                throw .naturalVoiceFailed(detail: Self.clause(userMessage(for: error)))
            }
        }
        guard !output.isEmpty else { throw .emptyText }
        // Piper levels each sentence by its peak; the volume setting scales that level.
        let gain = Self.fullVolumePeak * Float(settings.volumePercent) / 100
        let peak = max(output.reduce(0) { max($0, abs($1)) }, 0.01)
        let scale = gain / peak * 32767
        let samples = output.map { Int16(clamping: Int(($0 * scale).rounded())) }
        let elapsed = started.duration(to: .now)
        statistics.withLock {
            $0.rendered += 1
            $0.renderSeconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            $0.renderedAudioSeconds += Double(samples.count) / Double(sampleRate)
        }
        return SpeechAudio(samples: samples, sampleRate: sampleRate)
    }

    /// A sentence as a clause inside another: no final full stop, lower-case start.
    static func clause(_ sentence: String) -> String {
        var text = sentence
        while text.hasSuffix(".") { text.removeLast() }
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

/// What the natural voice did, for benchmarks and `--json`.
public struct NaturalVoiceStatistics: Sendable, Equatable {
    public var cached = 0
    public var rendered = 0
    public var saidByFastVoice = 0
    public var renderSeconds = 0.0
    public var renderedAudioSeconds = 0.0
}

/// Sentences already said, by their text, up to a total length of audio; the least recently used
/// goes first. Two minutes of 22 050 Hz audio is about 5 MB.
struct SpeechCache {
    let capacitySeconds: Double
    private var entries: [String: SpeechAudio] = [:]
    private var order: [String] = []
    private var totalSeconds = 0.0

    init(capacitySeconds: Double) { self.capacitySeconds = capacitySeconds }

    mutating func audio(for text: String) -> SpeechAudio? {
        guard let audio = entries[text] else { return nil }
        if let index = order.firstIndex(of: text) { order.remove(at: index) }
        order.append(text)
        return audio
    }

    mutating func store(_ audio: SpeechAudio, for text: String) {
        if let old = entries.updateValue(audio, forKey: text) {
            totalSeconds -= old.durationSeconds
            order.removeAll { $0 == text }
        }
        order.append(text)
        totalSeconds += audio.durationSeconds
        while totalSeconds > capacitySeconds, order.count > 1 {
            let oldest = order.removeFirst()
            if let removed = entries.removeValue(forKey: oldest) { totalSeconds -= removed.durationSeconds }
        }
    }

    var count: Int { entries.count }
}
