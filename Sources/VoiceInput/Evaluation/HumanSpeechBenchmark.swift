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


/// The real recordings in Debian's pocketsphinx-testdata (LibriVox "Sense and Sensibility"
/// sentences and the "cards" speaker), transcribed with the general English language model:
/// shows the recogniser works on human speech, not only on synthetic voices.
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
        let recognizer = try DictationRecognizer()
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
