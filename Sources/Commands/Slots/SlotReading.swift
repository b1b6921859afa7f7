import AssistCore

/// Values read from anywhere in what was said, for an intent found by meaning rather than by a
/// pattern: "um could you find my, uh, phone" → cell phone. The same readers as the patterns use.
enum SlotReading: Sendable, Equatable {
    /// Read exactly.
    case value(SlotValue)
    /// Only a near miss was found ("dag" for dog): offered as a question, never acted on.
    case nearMiss(SlotValue)
    /// Named something the detector cannot see (stairs): the plural for the answer.
    case notDetectable(plural: String)
    /// Named several different things where one is meant, none of them only as a place ("ignore
    /// the benches and get me to a bus" read whole as a search): which one is not known.
    case several
    /// Nothing readable.
    case missing
}

extension CommandLanguage {
    /// The example phrasings of `intent`: the language file's examples and its help example.
    func examplePhrasings(for intent: CommandIntent) -> [String] {
        guard let entry = file.intents[intent.rawValue] else { return [] }
        return (entry.examples ?? []) + [entry.example]
    }

    /// The examples and, up to `patternPhrases` of them, the concrete phrases the patterns allow
    /// (slots filled with the file's example values): the language's own wording, described by
    /// meaning as well.
    func meaningExamples(for intent: CommandIntent, patternPhrases: Int) -> [String] {
        var result = examplePhrasings(for: intent)
        var added = 0
        for phrase in phrases where phrase.intent == intent {
            for elements in phrase.expansions where added < patternPhrases {
                let text = elements.map { element -> String in
                    switch element {
                    case .word(let word): return word
                    case .slot(let kind): return file.slotExamples[kind.rawValue] ?? kind.rawValue
                    }
                }.joined(separator: " ")
                if !result.contains(text) { result.append(text); added += 1 }
            }
        }
        return result
    }

    /// Reads the value of `kind` from `words` wherever it stands.
    func readSlotAnywhere(_ kind: SlotKind, in words: [String]) -> SlotReading {
        switch kind {
        case .category, .categories:
            return readCategories(in: words, single: kind == .category)
        case .fraction, .number:
            var best: (reading: NumberReader.Reading, length: Int, start: Int)?
            for start in words.indices {
                for end in (start + 1)...min(words.count, start + 8) {
                    guard let reading = numbers.read(words[start..<end]) else { continue }
                    // "a" or "and" alone are no number the user meant.
                    if end - start == 1, file.numbers.joiners.contains(words[start]) { continue }
                    // The longest reading; of equal ones the last, since values come at the end.
                    if best == nil || end - start >= best!.length { best = (reading, end - start, start) }
                }
            }
            return best.map { .value(.number($0.reading)) } ?? .missing
        case .language:
            for word in words.reversed() { if let choice = languages[word] { return .value(.language(choice)) } }
            for word in words.reversed() where word.count >= 4 {
                for (name, choice) in languages.sorted(by: { $0.key < $1.key })
                where WordDistance.cost(heard: word, expected: name) < 1 {
                    return .nearMiss(.language(choice))
                }
            }
            return .missing
        }
    }

    private func readCategories(in words: [String], single: Bool) -> SlotReading {
        let memo = CategoryVocabulary.LookupMemo()
        // Exact names, each run of words taken as long as it reads ("dining table", "cars and people").
        var names: [(selection: CategorySelection, start: Int)] = []
        var start = 0
        while start < words.count {
            if let length = vocabulary.undetectableLength(in: words, at: start) {
                start += length
            } else if let (selection, end) = exactNames(in: words, from: start, memo: memo) {
                names.append((selection, start))
                start = end
            } else {
                start += 1
            }
        }
        if !names.isEmpty {
            // The thing asked about is the question's object, not the place named after it: "how
            // many cups are on the table" counts cups, "is there a person next to the car" asks
            // for a person. When every name stands in a place phrase ("what is written on the
            // bottle on the table"), the first is still the one asked about.
            if single {
                let unplaced = names.filter { !inPlacePhrase(words, before: $0.start) }
                if Set(unplaced.map(\.selection.categories)).count > 1 { return .several }
                return .value(.categories((unplaced.first ?? names[0]).selection))
            }
            var categories: [String] = [], singulars: [String] = [], plurals: [String] = []
            for name in names {
                for category in name.selection.categories where !categories.contains(category) { categories.append(category) }
                singulars.append(name.selection.singular)
                plurals.append(name.selection.plural)
            }
            return .value(.categories(CategorySelection(categories: categories, singular: vocabulary.list(singulars),
                                                        plural: vocabulary.list(plurals))))
        }
        if let plural = vocabulary.undetectable(in: words) { return .notDetectable(plural: plural) }
        // A near miss only for a word long enough that a slip is likely ("dag" is not "the" → "tie").
        for word in words.reversed() where word.count >= 4 && !vocabulary.listWords.contains(word) {
            if let reading = vocabulary.read([word][...], single: true, memo: memo), reading.cost > 0, reading.cost < 1 {
                return .nearMiss(.categories(reading.selection))
            }
        }
        return .missing
    }

