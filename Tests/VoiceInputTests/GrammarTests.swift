import Testing
@testable import VoiceInput

@Suite("Recognition grammar")
struct GrammarTests {
    let grammar = RecognitionGrammar(commandJSGF: """
        #JSGF V1.0;
        grammar test;
        public <command> = ( scan now ) | ( find a <category> ) | ( unmute ( now | please ) );
        <category> = chair | settee | door;
        """, words: ["scan", "now", "find", "a", "chair", "settee", "door", "unmute", "please"])

    @Test("a word without a pronunciation removes only the alternatives that use it")
    func removingWords() {
        let (cleaned, emptied) = grammar.removing(words: ["settee", "unmute"])
        #expect(cleaned.commandJSGF.contains("<category> = chair | door;"))
        #expect(cleaned.commandJSGF.contains("public <command> = ( scan now ) | ( find a <category> );"))
        #expect(!cleaned.words.contains("settee"))
        #expect(emptied.isEmpty)
    }

    @Test("a rule left with nothing to say is reported, not written empty")
    func emptiedRule() {
        let (cleaned, emptied) = grammar.removing(words: ["chair", "settee", "door"])
        #expect(emptied == ["<category>"])
        #expect(cleaned.commandJSGF.contains("<category> = chair | settee | door;"))
    }

    @Test("a wake phrase becomes the public rule, alone or before a command")
    func wakePhrase() {
        var awake = grammar
        awake.wakePhrase = "assistant"
        #expect(awake.jsgf.contains("public <utterance> = ( assistant [<command>] ) | <command>;"))
        #expect(!awake.jsgf.contains("public <command>"))
        #expect(awake.allWords.contains("assistant"))
    }

    @Test("pronunciations are built from plurals, British spellings, un- and compounds")
    func pronunciationGuess() {
        let dictionary = ["remote": "R IH M OW T", "puppy": "P AH P IY", "summarize": "S AH M ER AY Z", "mute": "M Y UW T",
                          "hair": "HH EH R", "dryer": "D R AY ER", "bus": "B AH S", "chair": "CH EH R"]
        let guess = PronunciationGuess(lookup: { dictionary[$0] })
        #expect(guess.phones(for: "remotes") == "R IH M OW T S")
        #expect(guess.phones(for: "chairs") == "CH EH R Z")
        #expect(guess.phones(for: "buses") == "B AH S IH Z")
        #expect(guess.phones(for: "puppys") == "P AH P IY Z")
        #expect(guess.phones(for: "summarise") == "S AH M ER AY Z")
        #expect(guess.phones(for: "unmute") == "AH N M Y UW T")
        #expect(guess.phones(for: "hairdryers") == "HH EH R D R AY ER Z")
        #expect(guess.phones(for: "xylophonic") == nil)
    }

    @Test("every word of the English command language can be pronounced")
    func englishWordsPronounceable() throws {
        let decoder = try PocketSphinxDecoder(search: nil)
        let check = PronunciationCheck.run(englishVocabulary.grammar, on: decoder)
        #expect(check.missingWords.isEmpty, "no pronunciation for \(check.missingWords)")
        #expect(check.emptiedRules.isEmpty)
    }
}

@Suite("Answers in the recognition grammar")
struct AnswerGrammarTests {
    @Test("the vocabulary's grammar hears the answers to a question beside the commands, with and without a wake phrase")
    func answers() {
        let plain = englishVocabulary.grammar.jsgf
        #expect(plain.contains("\n<answer> = ( yes ) | "))
        #expect(plain.contains("public <utterance> = ( <command> | <answer> );"))
        #expect(!plain.contains("public <command>"))
        var woken = englishVocabulary.grammar
        woken.wakePhrase = "assistant"
        #expect(woken.jsgf.contains("public <utterance> = ( assistant [( <command> | <answer> )] ) | ( <command> | <answer> );"))
        #expect(englishVocabulary.grammar.words.isSuperset(of: ["yes", "no", "cancel"]))
    }
}
