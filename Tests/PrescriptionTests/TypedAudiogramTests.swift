import AssistCore
import Hearing
import Prescription
import Testing

@Suite("An audiogram typed at the terminal (assist rx create without --audiogram), in process")
struct TypedAudiogramTests {
    @Test("each ear is asked frequency by frequency; an empty answer skips one; the prompts say which ear")
    func typedEarByEar() throws {
        let count = AudiometricFrequency.all.count
        var answers = ["40", ""] + Array(repeating: "45", count: count - 2) + Array(repeating: "50", count: count)
        var prompts: [String] = []
        let audiogram = try Audiogram.typedIn(prompt: { text, _ in prompts.append(text) },
                                              readLine: { answers.isEmpty ? nil : answers.removeFirst() })
        #expect(answers.isEmpty)
        #expect(prompts.first == "Left ear: threshold in dB HL at each frequency (Enter to skip).")
        #expect(prompts.contains("Right ear: threshold in dB HL at each frequency (Enter to skip)."))
        let first = AudiometricFrequency.all[0], second = AudiometricFrequency.all[1]
        #expect(audiogram[.left].thresholdsHL[first] == 40)
        #expect(audiogram[.left].thresholdsHL[second] == nil)
        #expect(audiogram[.right].thresholdsHL[second] == 50)
    }

    @Test("an answer that is not a number is refused by name")
    func notANumber() {
        #expect(throws: PrescriptionError.notAThreshold("forty")) {
            _ = try Audiogram.typedIn(prompt: { _, _ in }, readLine: { "forty" })
        }
    }
}