    /// `words` without the place phrase said after the thing asked about ("how many chairs are
    /// there in front of me" → "how many chairs are there", "is there a cup on the table" → "is
    /// there a cup"), for the meaning to be compared on: where the thing is said to be is not what
    /// is asked, and "in front of me" would otherwise pull the line towards a search ahead, "on
    /// the table" towards a question about the table. nil when nothing is taken away, and for a
    /// line that does not open as a question.
    func withoutPlaceAfterThing(_ words: [String]) -> [String]? {
        // Only a question ("how many …", "is there …", "what colour …"): in a command or a remark
        // ("let me know when a car is near", "the book club meets on thursday") the place is part of it.
        guard file.categories.placeWords != nil, let first = words.first,
              file.pictureQuestions?.openers.contains(first) == true else { return nil }
        let names = thingSpans(in: words)
        guard let thing = names.first(where: { !inPlacePhrase(words, before: $0.lowerBound) }) ?? names.first else { return nil }
        let places = (file.categories.placeWords ?? []).map { $0.split(separator: " ").map(String.init) }
        guard let cut = (thing.upperBound..<words.count).first(where: { index in
            places.contains { $0.count <= words.count - index && Array(words[index..<(index + $0.count)]) == $0 }
        }) else { return nil }
        // "how many cups are on the table" → "how many cups": a link left dangling is no part of the question.
        var kept = Array(words[..<cut])
        while kept.count > thing.upperBound, let last = kept.last, file.pictureQuestions?.countingLinks?.contains(last) == true { kept.removeLast() }
        return kept
    }

    /// `words` up to a clause after the thing asked about that tells which one is meant ("what
    /// colour is the car that just pulled up" → "what colour is the car"); nil when there is none,
    /// and for a line that does not open as a question.
    func withoutRelativeClauseAfterThing(_ words: [String]) -> [String]? {
        guard let relative = file.categories.relativeWords, let first = words.first,
              file.pictureQuestions?.openers.contains(first) == true,
              let thing = thingSpans(in: words).first, thing.upperBound < words.count - 1,
              relative.contains(words[thing.upperBound]) else { return nil }
        return Array(words[..<thing.upperBound])
    }

    /// The side of the view the place phrase after the thing names, when that phrase is only a
    /// side: "how far is the person on the left", "what colour is the car to my right side". nil
    /// for any other place ("the cup on the table") and for no place.
    func sideAfterThing(_ words: [String]) -> SideOfView? {
        guard let sides = file.categories.sidesOfView, let kept = withoutPlaceAfterThing(words) else { return nil }
        var rest = Array(words[kept.count...])
        while let first = rest.first, file.pictureQuestions?.countingLinks?.contains(first) == true { rest.removeFirst() }
        guard let place = rest.first, (file.categories.placeWords ?? []).contains(place) else { return nil }
        rest.removeFirst()
        while let first = rest.first, vocabulary.listWords.contains(first) { rest.removeFirst() }
        guard let sideWord = rest.first else { return nil }
        let side: SideOfView
        if sides.left.contains(sideWord) { side = .left } else if sides.right.contains(sideWord) { side = .right } else { return nil }
        let ending = rest.dropFirst().joined(separator: " ")
        guard ending.isEmpty || sides.after.contains(ending) else { return nil }
        return side
    }

    /// Whether the name starting at `start` stands in a place phrase ("on the table", "in front
    /// of the bus", "next to my big bag"): a place word (`Categories.placeWords`) ends before it,
    /// with only list words ("the", "my") and at most one describing word between.
    func inPlacePhrase(_ words: [String], before start: Int) -> Bool {
        let places = (file.categories.placeWords ?? []).map { $0.split(separator: " ").map(String.init) }
        var end = start, describing = 0
        while end > 0 {
            if places.contains(where: { $0.count <= end && Array(words[(end - $0.count)..<end]) == $0 }) { return true }
            if vocabulary.listWords.contains(words[end - 1]) {
                end -= 1
            } else if describing == 0 {
                describing += 1
                end -= 1
            } else {
                return false
            }
        }
        return false
    }

    /// The longest run of words from `start` that names detector categories exactly ("dining
    /// table", "cars and people"), and where it ends; nil when none starts there.
    private func exactNames(in words: [String], from start: Int, memo: CategoryVocabulary.LookupMemo) -> (CategorySelection, Int)? {
        for end in stride(from: min(words.count, start + 8), to: start, by: -1) {
            let span = words[start..<end]
            // A list word alone, or at the edge of a span, is not part of a name.
            guard !vocabulary.listWords.contains(span.first!), !vocabulary.listWords.contains(span.last!) else { continue }
            if let reading = vocabulary.read(span, single: false, memo: memo), reading.cost == 0 {
                return (reading.selection, end)
            }
        }
        return nil
    }

    /// The command for `intent` with `value` in its slot.
    func command(_ intent: CommandIntent, value: SlotValue?) -> Command? {
        guard let kind = intent.slot else { return Command(intent) }
        switch (kind, value) {
        case (.category, .categories(let selection)?), (.categories, .categories(let selection)?):
            return Command(intent, categories: selection)
        case (.fraction, .number(let reading)?):
            let fraction = reading.isPercent || reading.value > 1 ? reading.value / 100 : reading.value
            return Command(intent, number: fraction)
        case (.number, .number(let reading)?):
            return Command(intent, number: reading.value)
        case (.language, .language(let choice)?):
            return Command(intent, language: choice)
        default:
            return nil
        }
    }

