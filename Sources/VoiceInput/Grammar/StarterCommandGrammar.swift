/// A small English command grammar used until the command language (module Commands) provides
/// one: one phrasing of each command named in issue #5, with the detector's categories.
public enum StarterCommandGrammar {
    public static let categories = [
        "person", "people", "bicycle", "bicycles", "car", "cars", "motorcycle", "bus", "truck", "vehicles",
        "traffic light", "traffic lights", "stop sign", "bench", "dog", "dogs", "cat", "chair", "chairs",
        "bottle", "cup", "table", "couch", "bed", "toilet", "laptop", "cell phone", "book", "door",
    ]

    public static let english = RecognitionGrammar(
        sentences: [
            "start detection", "stop detection", "scan now", "enable continuous scanning", "switch to on demand",
            "explore scene", "enable scene navigation", "are there any obstacles", "find a <category>",
            "is there a <category> ahead", "what's in front of me", "what did you detect recently",
            "prioritize <category>", "ignore <category>", "enable <category> alert", "set a loud tone for <category>",
            "set confidence threshold to <number>", "increase volume", "decrease volume", "change speech speed",
            "faster", "slower", "change language to <language>", "enable haptics", "enable battery saver",
            "switch camera", "show my usage stats", "help", "tutorial", "repeat", "stop talking", "exit",
        ],
        slots: [
            "category": categories,
            "number": ["zero point one", "zero point two", "zero point three", "zero point four", "zero point five",
                       "zero point six", "zero point seven", "zero point eight", "zero point nine", "point five", "one"],
            "language": ["english", "german", "french", "spanish", "italian"],
        ])
}

extension StarterCommandGrammar {
    /// One spoken example of each sentence, slots filled in.
    public static let examples: [String] = [
        "start detection", "stop detection", "scan now", "enable continuous scanning", "switch to on demand",
        "explore scene", "enable scene navigation", "are there any obstacles", "find a door",
        "is there a chair ahead", "what's in front of me", "what did you detect recently",
        "prioritize vehicles", "ignore chairs", "enable person alert", "set a loud tone for cars",
        "set confidence threshold to zero point five", "increase volume", "decrease volume", "change speech speed",
        "faster", "slower", "change language to german", "enable haptics", "enable battery saver",
        "switch camera", "show my usage stats", "help", "tutorial", "repeat", "stop talking", "exit",
    ]
}
