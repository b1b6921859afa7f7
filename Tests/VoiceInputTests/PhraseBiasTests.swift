import Foundation
import Testing
@testable import VoiceInput

@Suite("Phrase bias and end-pointing")
struct PhraseBiasTests {
    let bias = PhraseBias(phrases: ["stop detecting", "stop", "assistive vision", "find a chair"])

    @Test("a match is measured from a word boundary, through case and punctuation")
    func matching() {
        // A word only begun earns nothing yet; the words before it keep theirs.
        #expect(bias.match("Please stop det").depth == "stop".count)
        #expect(bias.match("Please stop detecting").depth == "stop detecting".count)
        #expect(bias.match("Stop detecting.").complete)
        #expect(bias.match("I want tea").depth == 0)
        // "assist" begins the product's name, but is no word of it; "assistive" is.
        #expect(bias.match("assist").depth == 0)
        #expect(bias.match("assistive").depth == 9)
        #expect(bias.match("assistance").depth == 0)
    }

    @Test("a token that carries a phrase on is favoured, one that breaks it gives the favour back")
    func bonus() {
        let current = bias.match("Assist")
        #expect(bias.bonus(text: "Assist", current: current, piece: "ive") > 0)
        #expect(bias.bonus(text: "Assist", current: current, piece: " division") <= 0)
        #expect(bias.bonus(text: "Assistive", current: bias.match("Assistive"), piece: " division") < 0)
        // A word that only begins a word of a phrase is not favoured over one that begins none
        // ("free", as in "freeze", over "three").
        let freeze = PhraseBias(phrases: ["freeze", "stop"])
        #expect(freeze.bonus(text: "", current: freeze.match(""), piece: "free") == freeze.bonus(text: "", current: freeze.match(""), piece: "three"))
        #expect(freeze.bonus(text: "", current: freeze.match(""), piece: "freeze") > 0)
        // A finished phrase keeps its favour when a new word starts.
        let done = bias.match("stop detecting")
        #expect(bias.bonus(text: "stop detecting", current: done, piece: " and") >= 0)
        #expect(PhraseBias.none.isEmpty)
    }

    @Test("the end-pointer opens on speech, closes after its silence wait, and drops clicks")
    func endpointer() {
        var endpointer = SpeechEndpointer()
        #expect(endpointer.add(probability: 0.1) == nil)
        #expect(endpointer.add(probability: 0.9) == .started)
        for _ in 0..<9 { #expect(endpointer.add(probability: 0.9) == nil) }
        for _ in 0..<(endpointer.silenceWindows - 1) { #expect(endpointer.add(probability: 0.05) == nil) }
        #expect(endpointer.add(probability: 0.05) == .ended(windows: 10 + endpointer.silenceWindows, speechWindows: 10,
                                                            trailingSilenceWindows: endpointer.silenceWindows))
        // A click: two windows of "speech".
        #expect(endpointer.add(probability: 0.9) == .started)
        #expect(endpointer.add(probability: 0.9) == nil)
        #expect(endpointer.finish() == .discarded(windows: 2))
        #expect(!endpointer.isOpen)
    }