    /// The command as the user could have said it, for a question: "ignore chairs",
    /// "set confidence threshold to 90 percent" (the help example with its value replaced).
    public func spokenPhrase(for command: Command) -> String {
        let example = self.example(for: command.intent)
        guard let kind = command.intent.slot else { return example }
        let heard: String?
        switch kind {
        case .category: heard = command.categories?.singular
        case .categories: heard = command.categories?.plural
        case .fraction: heard = command.number.map { "\(Self.format(($0 * 100).rounded())) percent" }
        case .number: heard = command.number.map(Self.format)
        case .language: heard = command.language?.name
        }
        // Without a value the example is said as written, with its own value.
        guard let heard else { return example }
        // The example names a value of its own ("is there a person ahead", "find a chair"): the
        // words its phrase reads as the value are replaced, with the article the new value takes.
        var words = example.split(separator: " ").map(String.init)
        if let own = bestMatch(words.map { $0.lowercased() }, intent: command.intent)?.slotWords, !own.isEmpty,
           var place = words.map({ $0.lowercased() }).firstRange(of: own) {
            var replacement = [heard]
            // A list slot whose example names one kind in the singular ("enable car alert") says
            // the heard kinds in the singular too ("enable bus alert").
            if kind == .categories, let selection = command.categories,
               let reading = vocabulary.read(own[...], single: true, memo: CategoryVocabulary.LookupMemo()),
               reading.cost == 0, reading.selection.singular == own.joined(separator: " ") {
                replacement = [selection.singular]
            }
            if kind == .category, place.lowerBound > 0, vocabulary.isIndefiniteArticle(words[place.lowerBound - 1].lowercased()) {
                place = (place.lowerBound - 1)..<place.upperBound
                replacement = [vocabulary.withArticle(heard)]
            }
            words.replaceSubrange(place, with: replacement)
            return words.joined(separator: " ")
        }
        guard let placeholder = file.slotExamples[kind.rawValue] else { return example }
        return example.replacingOccurrences(of: placeholder, with: heard)
    }

    /// The intents `intent` is easily confused with by meaning (its contrast group, itself
    /// included), or just itself.
    func contrastGroup(of intent: CommandIntent) -> Set<CommandIntent> {
        guard let group = contrast(of: intent) else { return [intent] }
        return Set(group.intents.compactMap(CommandIntent.init(rawValue:)))
    }

    /// The contrast group `intent` belongs to, if any.
    private func contrast(of intent: CommandIntent) -> LanguageFile.Contrast? {
        file.contrasts?.first { $0.intents.contains(intent.rawValue) }
    }

    /// Within `intent`'s contrast group, the first intent whose marking words were said; `intent`
    /// itself when none were.
    func resolveContrast(_ intent: CommandIntent, words: [String]) -> CommandIntent {
        guard let group = contrast(of: intent) else { return intent }
        let words = markable(words, in: group)
        for name in group.intents where says(group.words[name] ?? [], in: words) {
            return CommandIntent(rawValue: name) ?? intent
        }
        return intent
    }

    /// Whether `intent` may be carried out on its meaning alone, without one of its marking words:
    /// not for the intents of the file's `actOnlyWhenMarked`, which are asked about then.
    func mayActUnmarked(_ intent: CommandIntent, words: [String]) -> Bool {
        guard file.actOnlyWhenMarked?.contains(intent.rawValue) == true else { return true }
        return saysMarkingWord(of: intent, in: words)
    }

    /// Whether the line says another word where a marking phrase of `intent` ends ("looking at"
    /// where "looking for" marks the search): an intent that acts only on its marking words is
    /// then not what was said, however near its phrases are ("what am I looking at" is no
    /// "what am I looking for").
    func saysOtherThanMarking(_ intent: CommandIntent, in words: [String]) -> Bool {
        guard file.actOnlyWhenMarked?.contains(intent.rawValue) == true, !saysMarkingWord(of: intent, in: words) else { return false }
        return (contrast(of: intent)?.words[intent.rawValue] ?? []).contains { marker in
            let lead = Array(marker.split(separator: " ").map(String.init).dropLast())
            guard !lead.isEmpty, lead.count < words.count else { return false }
            return (0..<(words.count - lead.count)).contains { Array(words[$0..<($0 + lead.count)]) == lead }
        }
    }

    /// Whether one of the words that mark `intent` in its contrast group was said ("most
    /// important" for prioritise); false for an intent in no group.
    func saysMarkingWord(of intent: CommandIntent, in words: [String]) -> Bool {
        guard let group = contrast(of: intent) else { return false }
        return says(group.words[intent.rawValue] ?? [], in: markable(words, in: group))
    }

    /// `words` with the group's `notMarking` runs blanked out: "start detecting, I'm off across
    /// the road" says "start", and its "off" is leaving, not turning detection off.
    private func markable(_ words: [String], in group: LanguageFile.Contrast) -> [String] {
        guard let runs = group.notMarking, !runs.isEmpty else { return words }
        var kept = words
        for place in runs.flatMap({ Self.places(of: $0, in: words) }) {
            for index in place { kept[index] = "" }
        }
        return kept
    }

    /// Whether one of `markers` (each one or more words) was said, word for word.
    private func says(_ markers: [String], in words: [String]) -> Bool {
        markers.contains { !Self.places(of: $0, in: words).isEmpty }
    }

    /// Where `marker` (one or more words) is said in `words`, word for word: each place's range.
    private static func places(of marker: String, in words: [String]) -> [Range<Int>] {
        let markerWords = marker.split(separator: " ").map(String.init)
        guard !markerWords.isEmpty, markerWords.count <= words.count else { return [] }
        return (0...(words.count - markerWords.count)).map { $0..<($0 + markerWords.count) }
            .filter { Array(words[$0]) == markerWords }
    }

