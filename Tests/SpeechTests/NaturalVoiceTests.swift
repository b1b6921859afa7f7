import Foundation
import Media
import Synchronization
import TestSupport
import Testing
@testable import Speech

/// The natural voice as scripts/setup installs it (scripts/test runs setup first): `.deps/voices`.
enum InstalledNaturalVoice {
    static let folder = SharedFiles.checkout.appendingPathComponent(".deps/voices/\(NaturalVoice.name)")
    static func make(_ settings: SpeechVoiceSettings = SpeechVoiceSettings(voice: "natural")) throws -> NaturalVoice {
        try NaturalVoice(folder: folder, settings: settings)
    }

    static func peak(_ audio: SpeechAudio) -> Int { audio.samples.map { abs(Int($0)) }.max() ?? 0 }

    /// A copy of the voice's description beside `model` bytes, in a new folder.
    static func copy(withModel model: Data) throws -> URL {
        let folder = try TemporaryFolder.make("damaged-voice")
        try model.write(to: folder.appendingPathComponent(NaturalVoice.modelFileName))
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent(NaturalVoice.modelFileName + ".json"),
                                         to: folder.appendingPathComponent(NaturalVoice.modelFileName + ".json"))
        return folder
    }
}

@Suite("The natural voice (Piper en_US-joe-medium on ONNX Runtime)", .serialized)
struct NaturalVoiceTests {
    @Test("phoneme ids follow Piper's layout: start, padding after every phoneme, end")
    func phonemeIdLayout() throws {
        let json = try Data(contentsOf: InstalledNaturalVoice.folder.appendingPathComponent(NaturalVoice.modelFileName + ".json"))
        let config = try PiperVoiceConfig(json: json)
        #expect(config.sampleRateHz == 22050 && config.espeakVoice == "en-us")
        let ids = config.ids(forPhonemes: "bˈʌs,")
        let pad = config.phonemeIds["_"]!, start = config.phonemeIds["^"]!, end = config.phonemeIds["$"]!
        #expect(Array(ids.prefix(2)) == start + pad && ids.last == end.first)
        // b ˈ ʌ s , : five phonemes, each followed by the padding.
        #expect(ids.count == 2 + 5 * 2 + 1)
        for index in stride(from: 3, to: ids.count - 1, by: 2) { #expect(ids[index] == pad[0]) }
        #expect(ids[2] == config.phonemeIds["b"]![0] && ids[10] == config.phonemeIds[","]![0])
        // A symbol the voice does not know is left out, not guessed.
        #expect(config.ids(forPhonemes: "b☃") == start + pad + config.phonemeIds["b"]! + pad + end)
    }

    @Test("espeak-ng's phonemes keep the clause's punctuation, and a decimal point is not a full stop")
    func phonemesKeepPunctuation() throws {
        let phonemes = try PiperPhonemes.phonemes(of: "Bus, 4 meters, ahead.", espeakVoice: "en-us")
        #expect(phonemes.filter { $0 == "," }.count == 2 && phonemes.hasSuffix("."))
        #expect(phonemes.hasPrefix("bˈʌs,"))
        #expect(PiperPhonemes.clauses(of: "Step, 4.5 meters ahead").map(\.text) == ["Step", "4.5 meters ahead"])
        #expect(throws: SpeechError.self) { try PiperPhonemes.phonemes(of: "Hello", espeakVoice: "klingon-xx") }
    }

    @Test("'Bus, 4 meters, ahead.' becomes non-silent speech of plausible length, placed and resampled to a 48 kHz output")
    func speaksSentence() throws {
        let voice = try InstalledNaturalVoice.make()
        let audio = try voice.synthesize("Bus, 4 meters, ahead.")
        #expect(audio.sampleRate == 22050)
        // Four words at 175 words per minute take about 1.4 s.
        #expect(audio.durationSeconds > 0.8 && audio.durationSeconds < 3, "\(audio.durationSeconds) s")
        #expect(InstalledNaturalVoice.peak(audio) > 10_000)

        let queue = UtteranceQueue(voice: voice, sampleRateHz: 48_000)
        let recorder = RecordingAudioOutput()
        guard case .queued(let plan) = queue.enqueue(Utterance("Bus, 4 meters, ahead.", priority: .newObject, directionDegrees: 40,
                                                              earcon: .vehicleHazard)) else {
            Issue.record("not queued"); return
        }
        #expect(plan.voiceFailure == nil && plan.durationSeconds <= 3)
        try queue.renderUntilIdle(to: recorder)
        #expect(recorder.blocks.allSatisfy { $0.sampleRateHz == 48_000 })
        // Stereo placement: on the right, the right ear is louder.
        #expect(Rendered.energy(recorder.samples, channel: 1) > 1.5 * Rendered.energy(recorder.samples, channel: 0))
        let heard = try #require(Rendered.audibleFrames(recorder.samples))
        #expect(Double(heard.count) / 48_000 > 0.8)
    }

    @Test("a faster rate gives shorter speech, a lower volume quieter speech, and the pitch setting changes nothing")
    func settings() throws {
        let text = "Person, 2 meters, slightly left. Chair, 3 meters, right."
        let normal = try InstalledNaturalVoice.make(SpeechVoiceSettings(voice: "natural", wordsPerMinute: 175))
        let fast = try InstalledNaturalVoice.make(SpeechVoiceSettings(voice: "natural", wordsPerMinute: 350))
        let quiet = try InstalledNaturalVoice.make(SpeechVoiceSettings(voice: "natural", volumePercent: 35))
        let a = try normal.synthesize(text), b = try fast.synthesize(text), c = try quiet.synthesize(text)
        #expect(b.durationSeconds < a.durationSeconds * 0.65, "\(b.durationSeconds) vs \(a.durationSeconds)")
        // The level is set from each sentence's peak, so half the volume is half the peak.
        let ratio = Double(InstalledNaturalVoice.peak(c)) / Double(InstalledNaturalVoice.peak(a))
        #expect(abs(ratio - 0.5) < 0.02, "\(ratio)")
        let highPitch = try InstalledNaturalVoice.make(SpeechVoiceSettings(voice: "natural", pitch: 90))
        let d = try highPitch.synthesize(text)
        // The model has no pitch control: same length (VITS varies a little from run to run).
        #expect(abs(d.durationSeconds - a.durationSeconds) < 0.25 * a.durationSeconds)
    }

    @Test("a sentence said again comes from the cache; a hazard not ready is said at once by the fast voice")
    func cacheAndHazards() throws {
        let voice = try InstalledNaturalVoice.make()
        let first = try voice.synthesize("Chair, 2 meters, left.")
        let again = try voice.synthesize("Chair, 2 meters, left.")
        #expect(first == again && voice.counts.cached == 1)
        let hazard = try voice.synthesize("Car, 3 meters, right, approaching.", urgent: true)
        #expect(voice.counts.saidByFastVoice == 1 && hazard.durationSeconds > 0.8)
        // An urgent sentence that is ready comes from the cache, in the natural voice.
        #expect(try voice.synthesize("Chair, 2 meters, left.", urgent: true) == first)
        #expect(voice.counts.saidByFastVoice == 1)
    }

    @Test("a damaged, truncated or missing voice gives one sentence, and the fast voice speaks instead")
    func damagedVoiceFallsBack() throws {
        let model = try Data(contentsOf: InstalledNaturalVoice.folder.appendingPathComponent(NaturalVoice.modelFileName))
        let truncated = try InstalledNaturalVoice.copy(withModel: model.prefix(model.count / 3))
        let garbage = try InstalledNaturalVoice.copy(withModel: Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))
        let missing = TemporaryFolder.path("no-voice")
        defer { for folder in [truncated, garbage] { try? FileManager.default.removeItem(at: folder) } }
        for folder in [truncated, garbage, missing] {
            let chosen = try VoiceCatalog.start(SpeechVoiceSettings(voice: "natural"), naturalFolder: folder)
            let notice = try #require(chosen.fallbackNotice)
            #expect(chosen.voice is SpeechSynthesizer)
            #expect(notice.hasSuffix("; the fast voice speaks instead.") && notice.filter { $0 == "\n" }.isEmpty)
            #expect(notice.contains("natural voice"))
            // Not silent: the fast voice says the sentence.
            #expect(try chosen.voice.synthesize(notice).durationSeconds > 1)
        }
    }

