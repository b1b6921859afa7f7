import Testing
@testable import Commands

/// Issue 35 item 7, by the phrases alone (no sentence model): extremes said the way people say
/// them, absolute values said as fractions, "how do I …" and "what can you do" as help, and the
/// status and confidence phrasings. Expected values written by hand.
struct ExtremeValuePhrasingTests {
    @Test("an extreme said as 'all the way', 'right up', 'as loud as it goes' or 'to the max' sets the volume to its end", arguments: [
        ("turn the volume all the way up", Expected(.maximumVolume)),
        ("turn it right up", Expected(.maximumVolume)),
        ("make it as loud as you can go", Expected(.maximumVolume)),
        ("put the volume on max", Expected(.maximumVolume)),
        ("turn it up to the max", Expected(.maximumVolume)),
        ("turn it all the way down", Expected(.minimumVolume)),
        ("as quiet as it goes", Expected(.minimumVolume)),
        ("turn yourself right down", Expected(.minimumVolume)),
        ("turn it down all the way", Expected(.minimumVolume)),
        ("turn the volume up all the way", Expected(.maximumVolume)),
    ])
    func extremes(_ text: String, _ expected: Expected) {
        let result = english.interpret(text)
        #expect(expected.matches(result.command), "\"\(text)\" gave \(result), expected \(expected)")
    }

    @Test("a volume said as a fraction in words, or 'at' a value, is that share of the range", arguments: [
        ("volume at half", Expected(.setVolume, number: 0.5)),
        ("half volume", Expected(.setVolume, number: 0.5)),
        ("set the volume to three quarters", Expected(.setVolume, number: 0.75)),
        ("volume to a third", Expected(.setVolume, number: 1.0 / 3)),
        ("put the volume at two thirds", Expected(.setVolume, number: 2.0 / 3)),
        ("volume on halfway", Expected(.setVolume, number: 0.5)),
        ("set the confidence to a quarter", Expected(.setConfidence, number: 0.25)),
    ])
    func fractions(_ text: String, _ expected: Expected) {
        let result = english.interpret(text)
        #expect(expected.matches(result.command), "\"\(text)\" gave \(result), expected \(expected)")
    }

    @Test("a count of a fraction that is no fraction word is no number", arguments: ["three tables", "the half"])
    func notAFraction(_ text: String) {
        #expect(english.interpret("set the volume to \(text)").command?.intent != .setVolume)
    }

    @Test("'what can you do' is help; status, hazard and confidence questions said loosely are understood", arguments: [
        ("what can you do", Expected(.help)),
        ("what can you do for me", Expected(.help)),
        ("how loud is it set", Expected(.askVolume)),
        ("do I have hazard alerts on", Expected(.askHazardAlerts)),
        ("are you still giving hazard warnings", Expected(.askHazardAlerts)),
        ("be a bit less fussy", Expected(.lowerConfidence)),
        ("be more certain before you tell me", Expected(.raiseConfidence)),
        ("turn it down a bit", Expected(.volumeDown)),
        ("turn it up a little", Expected(.volumeUp)),
        ("end the session", Expected(.exit)),
    ])
    func loosePhrasings(_ text: String, _ expected: Expected) {
        let result = english.interpret(text)
        #expect(expected.matches(result.command), "\"\(text)\" gave \(result), expected \(expected)")
    }
}
