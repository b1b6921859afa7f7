import Testing
@testable import VoiceInput

@Suite("Phrase bias and end-pointing")
struct PhraseBiasTests {
    let bias = PhraseBias(phrases: ["stop detecting", "stop", "assistive vision", "find a chair"])

    @Test("a match is measured from a word boundary, through case and punctuation")
    func matching() {
        #expect(bias.match("Please stop det").depth == "stop det".count)
        #expect(bias.match("Stop detecting.").complete)
        #expect(bias.match("I want tea").depth == 0)
        // "assist" is the start of the product's name; "assistance" is not.
        #expect(bias.match("assist").depth == 6)
        #expect(bias.match("assistance").depth == 0)
    }

    @Test("a token that carries a phrase on is favoured, one that breaks it gives the favour back")
    func bonus() {
        let current = bias.match("Assist")
        #expect(bias.bonus(text: "Assist", current: current, piece: "ive") > 0)
        #expect(bias.bonus(text: "Assist", current: current, piece: " division") < 0)
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