    @Test("ONNX Runtime, with or without its arena, and OpenVINO make the same audio from the same ids when the noise is off")
    func runtimesAgree() throws {
        let json = try Data(contentsOf: InstalledNaturalVoice.folder.appendingPathComponent(NaturalVoice.modelFileName + ".json"))
        let config = try PiperVoiceConfig(json: json)
        let ids = config.ids(forPhonemes: try PiperPhonemes.phonemes(of: "The bus stop is on your right.", espeakVoice: "en-us"))
        let model = InstalledNaturalVoice.folder.appendingPathComponent(NaturalVoice.modelFileName)
        // Noise 0 and noise_w 0 make the model deterministic; with noise each run differs.
        var outputs: [NaturalVoiceRuntime: [Float]] = [:]
        for runtime in NaturalVoiceRuntime.allCases {
            try runtime.load(model, threadCount: 1).speak(ids: ids, scales: [0, 1, 0]) { outputs[runtime] = Array($0) }
        }
        let reference = try #require(outputs[.openVINO])
        #expect(reference.count > 22050 / 2 && (reference.map(abs).max() ?? 0) > 0.1)
        for runtime in [NaturalVoiceRuntime.onnxRuntime, .onnxRuntimeWithoutArena] {
            let audio = try #require(outputs[runtime])
            #expect(audio.count == reference.count)
            let worst = zip(audio, reference).map { abs($0 - $1) }.max() ?? 1
            #expect(worst < 1e-3, "\(runtime): \(worst)")
        }
    }

