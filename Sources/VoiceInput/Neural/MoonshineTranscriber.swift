import AssistCore
import Foundation
import ONNXRuntime

/// What Moonshine made of some audio.
public struct Transcript: Sendable, Equatable {
    /// As the model wrote it (capitals, punctuation).
    public let text: String
    public let tokens: [Int]
    /// The model's own mean log-probability per token of what it chose (end of text included),
    /// before any bias: near 0 when sure, far below when guessing.
    public let meanLogProbability: Double
    /// Where the transcription's time went (for the latency benchmark).
    public var timing = TranscriptionTiming()
    /// The reading asked for by `MoonshineTranscriber.alternative`, weighed by the model.
    public var alternative: AlternativeReading?

    /// 0…1: the geometric mean of the chosen tokens' probabilities.
    public var confidence: Double { exp(meanLogProbability) }
}

/// Another reading of the same audio and how much less likely the model finds it than what it
/// wrote: the sum of its own log-probabilities per token (end of text included) of the reading,
/// held to those words, less that of the transcript. 0: the same words; −∞: the model could not
/// spell it among its likely tokens.
public struct AlternativeReading: Sendable, Equatable {
    public let text: String
    public let logProbabilityGap: Double
}

/// Where one transcription's time went: the encoder over the whole audio, then the decoder one
/// token per step (end of text included).
public struct TranscriptionTiming: Sendable, Equatable, Codable {
    public var encoderSeconds = 0.0
    public var decoderSeconds = 0.0
    public var decoderSteps = 0
    /// Seconds of audio given to the encoder (after padding to its minimum).
    public var encodedAudioSeconds = 0.0

    public init() {}
}

/// Moonshine base-en speech recognition (MIT, Useful Sensors), run by ONNX Runtime: the encoder
/// turns 16 kHz audio into hidden states; the merged decoder, fed one token at a time with its
/// key/value cache, writes the text. Greedy decoding, optionally biased towards the command
/// language's phrases (`PhraseBias`).
public final class MoonshineTranscriber {
    public static let sampleRateHz = 16_000
    static let layers = 8
    static let heads = 8
    static let headSize = 52
    /// The model writes about 3 tokens a second of speech; this bounds a runaway repetition in
    /// noise (as Moonshine's own reference decoder does, with the same rate).
    static let maximumTokensPerSecond = 6.5
    /// The encoder needs some audio (its convolutions shrink 16 kHz by 384): shorter input is
    /// padded with silence.
    static let minimumSamples = 8_000

    private let encoder: ONNXSession
    private let decoder: ONNXSession
    public let tokenizer: MoonshineTokenizer
    public var bias: PhraseBias
    /// Given the words of each transcript, another reading of the same audio to weigh against it
    /// (nil: none); the transcript then carries the model's preference between them (`AlternativeReading`).
    public var alternative: ((String) -> String?)?
    private let cacheInputs: [String]
    private let cacheOutputs: [String]

    /// The decoder's threads: one. A step feeds one token through many small operations; with
    /// more threads each operation wakes a sleeping helper thread (spinning is off, see
    /// `ONNXSession`). Measured on a busy 2-core machine in one run: decoder median 1,132 ms on
    /// one thread against 1,266 ms on ONNX Runtime's default (BENCHMARKS.md, "Issue 35
    /// (twenty-first session)"); the step's cost lies elsewhere.
    public static let decoderThreadCount = 1

