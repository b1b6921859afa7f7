import Foundation
import Media

/// One recording of human speech, what it says and what the recogniser heard.
public struct HumanRecordingResult: Sendable, Codable, Equatable {
    public let name: String
    public let reference: String
    public let heard: String
    public let wordErrors: WordErrorCount
}

public struct HumanSpeechResult: Sendable, Codable, Equatable {
    public let recordings: [HumanRecordingResult]
    public init(recordings: [HumanRecordingResult]) { self.recordings = recordings }
    public var wordErrors: WordErrorCount { recordings.map(\.wordErrors).reduce(WordErrorCount(), +) }
}


/// The real recordings in Debian's pocketsphinx-testdata package (LibriVox "Sense and Sensibility"
/// sentences and the "cards" speaker), transcribed by the recogniser without the command
/// language's phrases favoured (`DictationRecognizer`): shows it works on human speech, not only
/// on synthetic voices.
public struct HumanSpeechBenchmark {
    public var dataFolder = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data")

    public init() {}

    /// (recording, transcript) pairs from the sets' transcription files ("<s> words </s> (id)").
    public func recordings() throws -> [(url: URL, transcript: String)] {
        var found: [(URL, String)] = []
        for (folder, transcriptFile) in [("librivox", "transcription"), ("cards", "cards.transcription")] {
            let base = dataFolder.appendingPathComponent(folder)
            guard let text = try? String(contentsOf: base.appendingPathComponent(transcriptFile), encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"), open < close else { continue }
                let id = String(line[line.index(after: open)..<close])
                let words = line[..<open].split(separator: " ").filter { $0 != "<s>" && $0 != "</s>" }.joined(separator: " ")
                let url = base.appendingPathComponent(id + ".wav")
                if FileManager.default.fileExists(atPath: url.path) { found.append((url, words)) }
            }
        }
        return found
    }

    public func run() throws -> HumanSpeechResult {
        let recognizer = try DictationRecognizer(files: try SpeechModelFiles.installed())
        var results: [HumanRecordingResult] = []
        for (url, transcript) in try recordings() {
            try recognizer.utterances.reset()
            let heard = try recognizer.transcribe(RecognizerAudio.samples(from: try AudioFile.read(url)))
            results.append(HumanRecordingResult(name: url.deletingPathExtension().lastPathComponent, reference: transcript, heard: heard,
                                                wordErrors: WordErrorCount(reference: transcript, hypothesis: heard)))
        }
        return HumanSpeechResult(recordings: results)
    }
}

/// Free English speech, for measuring the recogniser on recorded human speech (word error rate
/// against a transcript): Silero VAD and Moonshine base-en, transcribing as it hears, with no
/// phrase favoured (`PhraseBias.none`).
public final class DictationRecognizer {
    public let utterances: NeuralUtteranceRecognizer

    public init(files: SpeechModelFiles) throws {
        utterances = NeuralUtteranceRecognizer(detector: try SileroSpeechDetector(modelAt: files.voiceActivity),
                                               transcriber: try MoonshineTranscriber(files: files, bias: .none))
    }

    /// Everything said in `samples` (16 kHz mono), utterances joined by spaces.
    public func transcribe(_ samples: [Int16]) throws -> String {
        var texts: [String] = []
        let chunk = 1_600
        for start in stride(from: 0, to: samples.count, by: chunk) {
            if let heard = try utterances.push(Array(samples[start..<min(start + chunk, samples.count)])), !heard.text.isEmpty { texts.append(heard.text) }
        }
        if let heard = try utterances.finish(), !heard.text.isEmpty { texts.append(heard.text) }
        return texts.joined(separator: " ")
    }
}