    @Test("the runtime is ONNX Runtime without its arena unless the environment names another; an unknown name is one sentence and the fast voice speaks")
    func runtimeChoice() throws {
        #expect(try NaturalVoiceRuntime.chosen(environment: [:]) == .onnxRuntimeWithoutArena)
        #expect(try NaturalVoiceRuntime.chosen(environment: [NaturalVoiceRuntime.environmentKey: "onnxruntime"]) == .onnxRuntime)
        #expect(try NaturalVoiceRuntime.chosen(environment: [NaturalVoiceRuntime.environmentKey: "OpenVINO"]) == .openVINO)
        #expect(throws: NaturalVoiceError.self) {
            try NaturalVoiceRuntime.chosen(environment: [NaturalVoiceRuntime.environmentKey: "tensorflow"])
        }
        let error = NaturalVoiceError.unknownRuntime(name: "tensorflow", known: NaturalVoiceRuntime.allCases.map(\.rawValue))
        #expect(error.userMessage.contains("tensorflow") && error.userMessage.contains("onnxruntime, onnxruntime-without-arena, openvino"))
    }

    @Test("every voice is named with its licence, the natural one with the lessac note; names choose the right voice")
    func listing() throws {
        let voices = VoiceCatalog.listing()
        let natural = try #require(voices.first { $0.name == "natural" })
        #expect(natural.licence.contains("lessac") && natural.licence.contains("more restrictive"))
        #expect(voices.contains { $0.name == "fast" } && voices.contains { $0.name == "fr-fr" })
        #expect(voices.allSatisfy { !$0.licence.isEmpty })
        #expect(VoiceCatalog.isNatural("Natural") && VoiceCatalog.isNatural("joe") && !VoiceCatalog.isNatural("en-us"))
        let fast = try VoiceCatalog.start(SpeechVoiceSettings(voice: "fast"))
        #expect(fast.voice is SpeechSynthesizer && fast.fallbackNotice == nil)
    }

    @Test("assist say --voice natural speaks; with a damaged voice it says one sentence and the fast voice speaks; --list-voices has the licence note")
    func command() throws {
        let wav = TemporaryFolder.path("natural.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let natural = try AssistBinary.run(["say", "--voice", "natural", "Bus, 4 meters, ahead.", "--speak-to", wav.path],
                                           environment: ["ASSIST_VOICES": InstalledNaturalVoice.folder.deletingLastPathComponent().path])
        #expect(natural.status == 0 && natural.standardError.isEmpty, "\(natural.standardError)")
        let heard = try AudioFile.read(wav)
        #expect(heard.durationSeconds > 0.8 && heard.durationSeconds < 3.5)

        let model = try Data(contentsOf: InstalledNaturalVoice.folder.appendingPathComponent(NaturalVoice.modelFileName))
        let damaged = try InstalledNaturalVoice.copy(withModel: model.prefix(model.count / 2))
        let voices = damaged.deletingLastPathComponent().appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: voices, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: damaged, to: voices.appendingPathComponent(NaturalVoice.name))
        defer { try? FileManager.default.removeItem(at: voices) }
        let fallback = try AssistBinary.run(["say", "--voice", "natural", "Bus, 4 meters, ahead.", "--speak-to", wav.path],
                                            environment: ["ASSIST_VOICES": voices.path])
        #expect(fallback.status == 0)
        let lines = fallback.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasSuffix("the fast voice speaks instead.") == true, "\(fallback.standardError)")
        // The sentence and then the text, both heard.
        #expect(try AudioFile.read(wav).durationSeconds > heard.durationSeconds + 2)

        let list = try AssistBinary.run(["say", "--list-voices"])
        #expect(list.status == 0 && list.standardOutput.contains("natural\t") && list.standardOutput.contains("lessac"))
    }
}