    /// `threadCount`: the encoder's (0: ONNX Runtime's default, every core); `decoderThreadCount`: the decoder's.
    /// `onnxCopies`: run the folded copies of the models (`ONNXModelExport.foldedCopy`); false runs the
    /// `.ort` files as they are, only for the benchmark's before-and-after (`neural-ort`).
    public init(files: SpeechModelFiles, bias: PhraseBias = .none, threadCount: Int = 0,
                decoderThreadCount: Int = MoonshineTranscriber.decoderThreadCount, onnxCopies: Bool = true) throws(SpeechRecognitionError) {
        tokenizer = try MoonshineTokenizer(contentsOf: files.tokenizer)
        do {
            // The folded copies, whose expansion of the 8-bit weights ONNX Runtime did once
            // (`ONNXModelExport`: a decoder step 3-4 times faster); the `.ort` files themselves
            // when no copy can be made (slower, same results), and for their errors.
            func session(_ model: URL, threads: Int) throws(ONNXRuntimeError) -> ONNXSession {
                for _ in 0..<(onnxCopies ? 2 : 0) {
                    guard let folded = try? ONNXModelExport.foldedCopy(of: model) else { break }
                    if let session = try? ONNXSession(modelAt: folded, options: ONNXModelExport.foldedSessionOptions(threadCount: threads)) {
                        return session
                    }
                    // A copy that does not load (cut short by a full disk, or from another ONNX
                    // Runtime) is made again, once.
                    try? FileManager.default.removeItem(at: folded)
                }
                return try ONNXSession(modelAt: model, options: ONNXSessionOptions(threadCount: threads))
            }
            encoder = try session(files.encoder, threads: threadCount)
            decoder = try session(files.decoder, threads: decoderThreadCount)
        } catch { throw .model(error) }
        self.bias = bias
        var inputs: [String] = []
        var outputs: [String] = []
        for layer in 0..<Self.layers {
            for part in ["decoder.key", "decoder.value", "encoder.key", "encoder.value"] {
                inputs.append("past_key_values.\(layer).\(part)")
                outputs.append("present.\(layer).\(part)")
            }
        }
        for name in inputs + ["input_ids", "encoder_hidden_states", "use_cache_branch"] where !decoder.inputNames.contains(name) {
            throw .model(.unknownTensor(name: name, model: files.decoder.lastPathComponent))
        }
        cacheInputs = inputs
        cacheOutputs = outputs
    }

    /// Transcribes 16 kHz mono audio (full scale ±1).
    public func transcribe(_ samples: [Float]) throws(SpeechRecognitionError) -> Transcript {
        do { return try decode(samples) } catch { throw .model(error) }
    }

    private func decode(_ samples: [Float]) throws(ONNXRuntimeError) -> Transcript {
        var audio = samples
        if audio.count < Self.minimumSamples { audio += [Float](repeating: 0, count: Self.minimumSamples - audio.count) }
        let clock = ContinuousClock()
        let began = clock.now
        let hidden = try encoder.run(["input_values": try ONNXTensor(shape: [1, audio.count], floats: audio)],
                                     outputs: ["last_hidden_state"])[0]
        let encoded = clock.now
        let seconds = Double(samples.count) / Double(Self.sampleRateHz)
        let maximumTokens = max(4, Int((seconds * Self.maximumTokensPerSecond).rounded(.up)))

        let (tokens, logProbabilitySum, step) = try greedyDecoding(hidden: hidden, maximumTokens: maximumTokens)
        var transcript = Transcript(text: tokenizer.text(of: tokens), tokens: tokens,
                                    meanLogProbability: logProbabilitySum / Double(max(1, step)))
        transcript.timing.encoderSeconds = (encoded - began).seconds
        transcript.timing.decoderSeconds = (clock.now - encoded).seconds
        transcript.timing.decoderSteps = step
        transcript.timing.encodedAudioSeconds = Double(audio.count) / Double(Self.sampleRateHz)
        if let alternative = alternative?(NeuralUtteranceRecognizer.spokenText(transcript.text)) {
            let target = NeuralUtteranceRecognizer.spokenText(alternative)
            let gap = target == NeuralUtteranceRecognizer.spokenText(transcript.text) ? 0
                : try heldReading(target, hidden: hidden, maximumTokens: maximumTokens + 4).map { $0 - logProbabilitySum } ?? -.infinity
            transcript.alternative = AlternativeReading(text: target, logProbabilityGap: gap)
        }
        return transcript
    }

    /// Greedy decoding (biased by `bias`, if any), one token a step from the start of text until
    /// the end of text or `maximumTokens`.
    private func greedyDecoding(hidden: ONNXTensor, maximumTokens: Int) throws(ONNXRuntimeError)
        -> (tokens: [Int], logProbabilitySum: Double, steps: Int) {
        var cache = try emptyCache()
        var tokens: [Int] = []
        var text = ""
        var logProbabilitySum = 0.0
        var previous = MoonshineTokenizer.startOfText
        var step = 0
        while step <= maximumTokens {
            let outputs = try advance(cache: &cache, previous: previous, first: step == 0, hidden: hidden)
            let (token, logProbability) = try outputs[0].withFloats { choose(from: $0, text: text) }
            logProbabilitySum += Double(logProbability)
            step += 1
            if token == MoonshineTokenizer.endOfText { break }
            tokens.append(token)
            text += tokenizer.pieceText(token)
            previous = token
            // Over noise after the words Moonshine can fall into saying the last words again and
            // again ("exit exit exit …"): once a run repeats a third time, the repeats are dropped.
            if let period = Self.repetitionPeriod(tokens) {
                tokens.removeLast(2 * period)
                break
            }
        }
        return (tokens, logProbabilitySum, step)
    }