    /// Whether the line opens as a sentence about what the speaker will do ("I'll just exit
    /// through the back door", "we're going to miss the bus"), or did or does with a device ("I
    /// turned the volume down on my phone", `ownDoings`): talk, not a request.
    func tellsOwnPlan(_ words: [String]) -> Bool {
        startsWith((file.ownPlans ?? []) + (file.ownDoings ?? []), words)
    }

    /// Whether the line calls somebody else by who they are, in a clause of its own ("repeat after
    /// me, kids, one two three", "speak up, grandad"): said to them, not to the assistant.
    func addressesOthers(_ text: String) -> Bool {
        let clauses = text.split(separator: ",")
        guard clauses.count >= 2 else { return false }
        let calls = (file.othersAddressed ?? []).map { $0.split(separator: " ").map(String.init) }
        return clauses.contains { clause in
            let words = normalizedWords(String(clause))
            guard !words.isEmpty else { return false }
            // "you kids", "you guys": somebody named by who they are, called as "you".
            let named = words.first == "you" ? Array(words.dropFirst()) : words
            return (!named.isEmpty && wordsNamingRelation(named) == named.count) || calls.contains(words)
        }
    }

    /// How many words at the start of `words` name a person by who they are to the speaker
    /// (`othersByRelation`, alone or after "my" or "our"); nil when they do not open so.
    private func wordsNamingRelation(_ words: [String]) -> Int? {
        let named = ["my", "our"].contains(words.first ?? "") ? 1 : 0
        guard words.count > named, (file.othersByRelation ?? []).contains(words[named]) else { return nil }
        return named + 1
    }

    /// Whether the line opens as a sentence about somebody else ("she speaks french"): talk near
    /// the assistant, not to it.
    func speaksOfOthers(_ words: [String]) -> Bool {
        guard let first = words.first else { return false }
        if file.aboutOthers?.contains(first) ?? false || reportsSpeech(words) { return true }
        // "my sister is a bit louder than me", "mum says …": a person the speaker is related to,
        // then more words (a name alone may be the answer to a question, so it is not talk).
        return wordsNamingRelation(words).map { words.count > $0 } ?? false
    }

    /// Whether the line opens by telling what someone or something said (`reportedSpeech`): a
    /// subject that opens like a thing named ("the sign", "the teacher used to", "my phone"), then
    /// a verb that reports words, within the first six words ("the sign said exit on the left");
    /// or "I told him …". Words reported are theirs: "exit" on a sign is no request to exit. A
    /// question ("what does the sign say") opens otherwise, and "I told you to stop" says the
    /// request again.
    func reportsSpeech(_ words: [String]) -> Bool {
        guard let rule = file.reportedSpeech, let first = words.first,
              let verb = words.indices.dropFirst().prefix(5).first(where: { rule.verbs.contains(words[$0]) }) else { return false }
        let subject = words[..<verb]
        if subject.contains(where: { file.pictureQuestions?.openers.contains($0) ?? false }) { return false }
        if first == "i" || first == "we" {
            return subject.count <= 2 && verb + 1 < words.count && rule.hearers.contains(words[verb + 1])
        }
        return file.thingOpeners?.contains(first) ?? false || rule.subjects?.contains(first) ?? false
    }

    /// Where the speaker takes back what came before (`corrections`): the clause of the line
    /// (split at commas) from which the correction is said, the correction's words, and whether
    /// what came before is withdrawn whatever follows ("no") or only when the correction is
    /// understood ("sorry"). The last such clause counts ("louder, no, quieter, no, louder"); one
    /// at the end of the line corrects nothing ("is there a bus, no?"), nor does one that opens it.
    func correction(in clauses: [String]) -> (at: Int, words: [String], withdrawing: Bool)? {
        guard let rule = file.corrections, clauses.count >= 2 else { return nil }
        func marker(_ words: [String], in markers: [String]) -> [String]? {
            markers.map { $0.split(separator: " ").map(String.init) }.filter { words.starts(with: $0) }.max { $0.count < $1.count }
        }
        for index in clauses.indices.dropFirst().reversed() {
            let words = normalizedWords(clauses[index])
            guard let said = marker(words, in: rule.withdrawing + rule.replacing) else { continue }
            let withdrawing = rule.withdrawing.contains(said.joined(separator: " "))
            let rest = clauses[(index + 1)...].flatMap(normalizedWords)
            if words.count == said.count {
                guard !rest.isEmpty else { return nil }
                return (index, rest, withdrawing)
            }
            guard marker(words, in: rule.opening) == said else { continue }
            return (index, Array(words[said.count...]) + rest, withdrawing)
        }
        return nil
    }

    /// The spans of `words` that name detector things exactly, in order, each as long as it reads
    /// ("the cat" → "cat", "cats and dogs" → one span).
    func thingSpans(in words: [String]) -> [Range<Int>] {
        let memo = CategoryVocabulary.LookupMemo()
        var spans: [Range<Int>] = []
        var start = 0
        while start < words.count {
            if let (_, end) = exactNames(in: words, from: start, memo: memo) {
                spans.append(start..<end)
                start = end
            } else {
                start += 1
            }
        }
        return spans
    }

    /// The words after the openers ("a", "the", "my") when `words` open by naming a detector
    /// thing ("a cow over there" → "cow over there"); nil otherwise ("where is the dog").
    func openingWithThing(_ words: [String]) -> [String]? {
        var start = 0
        while start < words.count, file.thingOpeners?.contains(words[start]) ?? false { start += 1 }
        guard start < words.count, exactNames(in: words, from: start, memo: CategoryVocabulary.LookupMemo()) != nil else { return nil }
        return Array(words[start...])
    }