    @Test("a pause of 0.3 s inside a command (after \"um,\") does not end it; the default wait does")
    func pauseAfterFiller() {
        var endpointer = SpeechEndpointer()
        #expect(endpointer.add(probability: 0.9) == .started)
        for _ in 0..<5 { #expect(endpointer.add(probability: 0.9) == nil) }
        // 0.3 s: 9 windows of 32 ms below the end probability, then the words go on.
        for _ in 0..<9 { #expect(endpointer.add(probability: 0.05) == nil) }
        #expect(endpointer.add(probability: 0.9) == nil)
        #expect(endpointer.isOpen)
        for _ in 0..<(endpointer.silenceWindows - 1) { #expect(endpointer.add(probability: 0.05) == nil) }
        #expect(endpointer.add(probability: 0.05) == .ended(windows: 16 + endpointer.silenceWindows, speechWindows: 7,
                                                            trailingSilenceWindows: endpointer.silenceWindows))
        // Ended within half a second of silence: the latency target leaves no more.
        #expect(Double(endpointer.silenceWindows) * 0.032 < 0.5)
    }

    /// Mean power of a window `decibels` relative to full scale.
    static func power(_ decibels: Double) -> Double { pow(10, decibels / 10) }

    @Test("among other talkers whom the detector hears as speech, a command ends once its voice falls back to the crowd's level for the silence wait")
    func endsWhenTheVoiceFallsToTheBackground() {
        var endpointer = SpeechEndpointer()
        endpointer.followsForegroundLevel = true
        // 2 s of babble at −35 dB: the detector hears speech (0.45), not enough to open.
        for _ in 0..<64 { #expect(endpointer.add(probability: 0.45, power: Self.power(-35)) == nil) }
        // The command, 10 dB above the babble.
        #expect(endpointer.add(probability: 0.95, power: Self.power(-25)) == .started)
        for _ in 0..<20 { #expect(endpointer.add(probability: 0.95, power: Self.power(-25)) == nil) }
        // The voice stops; the talkers go on, heard as speech (0.8) at their own level ±1 dB.
        for i in 0..<(endpointer.silenceWindows - 1) {
            #expect(endpointer.add(probability: 0.8, power: Self.power(i.isMultiple(of: 2) ? -34 : -36)) == nil)
        }
        #expect(endpointer.add(probability: 0.8, power: Self.power(-35)) == .ended(
            windows: 21 + endpointer.silenceWindows, speechWindows: 21, trailingSilenceWindows: endpointer.silenceWindows))
        // With the level not weighed (the listener's default), the same talkers keep it open.
        var before = SpeechEndpointer()
        for _ in 0..<64 { _ = before.add(probability: 0.45, power: Self.power(-35)) }
        for _ in 0..<21 { _ = before.add(probability: 0.95, power: Self.power(-25)) }
        for _ in 0..<40 { #expect(before.add(probability: 0.8, power: Self.power(-35)) == nil) }
        #expect(before.isOpen)
    }

    @Test("a talker in the crowd no louder than the crowd does not open an utterance")
    func crowdDoesNotOpen() {
        var endpointer = SpeechEndpointer()
        endpointer.followsForegroundLevel = true
        for _ in 0..<64 { _ = endpointer.add(probability: 0.3, power: Self.power(-35)) }
        #expect(endpointer.add(probability: 0.9, power: Self.power(-34)) == nil)
        #expect(endpointer.add(probability: 0.9, power: Self.power(-28)) == .started)
    }

    @Test("in a quiet room and with a voice no clearer than the noise, the level changes nothing: the detector's probability ends the command")
    func levelIgnoredWhereItCannotHelp() {
        for (background, voice) in [(-100.0, -25.0), (-30.0, -26.0)] {
            var endpointer = SpeechEndpointer()
            endpointer.followsForegroundLevel = true
            for _ in 0..<64 { _ = endpointer.add(probability: 0.05, power: Self.power(background)) }
            #expect(endpointer.add(probability: 0.95, power: Self.power(voice)) == .started)
            for _ in 0..<10 { _ = endpointer.add(probability: 0.95, power: Self.power(voice)) }
            // Silero's lag: still speech to it for 3 windows of digital silence / of the background.
            for _ in 0..<3 { _ = endpointer.add(probability: 0.6, power: Self.power(background)) }
            for _ in 0..<(endpointer.silenceWindows - 1) { #expect(endpointer.add(probability: 0.05, power: Self.power(background)) == nil) }
            #expect(endpointer.add(probability: 0.05, power: Self.power(background)) != nil)
        }
    }

    @Test("the transcript is taken in the command language's spelling")
    func spokenText() {
        #expect(NeuralUtteranceRecognizer.spokenText("Stop detecting.") == "stop detecting")
        #expect(NeuralUtteranceRecognizer.spokenText("Set volume to 50%.") == "set volume to 50 percent")
        #expect(NeuralUtteranceRecognizer.spokenText("What's 2.5 metres, please?") == "what's 2.5 metres please")
    }
}

@Suite("Moonshine's repetition guard")
struct RepetitionGuardTests {
    @Test("a word or phrase said a third time in a row is a loop; two different words are not")
    func loops() {
        #expect(MoonshineTranscriber.repetitionPeriod([5, 9, 9, 9]) == 1)
        #expect(MoonshineTranscriber.repetitionPeriod([1, 2, 1, 2, 1, 2]) == 2)
        #expect(MoonshineTranscriber.repetitionPeriod([1, 2, 1, 2]) == nil)
        #expect(MoonshineTranscriber.repetitionPeriod([4, 5, 6]) == nil)
    }
}

@Suite("The neural recogniser's verdict")
struct NeuralVerdictTests {
    func utterance(_ text: String, confidence: Double, snr: Double, speechWindows: Int = 20) -> RecognizedUtterance {
        RecognizedUtterance(text: text, confidence: confidence,
                            speechStartSeconds: 0, endDetectedSeconds: 1, finishingSeconds: 0, signalToNoiseDecibels: snr,
                            syllables: speechWindows)
    }

    @Test("words made out clearly are taken in noise; “too noisy” only when speech could not be made out over a loud background")
    func verdicts() {
        let rule = RecognitionConfidence.neural
        #expect(rule.neuralVerdict(utterance("exit", confidence: 0.9, snr: 5)) == .accepted)
        #expect(rule.neuralVerdict(utterance("", confidence: 0, snr: 5)) == .tooNoisy)
        #expect(rule.neuralVerdict(utterance("mumble", confidence: 0.2, snr: 5)) == .tooNoisy)
        #expect(rule.neuralVerdict(utterance("mumble", confidence: 0.2, snr: 40)) == .unclear)
        #expect(rule.neuralVerdict(utterance("", confidence: 0, snr: 40, speechWindows: 0)) == .noSpeech)
    }
}