    /// The decoder's cache before the first step: empty past tensors.
    private func emptyCache() throws(ONNXRuntimeError) -> [String: ONNXTensor] {
        let empty = try ONNXTensor(shape: [1, Self.heads, 0, Self.headSize], floats: [])
        return Dictionary(uniqueKeysWithValues: cacheInputs.map { ($0, empty) })
    }

    /// One decoder step fed `previous`: its outputs (logits first), the cache moved on. The
    /// first step runs without cache (use_cache_branch false) on empty past tensors and computes
    /// the cross-attention keys and values once; later steps reuse those, and feed back the
    /// self-attention cache, which grows by one position per token.
    private func advance(cache: inout [String: ONNXTensor], previous: Int, first: Bool,
                         hidden: ONNXTensor) throws(ONNXRuntimeError) -> [ONNXTensor] {
        var inputs = cache
        inputs["input_ids"] = try ONNXTensor(shape: [1, 1], int64s: [Int64(previous)])
        inputs["encoder_hidden_states"] = hidden
        inputs["use_cache_branch"] = try ONNXTensor(shape: [1], bools: [!first])
        let outputs = try decoder.run(inputs, outputs: ["logits"] + cacheOutputs)
        for (index, name) in cacheInputs.enumerated() where first || name.contains(".decoder.") {
            cache[name] = outputs[index + 1]
        }
        return outputs
    }

    /// How many of the model's most probable tokens a held reading may choose from at each step:
    /// a spelling the model does not rank this high is one it does not hear.
    static let spellingCandidates = 64
    /// How many partial readings are kept at each step: the best spelling of a word is not
    /// always the one whose first piece the model prefers ("Assistiv" + "e" against "Assist" + "ive").
    static let heldReadingBeam = 4

    /// The model's log-probability (summed over the tokens, end of text included) of the best
    /// spelling of `target` (spoken words) it can find by a small beam search, each token among
    /// its `spellingCandidates` most probable; nil when no spelling reaches the end.
    private func heldReading(_ target: String, hidden: ONNXTensor, maximumTokens: Int) throws(ONNXRuntimeError) -> Double? {
        struct Reading { var cache: [String: ONNXTensor]; var previous: Int; var text: String; var logProbability: Double }
        var readings = [Reading(cache: try emptyCache(), previous: MoonshineTokenizer.startOfText, text: "", logProbability: 0)]
        var best: Double?
        for step in 0...maximumTokens {
            var extended: [(from: Int, token: Int, logProbability: Double)] = []
            var outputs: [[String: ONNXTensor]] = []
            for (index, reading) in readings.enumerated() {
                var cache = reading.cache
                let stepOutputs = try advance(cache: &cache, previous: reading.previous, first: step == 0, hidden: hidden)
                outputs.append(cache)
                for (token, logProbability) in try stepOutputs[0].withFloats({ spellings(target, from: $0, text: reading.text) }) {
                    let total = reading.logProbability + Double(logProbability)
                    if token == MoonshineTokenizer.endOfText {
                        best = max(best ?? -.infinity, total)
                    } else {
                        extended.append((index, token, total))
                    }
                }
            }
            // Log-probabilities only fall: a partial reading below the best finished one cannot win.
            extended = extended.filter { $0.logProbability > best ?? -.infinity }.sorted { $0.logProbability > $1.logProbability }
            guard !extended.isEmpty else { break }
            readings = extended.prefix(Self.heldReadingBeam).map { next in
                Reading(cache: outputs[next.from], previous: next.token, text: readings[next.from].text + tokenizer.pieceText(next.token),
                        logProbability: next.logProbability)
            }
        }
        return best
    }