    /// Whether the line opens by naming a thing the detector knows, as the subject of what follows:
    /// after the file's `thingOpeners` ("the", "my", "those") or a number, and perhaps one word
    /// that describes it ("the old car"), a category's name, then more words ("the bus is running
    /// late again", "two people got off", "buses running late"). A thing only pointed at
    /// ("someone is at the door", "anyone there") is no thing named. Such a line tells of the
    /// thing; the understanding decides whether it also asks something of it.
    func opensNamingThing(_ words: [String]) -> Bool {
        thingNamedAtOpening(words).map { $0 < words.count } ?? false
    }

    /// Whether the line opens by naming a thing and tells what it did or was ("the train was too
    /// loud", "the bus had gone"): an event told, never a request, whatever words follow.
    func tellsOfThingInPast(_ words: [String]) -> Bool {
        guard let end = thingNamedAtOpening(words), end < words.count else { return false }
        return (file.pastLinks ?? []).contains(words[end])
    }

    /// Where the thing named at the opening ends (see `opensNamingThing`), or nil.
    private func thingNamedAtOpening(_ words: [String]) -> Int? {
        guard let openers = file.thingOpeners else { return nil }
        var start = 0
        while start < words.count, openers.contains(words[start]) || isNumberWord(words[start]) { start += 1 }
        let memo = CategoryVocabulary.LookupMemo()
        let pointing = Set(file.pictureQuestions?.references ?? [])
        for first in start..<min(words.count, start > 0 ? start + 2 : start + 1) where !pointing.contains(words[first]) {
            guard let (_, end) = exactNames(in: words, from: first, memo: memo) else { continue }
            return end
        }
        return nil
    }

    private func isNumberWord(_ word: String) -> Bool {
        !file.numbers.joiners.contains(word) && numbers.read([word][...]) != nil
    }

    /// Whether the line asks about something no measurement of the picture gives (`unmeasured`).
    /// Never what the speaker says of themselves ("is there a lorry ahead, I'm about to cross",
    /// "I was waiting for the bus, is it here"): the picture is asked about what is in it.
    func asksUnmeasured(_ words: [String]) -> Bool {
        let speaker = Set(file.pictureQuestions?.speaker ?? [])
        let links = (file.pictureQuestions?.speakerLinks ?? []).map { $0.split(separator: " ").map(String.init) }
        func saidOfSpeaker(before start: Int) -> Bool {
            if start > 0, speaker.contains(words[start - 1]) { return true }
            return links.contains { link in
                start > link.count && Array(words[(start - link.count)..<start]) == link && speaker.contains(words[start - link.count - 1])
            }
        }
        return (file.unmeasured ?? []).contains { marker in
            Self.places(of: marker, in: words).contains { !saidOfSpeaker(before: $0.lowerBound) }
        }
    }

    /// Whether the line is a question about something (the picture or a thing spoken of): opened
    /// by a question word or wrapped in a lead ("do you know …"), pointing at something ("this",
    /// "the", "she", "it"), and not asking the listener about themselves. Such a line, when it is
    /// none of the answerable forms, is one the picture cannot answer.
    func asksAboutPicture(_ words: [String]) -> Bool {
        guard let rule = file.pictureQuestions else { return false }
        var rest = words[...]
        var led = false
        for lead in rule.leads.map({ $0.split(separator: " ").map(String.init) })
        where rest.count > lead.count && Array(rest.prefix(lead.count)) == lead {
            rest = rest.dropFirst(lead.count)
            led = true
            break
        }
        guard let first = rest.first else { return false }
        if !led {
            guard rule.openers.contains(first) else { return false }
            // "Don't bother telling me about the plants": a request not to do something.
            if (rule.requestOpenings ?? []).contains(where: { rest.starts(with: $0.split(separator: " ").map(String.init)) }) { return false }
            // "did you watch the match", "how was your weekend": within the opener's clause.
            if rest.dropFirst().prefix(2).contains(where: rule.addressee.contains) { return false }
        }
        return rest.contains(where: rule.references.contains)
    }

    /// Whether the line is a question about the picture (`asksAboutPicture`), not a request of the
    /// speaker's ("can I hear that again"), that names nothing `answerable` (no property measured,
    /// nor the assistant's own state): "is the bench wet", "what time does the next bus come", "is
    /// the music loud in there". Whatever its other words resemble, it asks what nothing measures.
    func asksUnmeasuredProperty(_ words: [String]) -> Bool {
        guard let rule = file.pictureQuestions, asksAboutPicture(words) else { return false }
        if words.dropFirst().prefix(2).contains(where: rule.speaker.contains) { return false }
        return !namesAnswerable(words)
    }