/// A slow voice that, like the natural one, wants its sentences said as they are made
/// (`streamsPieces`, never for a hazard), and makes the pieces in `gated` only when the test lets
/// it (`letNextPieceBeMade`), the first time each is asked for (the held rest of a stopped
/// sentence is made again later): the test renders audio while a piece is "being synthesised",
/// with no clock but the queue's audio time. Its audio is `ExactVoice`'s, 40 ms per character.
final class GatedStreamingVoice: TextToSpeech, @unchecked Sendable {
    var sampleRate: Int { 22050 }
    private let gated: Mutex<Set<String>>
    private let madeTexts = Mutex<[String]>([])
    private let pieceWaits = DispatchSemaphore(value: 0)
    private let pieceMayGo = DispatchSemaphore(value: 0)

    init(gating gated: Set<String> = []) { self.gated = Mutex(gated) }

    var made: [String] { madeTexts.withLock { $0 } }
    func streamsPieces(of text: String, urgent: Bool) -> Bool { !urgent }
    func synthesize(_ text: String) throws(SpeechError) -> SpeechAudio {
        if gated.withLock({ $0.remove(text) != nil }) {
            pieceWaits.signal()
            pieceMayGo.wait()
        }
        madeTexts.withLock { $0.append(text) }
        return try ExactVoice().synthesize(text)
    }

    /// Waits until a gated piece is being made. The bound only turns a hang into a failure.
    func waitForGatedPiece() -> Bool { pieceWaits.wait(timeout: .now() + 600) == .success }
    func letNextPieceBeMade() { pieceMayGo.signal() }
}

/// `queue.enqueue(utterance)` on another thread, as the session plans on its own.
final class EnqueueInBackground: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<EnqueueOutcome?>(nil)
    init(_ utterance: Utterance, on queue: UtteranceQueue) {
        Thread.detachNewThread { [self] in
            let outcome = queue.enqueue(utterance)
            result.withLock { $0 = outcome }
            done.signal()
        }
    }
    /// The outcome once planning ended. The bound only turns a hang into a failure.
    func outcome() -> EnqueueOutcome? { done.wait(timeout: .now() + 600) == .success ? result.withLock { $0 } : nil }
}

@Suite("A slow voice's sentence is heard while it is made, piece by piece", .serialized)
struct StreamingSpeechTests {
    static let sentence = "Car, 3 meters, on your left."

    /// `sentence` queued from another thread, its first piece (its first clause, "Car,") made and
    /// queued, its second (the rest, whole clauses) being made until the test lets it.
    static func startSentenceWhileSecondPieceIsMade() -> (GatedStreamingVoice, UtteranceQueue, EnqueueInBackground, RecordingAudioOutput) {
        let voice = GatedStreamingVoice(gating: ["3 meters, on your left."])
        let queue = UtteranceQueue(voice: voice)
        let planning = EnqueueInBackground(Utterance(sentence, priority: .answer), on: queue)
        #expect(voice.waitForGatedPiece())
        return (voice, queue, planning, RecordingAudioOutput())
    }

