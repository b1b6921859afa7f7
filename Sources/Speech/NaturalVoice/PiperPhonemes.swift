import Foundation

/// A Piper voice's `.onnx.json`: the phoneme ids it was trained with, its sample rate, its espeak-ng
/// language and its default noise and length scales.
public struct PiperVoiceConfig: Sendable, Equatable {
    public var sampleRateHz: Int
    /// The espeak-ng voice whose phonemes the model was trained on, e.g. "en-us".
    public var espeakVoice: String
    public var noiseScale: Float
    public var lengthScale: Float
    public var noiseW: Float
    /// Each phoneme (one Unicode scalar of espeak-ng's IPA, decomposed) and its ids.
    public var phonemeIds: [Unicode.Scalar: [Int64]]

    /// Piper's reserved symbols: padding between phonemes, beginning and end of the sequence.
    static let pad: Unicode.Scalar = "_", beginning: Unicode.Scalar = "^", end: Unicode.Scalar = "$"

    /// Reads the `.onnx.json` beside a voice's model; a sentence says what is wrong with it.
    public init(json data: Data) throws(NaturalVoiceError) {
        struct File: Decodable {
            struct Audio: Decodable { var sample_rate: Int }
            struct Espeak: Decodable { var voice: String }
            struct Inference: Decodable { var noise_scale: Float; var length_scale: Float; var noise_w: Float }
            var audio: Audio
            var espeak: Espeak
            var inference: Inference?
            var phoneme_id_map: [String: [Int64]]
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw .damagedConfig(reason: "it is not a Piper voice description")
        }
        var ids: [Unicode.Scalar: [Int64]] = [:]
        for (symbol, symbolIds) in file.phoneme_id_map {
            let scalars = symbol.unicodeScalars
            guard scalars.count == 1, let scalar = scalars.first, !symbolIds.isEmpty else { continue }
            ids[scalar] = symbolIds
        }
        guard ids[Self.pad] != nil, ids[Self.beginning] != nil, ids[Self.end] != nil else {
            throw .damagedConfig(reason: "its phoneme map lacks the padding, start or end symbol")
        }
        guard (8000...96000).contains(file.audio.sample_rate) else {
            throw .damagedConfig(reason: "its sample rate \(file.audio.sample_rate) Hz is not a speech rate")
        }
        sampleRateHz = file.audio.sample_rate
        espeakVoice = file.espeak.voice
        noiseScale = file.inference?.noise_scale ?? 0.667
        lengthScale = file.inference?.length_scale ?? 1
        noiseW = file.inference?.noise_w ?? 0.8
        phonemeIds = ids
    }

    /// The model's input for a phoneme string, as Piper's training made it: the start symbol, then
    /// each phoneme's ids, with the padding id after the start symbol and after every phoneme, then
    /// the end symbol. Phonemes the voice does not know are left out (Piper does the same).
    public func ids(forPhonemes phonemes: String) -> [Int64] {
        let pad = phonemeIds[Self.pad]!
        var ids = phonemeIds[Self.beginning]! + pad
        // The map's keys are single scalars of the decomposed form (a stress mark, a length mark,
        // a combining tilde are each their own phoneme).
        for scalar in phonemes.decomposedStringWithCanonicalMapping.unicodeScalars {
            guard let known = phonemeIds[scalar] else { continue }
            ids += known
            ids += pad
        }
        return ids + phonemeIds[Self.end]!
    }
}

/// Text to the phoneme string a Piper voice reads: espeak-ng's IPA for each clause, with the
/// clause's punctuation put back after it, since the model pauses and intones by it ("Bus, 4
/// meters, ahead." → "bˈʌs, fˈoːɹ mˈiːɾɚz, ɐhˈɛd."). espeak-ng 1.51 drops the punctuation, so the
/// text is cut into clauses here first.
public enum PiperPhonemes {
    /// Marks that end a clause when followed by a space or the end of the text ("4.5" is a number).
    static let clauseMarks: Set<Character> = [",", ".", ";", ":", "?", "!"]

    /// The clauses of `text` and the mark that ends each (nil for a clause with none).
    static func clauses(of text: String) -> [(text: String, mark: Character?)] {
        var clauses: [(String, Character?)] = []
        var current = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let atBoundary = index + 1 == characters.count || characters[index + 1].isWhitespace
            if clauseMarks.contains(character) && atBoundary {
                let clause = current.trimmingCharacters(in: .whitespacesAndNewlines)
                if !clause.isEmpty { clauses.append((clause, character)) }
                current = ""
            } else {
                current.append(character)
            }
        }
        let rest = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !rest.isEmpty { clauses.append((rest, nil)) }
        return clauses
    }

    /// The phoneme string for `text`, from the one espeak-ng wrapper.
    public static func phonemes(of text: String, espeakVoice: String) throws(SpeechError) -> String {
        var result = ""
        for (clause, mark) in clauses(of: text) {
            let ipa = try SpeechSynthesizer.ipaPhonemes(of: clause, voice: espeakVoice)
            guard !ipa.isEmpty else { continue }
            if !result.isEmpty { result += " " }
            result += ipa
            if let mark { result.append(mark) }
        }
        return result
    }
}
