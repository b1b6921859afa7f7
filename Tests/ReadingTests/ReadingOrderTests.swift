import Testing
@testable import Reading

@Suite("Reading order and the honesty filter")
struct ReadingOrderTests {
    @Test("two signs side by side are read one after the other, not line by line across both")
    func signsSideBySide() {
        let words = [
            word("Sports", x: 10, y: 10), word("Centre", x: 90, y: 10),
            word("Car", x: 400, y: 12), word("Parks", x: 450, y: 12),
            word("this", x: 10, y: 40), word("way", x: 70, y: 40),
            word("Exit", x: 400, y: 42), word("only", x: 460, y: 42),
        ]
        let blocks = ReadingOrder.blocks(of: words.shuffled())
        #expect(blocks.map(\.text) == ["Sports Centre\nthis way", "Car Parks\nExit only"])
    }

    @Test("lines of one paragraph stay one block, top to bottom")
    func paragraph() {
        let words = [word("second", x: 10, y: 35), word("line", x: 90, y: 35), word("first", x: 10, y: 10), word("line", x: 80, y: 10)]
        #expect(ReadingOrder.blocks(of: words).map(\.text) == ["first line\nsecond line"])
    }

    @Test("where two readings overlap, the more confident word is kept")
    func mostConfident() {
        let kept = ReadingOrder.mostConfident([
            word("SportsC", x: 10, y: 10, width: 120, confidence: 0.82),
            word("Sports", x: 10, y: 10, width: 70, confidence: 0.9),
            word("Centre", x: 85, y: 10, width: 70, confidence: 0.95),
        ])
        #expect(Set(kept.map(\.text)) == ["Sports", "Centre"])
    }

    @Test("junk from texture is dropped; confident words, numbers and codes are kept")
    func plausibility() {
        let filter = PlausibleText()
        #expect(filter.accepted("PROHIBITED", confidence: 96, isDictionaryWord: true) == "PROHIBITED")
        #expect(filter.accepted("128.27", confidence: 90, isDictionaryWord: false) == "128.27")
        #expect(filter.accepted("CC22", confidence: 85, isDictionaryWord: false) == "CC22")
        #expect(filter.accepted("PARKING", confidence: 60, isDictionaryWord: true) == nil)
        #expect(filter.accepted("=»;", confidence: 95, isDictionaryWord: false) == nil)
        #expect(filter.accepted("l", confidence: 85, isDictionaryWord: false) == nil)
        #expect(filter.accepted("7", confidence: 95, isDictionaryWord: false) == "7")
        #expect(filter.accepted("Pbrtkg", confidence: 80, isDictionaryWord: false) == nil)
        #expect(filter.accepted("iiiii", confidence: 80, isDictionaryWord: false) == nil)
    }

    @Test("a long page is cut into parts that fit 3 s, at line ends, and signs never share a part")
    func spokenParts() {
        let reading = TextReading(blocks: [
            ReadBlock(lines: [ReadLine(words: ["The", "quick", "brown", "dog"].enumerated().map { word($1, x: Float($0) * 80, y: 0) }),
                              ReadLine(words: ["jumped", "over", "the", "lazy", "fox"].enumerated().map { word($1, x: Float($0) * 80, y: 30) })]),
            ReadBlock(lines: [ReadLine(words: [word("EXIT", x: 0, y: 300)])]),
        ])
        // 175 words a minute: 8 words in 3 s.
        let maximum = SpokenParts.wordsFitting(seconds: 3, wordsPerMinute: 175)
        #expect(maximum == 8)
        #expect(SpokenParts.parts(of: reading, maximumWords: maximum) == ["The quick brown dog", "jumped over the lazy fox", "EXIT"])
        #expect(SpokenParts.parts(of: reading, maximumWords: 3) == ["The quick brown", "dog", "jumped over the", "lazy fox", "EXIT"])
    }
}