    static func render(_ queue: UtteranceQueue, seconds: Double, into recorder: RecordingAudioOutput) throws {
        for _ in 0..<Int(seconds * queue.sampleRateHz / 256) { try recorder.consume(queue.renderBlock(frameCount: 256)) }
    }

    @Test("pieces end at a clause or a phrase, the first after a few words and each next one at most twice as long, and joined they are every word in order")
    func pieces() {
        let pieces = Utterance.pieces(of: ["Car, 3 meters, on your left.", "Bench ahead"], breakingAfter: ",;:.!?",
                                      firstPieceWords: 2, maximumWords: 12)
        #expect(pieces == ["Car,", "3 meters,", "on your left.", "Bench ahead"])
        let long = "There is a construction site with a deep trench and a barrier across the whole pavement ahead of you and me"
        let cut = Utterance.pieces(of: [long], breakingAfter: ",", firstPieceWords: 2, maximumWords: 12)
        #expect(cut.map { $0.split(separator: " ").count } == [2, 4, 8, 7])
        #expect(cut.joined(separator: " ") == long)
    }

    @Test("pieces are whole clauses: the queue's first piece is the first clause, the next ones join clauses, and the voice's input is a whole sentence")
    func piecesAreWholeClauses() {
        // The queue's rule: never "Bicycle is" / "7 meters away,", a fragment said as a sentence.
        let queued = Utterance.pieces(of: ["Bicycle is 7 meters away, right.", "Two objects, closest first: bus, 3 meters, left; dog, 2 meters, right."],
                                      breakingAfter: ",;:.!?", firstPieceWords: 6, maximumWords: 12, firstClauseAlone: true)
        #expect(queued == ["Bicycle is 7 meters away,", "right.", "Two objects, closest first: bus, 3 meters, left; dog, 2 meters, right."])
        // The natural voice's rule (`NaturalVoice.render`): one model input per sentence, as Piper's.
        let inputs = Utterance.pieces(of: Utterance.sentences(in: "Obstacle, 4 meters ahead. Bus, 3 meters, ahead."), breakingAfter: ",;:.!?",
                                      firstPieceWords: NaturalVoice.maximumWordsPerInference,
                                      maximumWords: NaturalVoice.maximumWordsPerInference)
        #expect(inputs == ["Obstacle, 4 meters ahead.", "Bus, 3 meters, ahead."])
        // A sentence longer than the bound is cut between clauses, not inside one.
        let long = Utterance.pieces(of: ["Three objects, closest first: wine glass, 20 meters, slightly left; table, 15 meters, right."],
                                    breakingAfter: ",;:.!?", firstPieceWords: 8, maximumWords: 8)
        #expect(long == ["Three objects, closest first: wine glass, 20 meters,", "slightly left; table, 15 meters, right."])
    }

    @Test("the first piece is heard before the rest is made; the rest follows in order in the same track, none lost")
    func firstPieceIsHeardFirst() throws {
        let (voice, queue, planning, recorder) = Self.startSentenceWhileSecondPieceIsMade()
        // "Car," is 0.16 s of audio: it plays, then the queue waits in silence for the next piece.
        try Self.render(queue, seconds: 0.5, into: recorder)
        let heard = try #require(Rendered.audibleFrames(recorder.samples))
        #expect(heard.lowerBound < 256 && Double(heard.upperBound) / queue.sampleRateHz < 0.2)
        #expect(!queue.isIdle && queue.starvedSeconds > 0.25)
        #expect(queue.playbackLog.count == 1 && queue.playbackLog[0].endFrame == nil)
        voice.letNextPieceBeMade()
        guard case .queued(let plan) = try #require(planning.outcome()) else { Issue.record("not queued"); return }
        #expect(plan.utterance.text == Self.sentence && plan.laterParts.isEmpty)
        try queue.renderUntilIdle(to: recorder)
        #expect(voice.made == ["Car,", "3 meters, on your left."])
        let log = queue.playbackLog
        #expect(log.count == 1 && log[0].utterance.text == Self.sentence && !log[0].wasInterrupted)
        // Every piece is heard: 28 characters at 40 ms, less nothing.
        let speech = try #require(Rendered.audibleFrames(recorder.samples))
        let audibleSeconds = Double(speech.count) / queue.sampleRateHz - queue.starvedSeconds
        #expect(audibleSeconds > 0.04 * 25, "\(audibleSeconds) s")
    }

