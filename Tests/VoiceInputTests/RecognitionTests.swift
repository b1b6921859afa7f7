import Commands
import Foundation
import TestSupport
import Media
import Testing
@testable import VoiceInput

@Suite("Speech recognition", .serialized)
struct RecognitionTests {
    @Test("a recorded speaker saying “go forward ten meters” is written as said, with no phrase favoured")
    func recordedSpeech() throws {
        let recognizer = try DictationRecognizer(files: try SpeechModelFiles.installed())
        let heard = try recognizer.transcribe(try rawSamples("goforward.raw") + [Int16](repeating: 0, count: 8_000))
        // Moonshine may write the number as digits; the words around it must be right.
        let errors = WordErrorCount(reference: "go forward ten meters", hypothesis: heard.replacingOccurrences(of: "10", with: "ten"))
        #expect(errors.errors <= 1, "heard “\(heard)”")
    }

    @Test("recorded human speech is transcribed with no phrase favoured")
    func dictation() throws {
        let recognizer = try DictationRecognizer(files: try SpeechModelFiles.installed())
        let heard = try recognizer.transcribe(RecognizerAudio.samples(from: try AudioFile.read(testData.appendingPathComponent("cards/005.wav"))))
        let errors = WordErrorCount(reference: "eight of spades four of clubs seven of hearts", hypothesis: heard)
        // Counted as written: a number written as digits ("8 of spades") counts as an error. At
        // most two of the nine words wrong (the old recogniser's general model made three).
        #expect(errors.errors <= 2, "heard “\(heard)”")
    }

    @Test("synthesised commands are understood: at least 9 of 10 clean, each closed by the detector")
    func synthesisedCommands() throws {
        let folder = try TemporaryFolder.make("voice-tests-commands")
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = englishVocabulary.benchmarkCommands(perIntent: 1)
        // Ten commands spread over the language (every fourth intent), not hand-picked easy ones.
        let clean = stride(from: 0, to: all.count, by: 4).prefix(10).map { all[$0] }
        let recognizer = try ListeningDecoding.standard.recognizer(vocabulary: englishVocabulary)
        let trials = try CommandRecognitionBenchmark(commands: clean, speakingRates: [1.0], conditions: [.clean],
                                                     understand: englishVocabulary.meaning(of:))
            .run(recognizer: recognizer, workFolder: folder)
        let wrong = trials.filter { !$0.correct }.map { "“\($0.said)” → “\($0.heard)”" }
        #expect(trials.count == 10)
        #expect(trials.filter(\.correct).count >= 9, "\(wrong)")
        // The detector closes each command on its own, soon after the speech ends (not the end of the file).
        #expect(trials.filter(\.correct).allSatisfy { $0.latencyMilliseconds != nil })
    }
}