    /// The tokens that may come next in a reading held to `target` (spoken words), with the
    /// model's log-probability of each, most probable first: those among its
    /// `spellingCandidates` best that keep the words on the way to the target, the end of text
    /// only once it is reached.
    private func spellings(_ target: String, from logits: UnsafeBufferPointer<Float>, text: String) -> [(Int, Float)] {
        let count = min(logits.count, tokenizer.pieces.count)
        var best = 0
        for index in 1..<count where logits[index] > logits[best] { best = index }
        var sum: Double = 0
        var top: [Int] = []
        var floor = -Float.infinity
        for index in 0..<count {
            sum += exp(Double(logits[index] - logits[best]))
            guard logits[index] > floor || top.count < Self.spellingCandidates else { continue }
            top.insert(index, at: top.firstIndex { logits[$0] < logits[index] } ?? top.count)
            if top.count > Self.spellingCandidates { top.removeLast() }
            if top.count == Self.spellingCandidates { floor = logits[top.last!] }
        }
        let logNormalizer = logits[best] + Float(log(sum))
        let sofar = NeuralUtteranceRecognizer.spokenText(text)
        var allowed: [(Int, Float)] = []
        for token in top {
            if token == MoonshineTokenizer.endOfText {
                if sofar == target { allowed.append((token, logits[token] - logNormalizer)) }
                continue
            }
            let piece = tokenizer.pieceText(token)
            let next = NeuralUtteranceRecognizer.spokenText(text + piece)
            // Punctuation and capitals are the model's to choose: only the words are held. A
            // token that adds no word (punctuation, a bare space, a special token) only as one
            // mark after a letter, never two in a row: else the reading could mark time forever.
            if next == sofar {
                if piece.contains(where: { $0.isPunctuation }), text.last.map({ $0.isLetter || $0.isNumber }) ?? false {
                    allowed.append((token, logits[token] - logNormalizer))
                }
            } else if target.hasPrefix(next) {
                allowed.append((token, logits[token] - logNormalizer))
            }
        }
        return allowed
    }

    /// The length of a run of 1–8 tokens that ends `tokens` three times over, if any.
    static func repetitionPeriod(_ tokens: [Int]) -> Int? {
        for period in 1...8 where tokens.count >= 3 * period {
            let last = tokens.suffix(period)
            if tokens.dropLast(period).suffix(period).elementsEqual(last),
               tokens.dropLast(2 * period).suffix(period).elementsEqual(last) { return period }
        }
        return nil
    }

    /// The next token: the model's most probable one, or, under bias, the best of its few most
    /// probable once each is given its bias. Returns the token and the model's own log-probability of it.
    private func choose(from logits: UnsafeBufferPointer<Float>, text: String) -> (Int, Float) {
        // Only the vocabulary's real tokens (the logits are padded to 32,768).
        let count = min(logits.count, tokenizer.pieces.count)
        var best = 0
        for index in 1..<count where logits[index] > logits[best] { best = index }
        // One pass: the normaliser, and the tokens within reach of the best (few: the model is
        // usually sure), of which the `candidates` most probable may be re-ranked.
        let floor = logits[best] - bias.reach
        var sum: Double = 0
        var withinReach: [Int] = []
        for index in 0..<count {
            sum += exp(Double(logits[index] - logits[best]))
            if logits[index] >= floor { withinReach.append(index) }
        }
        let logNormalizer = logits[best] + Float(log(sum))
        guard !bias.isEmpty, bias.candidates > 1 else { return (best, logits[best] - logNormalizer) }
        let top = withinReach.sorted { logits[$0] > logits[$1] }.prefix(bias.candidates)
        let current = bias.match(text)
        var chosen = best
        var chosenScore = -Float.infinity
        for token in top {
            let piece = token == MoonshineTokenizer.endOfText ? "" : tokenizer.pieceText(token)
            let score = logits[token] + (token == MoonshineTokenizer.endOfText ? endBonus(current) : bias.bonus(text: text, current: current, piece: piece))
            if score > chosenScore { chosen = token; chosenScore = score }
        }
        return (chosen, logits[chosen] - logNormalizer)
    }

    /// Ending the text in the middle of a phrase gives its favour back; after a whole phrase it keeps it.
    private func endBonus(_ current: (depth: Int, complete: Bool)) -> Float {
        current.complete ? 0 : -Float(current.depth) * bias.natsPerCharacter
    }
}