    @Test("stop while the rest is made silences the sentence; the rest is held, and more says it, so no word is lost")
    func stopMidSentence() throws {
        let (voice, queue, planning, recorder) = Self.startSentenceWhileSecondPieceIsMade()
        try Self.render(queue, seconds: 0.1, into: recorder)
        queue.stop()
        try Self.render(queue, seconds: 0.02, into: recorder)
        #expect(queue.playbackLog.first?.wasInterrupted == true)
        let silencedAt = recorder.samples.count
        voice.letNextPieceBeMade()
        guard case .queued(let plan) = try #require(planning.outcome()) else { Issue.record("not queued"); return }
        #expect(plan.utterance.phrases == ["Car,"])
        #expect(plan.laterParts.map(\.utterance.text) == ["3 meters, on your left."])
        // Held: nothing more is said until "more".
        #expect(queue.isIdle)
        try Self.render(queue, seconds: 0.5, into: recorder)
        #expect(Rendered.audibleFrames(Array(recorder.samples[silencedAt...])) == nil)
        #expect(queue.more())
        try queue.renderUntilIdle(to: recorder)
        #expect(queue.playbackLog.map(\.utterance.text) == ["Car,", "3 meters, on your left."])
    }

    @Test("a hazard while a sentence is made is said at once, whole, and the cut sentence's rest is not said after it")
    func hazardCutsStreamedSentence() throws {
        let (voice, queue, planning, recorder) = Self.startSentenceWhileSecondPieceIsMade()
        try Self.render(queue, seconds: 0.1, into: recorder)
        let hazard = queue.enqueue(Utterance("Step down, 1 meter, ahead.", priority: .hazard))
        guard case .queued(let warning) = hazard else { Issue.record("hazard not queued"); return }
        #expect(warning.utterance.text == "Step down, 1 meter, ahead.")
        try Self.render(queue, seconds: 0.1, into: recorder)
        #expect(queue.playbackLog.map(\.utterance.priority) == [.answer, .hazard])
        voice.letNextPieceBeMade()
        guard case .queued(let plan) = try #require(planning.outcome()) else { Issue.record("not queued"); return }
        #expect(plan.utterance.phrases == ["Car,"] && plan.laterParts.isEmpty)
        try queue.renderUntilIdle(to: recorder)
        let log = queue.playbackLog
        #expect(log.count == 2 && log[0].wasInterrupted && !log[1].wasInterrupted)
        // The warning was made whole, never in pieces.
        #expect(voice.made.contains("Step down, 1 meter, ahead."))
    }

    @Test("a streamed message longer than 3 s is said in parts of at most 3 s, in order, none left out")
    func streamedPartsKeepTheLimit() throws {
        let voice = GatedStreamingVoice()
        let queue = UtteranceQueue(voice: voice)
        let text = "Caution, there is a construction site with a deep trench, and a barrier across the pavement ahead of you, so keep to the right."
        guard case .queued(let plan) = queue.enqueue(Utterance(text, priority: .answer, earcon: .obstacleHazard)) else {
            Issue.record("not queued"); return
        }
        #expect(!plan.laterParts.isEmpty && plan.durationSeconds <= 3)
        let recorder = RecordingAudioOutput()
        try queue.renderUntilIdle(to: recorder)
        let log = queue.playbackLog
        #expect(log.map(\.utterance.text).joined(separator: " ") == text)
        for record in log {
            let seconds = Double(try #require(record.endFrame) - record.startFrame) / queue.sampleRateHz
            #expect(seconds <= 3, "\(record.utterance.text): \(seconds) s")
        }
        #expect(queue.starvedSeconds == 0)
    }
}
