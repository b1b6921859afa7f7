import AssistCore
import Commands
import Foundation
import Media
import ONNXRuntime
import TestSupport
import Testing
@testable import VoiceInput

/// The neural recogniser (Silero VAD, Moonshine base-en) on speech these tests make with
/// festival; the models are the ones scripts/setup installs into .deps/models.
@Suite("Neural speech recognition", .serialized)
struct NeuralRecognitionTests {
    static let silence = [Float](repeating: 0, count: 16_000)

    func neuralRecognizer(wakePhrase: String? = nil) throws -> CommandRecognizer {
        try CommandRecognizer(neural: try SpeechModelFiles.installed(), language: englishVocabulary.language,
                              extraPhrases: wakePhrase.map { [$0] } ?? [])
    }

    /// `texts` said by festival one after another, a second of silence around each, at 16 kHz.
    func recording(_ texts: [String], in folder: URL) throws -> [Float] {
        var samples = Self.silence
        for text in texts { samples += try spokenSamples(text, in: folder, sampleRateHz: 16_000) + Self.silence }
        return samples
    }

    func events(_ samples: [Float], recognizer: CommandRecognizer, trigger: ListeningTrigger = .always,
                in folder: URL) throws -> [String] {
        let url = folder.appendingPathComponent("recording.wav")
        try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: 16_000, channelCount: 1), to: url)
        let listener = CommandListener(recognizer: recognizer, trigger: trigger, understand: englishVocabulary.meaning(of:))
        var seen: [String] = []
        try listener.listen(to: try AudioFileSpeechSource(url: url)) { event in
            switch event {
            case .heard(let command): seen.append("\(command.text) → \(command.meaning ?? "nothing")")
            case .unclear(let heard): seen.append("unclear: \(heard.text)")
            case .tooNoisy: seen.append("too noisy")
            case .awake: seen.append("awake")
            }
        }
        return seen
    }

    @Test("a spoken “stop detecting” is transcribed to words the command language takes as stopping")
    func stopDetecting() throws {
        let folder = try TemporaryFolder.make("neural-stop")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stop = try #require(englishVocabulary.meaning(of: "stop detecting"))
        let heard = try events(try recording(["stop detecting"], in: folder), recognizer: try neuralRecognizer(), in: folder)
        #expect(heard == ["stop detecting → \(stop)"])
    }

    @Test("two commands with silence between them are two utterances, each understood")
    func twoCommands() throws {
        let folder = try TemporaryFolder.make("neural-two")
        defer { try? FileManager.default.removeItem(at: folder) }
        let louder = try #require(englishVocabulary.meaning(of: "louder"))
        let scan = try #require(englishVocabulary.meaning(of: "scan now"))
        let heard = try events(try recording(["louder", "scan now"], in: folder), recognizer: try neuralRecognizer(), in: folder)
        #expect(heard == ["louder → \(louder)", "scan now → \(scan)"])
    }

    @Test("free speech that is no command comes out as said, and means nothing")
    func freeSpeech() throws {
        let folder = try TemporaryFolder.make("neural-free")
        defer { try? FileManager.default.removeItem(at: folder) }
        let heard = try events(try recording(["I would like a cup of tea"], in: folder), recognizer: try neuralRecognizer(), in: folder)
        #expect(heard.count == 1)
        #expect(heard.first?.hasSuffix("→ nothing") == true, "\(heard)")
        #expect(heard.first?.contains("cup of tea") == true, "\(heard)")
    }

    @Test("the speech detector finds where speech starts and ends in silence, keeping the first syllable")
    func speechBoundaries() throws {
        let folder = try TemporaryFolder.make("neural-bounds")
        defer { try? FileManager.default.removeItem(at: folder) }
        let speech = try spokenSamples("describe the scene", in: folder, sampleRateHz: 16_000)
        let lead = [Float](repeating: 0, count: 24_000), tail = [Float](repeating: 0, count: 32_000)
        let recognizer = try neuralRecognizer()
        let heard = try LiveReplay().run(RecognizerAudio.toInt16(lead + speech + tail), through: recognizer.utterances)
        #expect(heard.count == 1)
        let utterance = try #require(heard.first?.utterance)
        let speechStart = 1.5, speechEnd = 1.5 + Double(speech.count) / 16_000
        // Festival's file has a little silence of its own around the words.
        #expect(utterance.speechStartSeconds >= speechStart - 0.05 && utterance.speechStartSeconds <= speechStart + 0.4)
        // Closed by the detector after its silence wait (0.35 s), well before the recording ends.
        #expect(utterance.endDetectedSeconds > speechEnd - 0.3 && utterance.endDetectedSeconds <= speechEnd + 0.8)
        #expect(utterance.text == "describe the scene")
    }

    @Test("silence and steady noise are no utterance at all")
    func noiseAlone() throws {
        var generator = SplitMix64(seed: 7)
        let noise = (0..<(16_000 * 4)).map { _ in Float.random(in: -0.03...0.03, using: &generator) }
        let recognizer = try neuralRecognizer()
        let heard = try LiveReplay().run(RecognizerAudio.toInt16(Self.silence + noise + Self.silence), through: recognizer.utterances)
        #expect(heard.filter { recognizer.verdict($0.utterance) != .noSpeech }.isEmpty, "\(heard.map(\.utterance.text))")
    }

    @Test("with the wake phrase, a command in the seconds after “Assistive Vision” is acted on, a later one is not")
    func wakePhrase() throws {
        let folder = try TemporaryFolder.make("neural-wake")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scan = try #require(englishVocabulary.meaning(of: "scan now"))
        let wake = try spokenSamples("Assistive Vision", in: folder, sampleRateHz: 16_000)
        let command = try spokenSamples("scan now", in: folder, sampleRateHz: 16_000)
        let longPause = [Float](repeating: 0, count: 16_000 * 6)
        let samples = Self.silence + wake + Self.silence + command + longPause + command + Self.silence
        let heard = try events(samples, recognizer: try neuralRecognizer(wakePhrase: "assistive vision"),
                               trigger: .wakePhrase("assistive vision", awakeSeconds: 4), in: folder)
        #expect(heard == ["awake", "scan now → \(scan)"])
    }

    @Test("a damaged model file is a typed error told in one sentence")
    func damagedModel() throws {
        let installed = try SpeechModelFiles.installed()
        let folder = try TemporaryFolder.make("neural-damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let moonshine = folder.appendingPathComponent("moonshine-base-en")
        try FileManager.default.createDirectory(at: moonshine, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: installed.tokenizer, to: moonshine.appendingPathComponent("tokenizer.bin"))
        try FileManager.default.copyItem(at: installed.decoder, to: moonshine.appendingPathComponent("decoder_model_merged.ort"))
        // The encoder's first half only, as a download cut off would leave it.
        let encoder = try Data(contentsOf: installed.encoder)
        try encoder.prefix(encoder.count / 2).write(to: moonshine.appendingPathComponent("encoder_model.ort"))
        let files = SpeechModelFiles(moonshineFolder: moonshine, voiceActivity: installed.voiceActivity)
        #expect {
            _ = try MoonshineTranscriber(files: files)
        } throws: { error in
            guard case .model(.modelUnreadable(let path, _))? = error as? SpeechRecognitionError else { return false }
            let message = (error as! SpeechRecognitionError).userMessage
            return path.hasSuffix("encoder_model.ort") && message.hasSuffix(".") && !message.dropLast().contains(". ")
                && message.contains("scripts/setup")
        }
    }

    @Test("Moonshine from the folded copies of its models writes the same words, as sure, as from the .ort files")
    func onnxCopiesSameWords() throws {
        let folder = try TemporaryFolder.make("neural-onnx-copies")
        defer { try? FileManager.default.removeItem(at: folder) }
        let samples = try spokenSamples("please tell me what is in front of me", in: folder, sampleRateHz: 16_000)
        let files = try SpeechModelFiles.installed()
        let fromCopies = try MoonshineTranscriber(files: files).transcribe(samples)
        let fromORT = try MoonshineTranscriber(files: files, onnxCopies: false).transcribe(samples)
        #expect(fromCopies.tokens == fromORT.tokens)
        #expect(!fromCopies.tokens.isEmpty)
        #expect(abs(fromCopies.meanLogProbability - fromORT.meanLogProbability) < 1e-3)
        // The folded copies are made next to the models and reused; the `.onnx` step is not left behind.
        for model in [files.encoder, files.decoder] {
            let name = model.deletingPathExtension().lastPathComponent
            let folder = model.deletingLastPathComponent()
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name + ".folded.ort").path))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name + ".onnx").path))
        }
    }

    @Test("a folded copy that does not load (cut short) is made again, and the words are the same")
    func damagedFoldedCopyRemade() throws {
        let folder = try TemporaryFolder.make("neural-folded-damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let installed = try SpeechModelFiles.installed()
        let moonshine = folder.appendingPathComponent("moonshine-base-en")
        try FileManager.default.createDirectory(at: moonshine, withIntermediateDirectories: true)
        for file in [installed.encoder, installed.decoder, installed.tokenizer] {
            try FileManager.default.copyItem(at: file, to: moonshine.appendingPathComponent(file.lastPathComponent))
        }
        let files = SpeechModelFiles(moonshineFolder: moonshine, voiceActivity: installed.voiceActivity)
        // No folded copies yet: the first start must make them (and the user is told so first).
        #expect(files.needsPreparing)
        let samples = try spokenSamples("turn the volume up", in: folder, sampleRateHz: 16_000)
        let expected = try MoonshineTranscriber(files: installed).transcribe(samples)
        // Newer than the model, so taken as current, but only the first kilobyte of a real one.
        let folded = moonshine.appendingPathComponent("decoder_model_merged.folded.ort")
        let real = try Data(contentsOf: installed.decoder.deletingLastPathComponent().appendingPathComponent("decoder_model_merged.folded.ort"))
        try real.prefix(1024).write(to: folded)

        let heard = try MoonshineTranscriber(files: files).transcribe(samples)

        #expect(heard.tokens == expected.tokens)
        let size = try FileManager.default.attributesOfItem(atPath: folded.path)[.size] as? NSNumber
        #expect((size?.intValue ?? 0) > 1024)
        #expect(!files.needsPreparing)
    }

    @Test("a missing model and a cut-off tokenizer are typed errors")
    func missingFiles() throws {
        let folder = try TemporaryFolder.make("neural-missing")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ONNXRuntimeError.modelFileMissing(path: folder.appendingPathComponent("none.onnx").path)) {
            _ = try ONNXSession(modelAt: folder.appendingPathComponent("none.onnx"))
        }
        let tokenizer = folder.appendingPathComponent("tokenizer.bin")
        try Data(try Data(contentsOf: try SpeechModelFiles.installed().tokenizer).prefix(1_000)).write(to: tokenizer)
        #expect {
            _ = try MoonshineTokenizer(contentsOf: tokenizer)
        } throws: { error in
            guard case .tokenizerDamaged? = error as? SpeechRecognitionError else { return false }
            return true
        }
    }

    @Test("the tokenizer spells words from pieces and bytes")
    func tokenizer() throws {
        let tokenizer = try MoonshineTokenizer(contentsOf: try SpeechModelFiles.installed().tokenizer)
        #expect(tokenizer.pieces.count == 32_000)
        // "é" as two byte tokens (0xC3 0xA9), each id 3 + its byte.
        #expect(tokenizer.text(of: [3 + 0xC3, 3 + 0xA9]) == "é")
        #expect(tokenizer.text(of: [MoonshineTokenizer.startOfText, MoonshineTokenizer.endOfText]) == "")
    }
}