    /// What the line's first negation negates: the words after it ("no, do not exit" → "exit",
    /// "I do not want the natural voice" → "want the natural voice"), or nil when nothing in it
    /// negates.
    func negatedPart(_ words: [String]) -> [String]? {
        let negations = (file.negation ?? []).map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }
        for index in words.indices {
            if let negation = negations.first(where: { index + $0.count <= words.count && Array(words[index..<(index + $0.count)]) == $0 }) {
                return Array(words[(index + negation.count)...])
            }
        }
        return nil
    }

    /// Whether what a negation negates opens one of `intent`'s own phrases ("do not stop" and
    /// "stop detecting"): the negation then turns that very command down, whatever other command
    /// the words after it would be read as alone ("stop" alone is "stop talking").
    func negatedOpensPhrase(of intent: CommandIntent, _ negated: [String]) -> Bool {
        guard let first = negated.first else { return false }
        return phrases.contains { phrase in
            phrase.intent == intent && phrase.expansions.contains { $0.first == .word(first) }
        }
    }

    /// Whether the line says one of `intent`'s marking words that holds a negation ("not so
    /// loud" for volume down): the negation is then what marks the command.
    func saysNegatedMarking(of intent: CommandIntent, in words: [String]) -> Bool {
        guard let negations = file.negation else { return false }
        let markers = (contrast(of: intent)?.words[intent.rawValue] ?? []).filter { marker in
            let markerWords = marker.split(separator: " ").map(String.init)
            return negations.contains { negation in
                let negationWords = negation.split(separator: " ").map(String.init)
                return markerWords.count >= negationWords.count
                    && (0...(markerWords.count - negationWords.count)).contains { Array(markerWords[$0..<($0 + negationWords.count)]) == negationWords }
            }
        }
        return says(markers, in: words)
    }

    /// Whether the line asks to turn off what `intent` only turns on ("turn off the alert for cars").
    func asksToTurnOff(_ intent: CommandIntent, in words: [String]) -> Bool {
        guard let rule = file.turningOff, rule.intents.contains(intent.rawValue) else { return false }
        return says(rule.words, in: words)
    }

    /// `words` with the first words that stand for a thing (`thingPronouns`: "it", "them", "the
    /// first one") said as `thing` instead ("how far is it" → "how far is the bus"); nil when none do.
    func namingThing(_ thing: CategorySelection, in words: [String]) -> [String]? {
        let pronouns = (file.thingPronouns ?? [:]).map { (words: $0.key.split(separator: " ").map(String.init), number: $0.value) }
            .sorted { $0.words.count > $1.words.count }
        for index in words.indices {
            // The longest that starts here: "the first one", not "one".
            guard let pronoun = pronouns.first(where: { index + $0.words.count <= words.count && Array(words[index..<(index + $0.words.count)]) == $0.words })
            else { continue }
            let name = pronoun.number == "plural" ? thing.plural : thing.singular
            var named = words
            named.replaceSubrange(index..<(index + pronoun.words.count), with: ["the"] + name.split(separator: " ").map(String.init))
            return named
        }
        return nil
    }

    /// The words that join two commands in one line (`joiningWords`: "and", "then").
    var joiningWords: Set<String> { Set(file.joiningWords ?? []) }

    /// Whether `words` speak of a thing named before them (`backReferences`: "there", "it").
    func refersBack(_ words: [String]) -> Bool {
        says(file.backReferences ?? [], in: words)
    }

    /// Whether `intent` is taken from a line of several commands only when certain (`joinedOnlyWhenCertain`).
    func joinedOnlyWhenCertain(_ intent: CommandIntent) -> Bool {
        file.joinedOnlyWhenCertain?.contains(intent.rawValue) == true
    }

    /// Whether the line says that the setting `intent` would change is fine as it is ("I can hear
    /// you fine" for louder, "leave the speed where it is" for slower).
    func saysSettingIsFine(_ intent: CommandIntent, in words: [String]) -> Bool {
        guard let rule = file.keepingAsIs, rule.intents.contains(intent.rawValue) else { return false }
        return says(rule.words, in: words)
    }

    /// Whether the line speaks of another thing's sound, not the assistant's (`otherSoundSources`):
    /// it names a source of sound that is not only the background the assistant must be heard
    /// over ("speak louder than the radio", "I can't hear you over the hoover").
    func speaksOfOtherSoundSource(_ intent: CommandIntent, in words: [String]) -> Bool {
        guard let rule = file.otherSoundSources, rule.intents.contains(intent.rawValue) else { return false }
        return words.indices.contains { index in
            // "The telly's too loud": the possessive's mark is kept by the normaliser.
            rule.sources.contains(CategoryVocabulary.withoutPossessive(words[index]))
                && !says(rule.background, in: Array(words[max(0, index - 3)..<index]))
        }
    }

    /// Whether the line asks to be told when a thing arrives: it opens with one of the file's
    /// `arrivalRequests` leads ("let me know if") and later says the thing comes ("a bike comes").
    func asksToBeToldOfArrival(_ words: [String]) -> Bool {
        guard let rule = file.arrivalRequests,
              let lead = rule.leads.map({ $0.split(separator: " ").map(String.init) }).first(where: { startsWith([$0.joined(separator: " ")], words) })
        else { return false }
        return says(rule.arrivals, in: Array(words.dropFirst(lead.count)))
    }

    /// Whether the line names something a picture's measurements answer (`answerable`: a count,
    /// a place, a distance, a colour …).
    func namesAnswerable(_ words: [String]) -> Bool {
        says(file.pictureQuestions?.answerable ?? [], in: words)
    }

    /// Whether the line counts things by something the picture cannot show: "how many ⟨things⟩"
    /// followed by words that are not about their being there ("how many people live in this
    /// building", "how many cars does the family own"). "How many cars are parked outside", "how
    /// many dogs can you spot" and "how many chairs" count what is in view. Only things named
    /// exactly are judged (a slip is asked about as before).
    func countsWhatIsNotInView(_ words: [String]) -> Bool {
        guard let rule = file.pictureQuestions else { return false }
        let memo = CategoryVocabulary.LookupMemo()
        for first in countedStarts(words, rule: rule) {
            // The things counted, perhaps after a word that describes them ("how many red cars").
            for start in first..<min(words.count, first + 2) {
                guard let (_, end) = exactNames(in: words, from: start, memo: memo) else { continue }
                var after = Array(words[end...])
                guard !after.isEmpty else { return false }
                // "how many birds are singing": past the link, the rest must still be about being there.
                if let link = (rule.countingLinks ?? []).first(where: { startsWith([$0], after) }) {
                    after.removeFirst(link.split(separator: " ").count)
                    return !after.isEmpty && !startsWith(rule.countedInView, after)
                }
                return !startsWith(rule.countedInView, after)
            }
        }
        return false
    }

    /// Whether the thing asked about is said to be inside a vehicle: a name, then a vehicle after
    /// a place word that puts it inside ("how many people are in the car", "is there a dog inside
    /// the bus"). An exact command phrase with such a place is still no question the picture answers.
    func asksOfThingsInsideVehicle(_ words: [String]) -> Bool {
        let memo = CategoryVocabulary.LookupMemo()
        guard let (_, end) = words.indices.lazy.compactMap({ self.exactNames(in: words, from: $0, memo: memo) }).first,
              end < words.count else { return false }
        return namesInsideOfVehicle(Array(words[end...]), memo: memo)
    }

    /// Whether `words` put what was named before them inside a vehicle ("in the car", "inside
    /// the train", "on the bus"; `pictureQuestions.carriedIn`).
    func namesInsideOfVehicle(_ words: [String], memo: CategoryVocabulary.LookupMemo = CategoryVocabulary.LookupMemo()) -> Bool {
        guard let rule = file.pictureQuestions?.carriedIn else { return false }
        for (places, carriers) in [(rule.inside, rule.carriers), (rule.onBoard, rule.carriersOnBoard)] {
            for place in places.map({ $0.split(separator: " ").map(String.init) }) {
                for index in words.indices where index + place.count < words.count && Array(words[index..<(index + place.count)]) == place {
                    var start = index + place.count
                    while start < words.count, vocabulary.listWords.contains(words[start]) || file.thingOpeners?.contains(words[start]) == true { start += 1 }
                    // The vehicle, perhaps after one describing word ("in the red car", "on the school bus").
                    for from in start..<min(words.count, start + 2) {
                        if let (selection, _) = exactNames(in: words, from: from, memo: memo),
                           selection.categories.contains(where: carriers.contains) { return true }
                    }
                }
            }
        }
        return false
    }

    /// Where the things counted start: the word after each "how many" (the language's counting
    /// openings) in the line.
    private func countedStarts(_ words: [String], rule: LanguageFile.PictureQuestions) -> [Int] {
        var starts: [Int] = []
        for phrase in rule.counting {
            let counting = phrase.split(separator: " ").map(String.init)
            guard counting.count < words.count else { continue }
            for opening in 0...(words.count - counting.count) where Array(words[opening..<(opening + counting.count)]) == counting {
                starts.append(opening + counting.count)
            }
        }
        return starts
    }

    /// Whether the line counts things no detector category names ("how many pupils go to this
    /// school", "how many pages does the book have"): after "how many", no category within a word
    /// or two. "How many are there" counts nothing named and is left as it was; whether an unknown
    /// word is a slip ("how many chiars") is the understanding's to judge (it asks about a slip).
    func countsWhatNoCategoryNames(_ words: [String]) -> Bool {
        guard let rule = file.pictureQuestions else { return false }
        let memo = CategoryVocabulary.LookupMemo()
        for first in countedStarts(words, rule: rule) {
            let counted = Array(words[first...])
            if startsWith(rule.countingLinks ?? [], counted) || startsWith(rule.countedInView, counted) { return false }
            let window = first..<min(words.count, first + 3)
            return !window.contains(where: { exactNames(in: words, from: $0, memo: memo) != nil })
        }
        return false
    }

    /// Whether the line asks what a thing in view does, will do, is for or where it goes, in the
    /// shape of `pictureQuestions.doing`: "where does this bus go", "when will the train leave",
    /// "which way is the car driving", "what is the dog barking at", "what is the bench for". No
    /// picture shows a route, a time, an intention or a purpose, so the question is declined, never
    /// a search started or the thing's place given. "Where is the dog sitting", "where is the bus
    /// now" and "what does the truck say" ask what is measured.
    func asksWhatThingDoes(_ words: [String]) -> Bool {
        guard let rule = file.pictureQuestions, let doing = rule.doing else { return false }
        let asked = doing.asking.map { $0.split(separator: " ").map(String.init) }
            .filter { $0.count < words.count && Array(words.prefix($0.count)) == $0 }
            .max { $0.count < $1.count }
        guard let asked, doing.helpers.contains(words[asked.count]) else { return false }
        let helper = words[asked.count]
        // "What does the book cover say": the line's own verb is one of saying or showing, whatever
        // word follows the thing.
        if let last = words.last, doing.notDoing.contains(last), !(rule.countingLinks ?? []).contains(helper) { return false }
        // "What does this device do", "what did that button do": asked of a thing pointed at, named
        // or not (never of the listener: "what do you do" is help).
        if let last = words.last, doing.purpose?.contains(last) == true, asked.count + 2 < words.count,
           rule.references.contains(words[asked.count + 1]), !rule.addressee.contains(words[asked.count + 1]) { return true }
        // The thing, after words that point at it ("this", "the", "my") and perhaps one describing word.
        let pointing = Set(rule.references + (file.thingOpeners ?? []))
        var start = asked.count + 1
        while start < words.count, pointing.contains(words[start]) { start += 1 }
        let memo = CategoryVocabulary.LookupMemo()
        guard let end = (start..<min(words.count, start + 2)).lazy
                .compactMap({ self.exactNames(in: words, from: $0, memo: memo)?.1 }).first,
              end < words.count else { return false }
        let verb = words[end]
        if (rule.countingLinks ?? []).contains(helper) {
            let doingWord = verb.count > doing.ending.count + 2 && verb.hasSuffix(doing.ending) && !rule.countedInView.contains(verb)
            return doingWord || doing.beyond.contains(words[words.count - 1])
        }
        return !doing.notDoing.contains(verb)
    }

    /// Whether the line names a part of someone or something whose colour nothing measures
    /// (`pictureQuestions.parts`: "her eyes", "the man's beard").
    func namesUnmeasuredPart(_ words: [String]) -> Bool {
        says(file.pictureQuestions?.parts ?? [], in: words)
    }

    /// Whether the line names something worn and says whose it is (`pictureQuestions.worn` after
    /// an owner, "his shirt", "the old man's hat"): a thing the detector does not find, on someone.
    /// "This shirt" or "my jacket" is the thing held up to the camera and is not one.
    func namesWornThingOfSomeone(_ words: [String]) -> Bool {
        guard let rule = file.pictureQuestions, let worn = rule.worn else { return false }
        let owners = Set(rule.owners ?? [])
        func isOwner(_ word: String) -> Bool { owners.contains(word) || CategoryVocabulary.isPossessive(word) }
        return worn.contains { item in
            let itemWords = item.split(separator: " ").map(String.init)
            guard itemWords.count <= words.count else { return false }
            return (0...(words.count - itemWords.count)).contains { start in
                guard Array(words[start..<(start + itemWords.count)]) == itemWords else { return false }
                // The owner just before, or before one describing word ("her red coat", "the boy's new shoes").
                return (start >= 1 && isOwner(words[start - 1])) || (start >= 2 && isOwner(words[start - 2]))
            }
        }
    }

    /// Whether `words` begin with one of `markers` (each one or more words).
    private func startsWith(_ markers: [String], _ words: [String]) -> Bool {
        markers.contains { marker in
            let markerWords = marker.split(separator: " ").map(String.init)
            return markerWords.count <= words.count && Array(words.prefix(markerWords.count)) == markerWords
        }
    }

    /// The words `text` is compared in (lower case, contractions expanded, politeness removed).
    func normalizedWords(_ text: String) -> [String] { normalizer.words(text) }

    /// The words with a hesitation the recogniser ran into the first word taken off ("unsaved
    /// power" → "saved power", "umbi quiet" → "bi quiet"), or nil when the first word is one the
    /// language uses ("unmute", "unpause", "umbrella") or begins with no such hesitation.
    func withoutFusedHesitation(_ words: [String]) -> [String]? {
        guard let first = words.first, !knownWords.contains(first), !isNumberWord(first) else { return nil }
        for hesitation in file.fillers.fused ?? [] where first.count > hesitation.count && first.hasPrefix(hesitation) {
            return normalizer.words(([String(first.dropFirst(hesitation.count))] + words.dropFirst()).joined(separator: " "))
        }
        return nil
    }

    /// Whether `text` begins by naming the assistant ("assistive vision, scan now").
    func startsWithAddress(_ text: String) -> Bool { normalizer.words(text, removingAddress: false) != normalizer.words(text) }

    /// Every phrase that answers a question ("yes", "no thanks", …): what a recogniser must be
    /// able to hear for a spoken question to be answered by voice.
    public var answerPhrases: [String] { (file.answers?.yes ?? []) + (file.answers?.no ?? []) }

    /// Whether `text` answers a question yes (true), no (false), or is no answer (nil).
    public func answer(_ text: String) -> Bool? {
        let said = normalizer.words(text).joined(separator: " ")
        guard let answers = file.answers else { return nil }
        if answers.yes.contains(said) { return true }
        if answers.no.contains(said) { return false }
        return nil
    }

    /// Replies of the understanding layer, filled.
    func understandingReply(_ name: UnderstandingReply, _ values: [String: String] = [:]) -> String {
        let replies = file.replies
        switch name {
        case .notUnderstood: return replies.notUnderstood + " " + replies.sayHelp
        case .cannotRecognise: return Self.sentence(replies.cannotRecognise ?? replies.unknownCategory, values)
        case .confirmQuestion: return Self.sentence(replies.confirmQuestion ?? replies.didYouMean, values)
        case .valueMissing: return Self.sentence(replies.valueMissing ?? replies.notUnderstood, values)
        case .cancelled: return Self.sentence(replies.cancelled ?? replies.notUnderstood, values)
        case .unknownValue(let kind):
            switch kind {
            case .category, .categories: return Self.sentence(replies.unknownCategory, values)
            case .fraction, .number: return Self.sentence(replies.unknownNumber, values)
            case .language: return Self.sentence(replies.unknownLanguage, values)
            }
        }
    }
}

enum UnderstandingReply {
    case notUnderstood, cannotRecognise, confirmQuestion, valueMissing, cancelled
    case unknownValue(SlotKind)
}