/// Transcribing ahead (`NeuralUtteranceRecognizer.transcribesAhead`): the transcript is made
/// during the silence that confirms the end, from the very audio that is transcribed after it.
@Suite("Neural recognition: transcribing ahead of the end", .serialized)
struct TranscribingAheadTests {
    func recognizer(ahead: Bool) throws -> NeuralUtteranceRecognizer {
        let recognizer = try #require(try CommandRecognizer(neural: try SpeechModelFiles.installed(), language: englishVocabulary.language)
            .utterances as? NeuralUtteranceRecognizer)
        recognizer.transcribesAhead = ahead
        return recognizer
    }

    /// Festival's speech of `text` without the silence it puts around the words.
    func words(_ text: String, in folder: URL) throws -> [Float] {
        let speech = try spokenSamples(text, in: folder, sampleRateHz: 16_000)
        let start = Int(NoiseMixer.speechStartSeconds(speech, sampleRateHz: 16_000) * 16_000)
        let end = Int(NoiseMixer.speechEndSeconds(speech, sampleRateHz: 16_000) * 16_000)
        return Array(speech[start..<end])
    }

    func silence(_ seconds: Double) -> [Float] { [Float](repeating: 0, count: Int(seconds * 16_000)) }

    @Test("the transcript made ahead is the one made after the wait, word for word and as sure, and it is the one used")
    func sameTranscript() throws {
        let folder = try TemporaryFolder.make("neural-ahead")
        defer { try? FileManager.default.removeItem(at: folder) }
        let audio = RecognizerAudio.toInt16(silence(1) + (try words("describe the scene", in: folder)) + silence(1))
        let ahead = try LiveReplay().run(audio, through: try recognizer(ahead: true))
        let after = try LiveReplay().run(audio, through: try recognizer(ahead: false))
        #expect(ahead.count == 1 && after.count == 1)
        #expect(ahead.first?.utterance.text == "describe the scene")
        #expect(ahead.first?.utterance.text == after.first?.utterance.text)
        #expect(ahead.first?.utterance.confidence == after.first?.utterance.confidence)
        #expect(ahead.first?.utterance.endDetectedSeconds == after.first?.utterance.endDetectedSeconds)
        #expect(ahead.first?.utterance.transcription?.madeAhead == true)
        #expect(after.first?.utterance.transcription?.madeAhead == false)
    }

    @Test("speech that goes on after a short pause throws away what was made ahead: the whole command is heard")
    func pauseInsideCommand() throws {
        let folder = try TemporaryFolder.make("neural-ahead-pause")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A quarter of a second: more than the first silent window (32 ms), after which a
        // transcript is made ahead, less than the 0.35 s that ends a command.
        let audio = silence(1) + (try words("stop", in: folder)) + silence(0.25) + (try words("detecting", in: folder)) + silence(1)
        let recognizer = try recognizer(ahead: true)
        let heard = try LiveReplay().run(RecognizerAudio.toInt16(audio), through: recognizer)
        #expect(heard.map(\.utterance.text) == ["stop detecting"])
        #expect(recognizer.transcriptsThrownAway >= 1)
        #expect(heard.first?.utterance.transcription?.madeAhead == true)
    }
}
