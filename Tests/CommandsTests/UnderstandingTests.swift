import Testing
@testable import Commands

@Suite("Understanding by meaning: acts when sure, asks when not, never substitutes")
struct UnderstandingTests {
    @Test("every intent has at least 15 example phrasings", arguments: CommandIntent.allCases)
    func examplesPerIntent(_ intent: CommandIntent) {
        #expect(english.examplePhrasings(for: intent).count >= 15)
    }

    @Test("every phrase the patterns allow, with the example values, is carried out as its own intent (typed)")
    func exactPhrasesAreNeverWrong() {
        for phrase in english.concretePhrases() {
            let decision = understanding.decide(phrase.text, channel: .typed)
            guard case .act(let command) = decision else {
                Issue.record("\"\(phrase.text)\" was not carried out: \(decision)")
                continue
            }
            #expect(command.intent == phrase.intent, "\"\(phrase.text)\"")
        }
    }

    @Test("phrasings unlike the patterns are understood by meaning, with their values",
          arguments: [("um could you, like, scan once", Expected(.scanNow)),
                      ("pause object recognition for now", Expected(.stopDetection)),
                      ("could you help me find my cup", Expected(.find, ["cup"])),
                      ("please set the confidence to 70 percent", Expected(.setConfidence, number: 0.7)),
                      // Everyday words for the detector's classes.
                      ("find a taxi", Expected(.find, ["car"])), ("where is my mobile", Expected(.whereIsThing, ["cell phone"])),
                      ("where's my brolly", Expected(.whereIsThing, ["umbrella"])), ("skip birds", Expected(.ignore, ["bird"])),
                      ("is there anybody ahead", Expected(.findAhead, ["person"])),
                      ("where is my bag", Expected(.whereIsThing, ["handbag", "backpack", "suitcase"])),
                      ("help me look for my bag", Expected(.find, ["handbag", "backpack", "suitcase"]))])
    func byMeaning(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text)")
    }

    @Test("hesitations and politeness are left out before patterns and meaning alike",
          arguments: [("um, uh, scan now please", Expected(.scanNow)), ("er could you, like, pause detection", Expected(.stopDetection)),
                      ("so, you're too quiet", Expected(.volumeUp))])
    func hesitations(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text)")
        #expect(!english.normalizedWords(text).contains { ["um", "uh", "er", "please", "like", "so"].contains($0) })
    }

    @Test("the assistant's name is who is spoken to, not a command: said alone it is not carried out (it was 'exit'), before a command it is left out",
          arguments: ["assistant", "assistive vision", "assistive visions", "assistant please", "hey assistant"])
    func nameAlone(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true), .spoken(certain: false)] {
            #expect(understanding.decide(text, channel: channel).command == nil, "\(text)")
        }
    }

    @Test("a command after the assistant's name is the command; 'exit assistive vision' is still exit",
          arguments: [("assistive vision, scan now", Expected(.scanNow)), ("assistant, what is ahead", Expected(.describeAhead)),
                      ("hey assistive vision, exit", Expected(.exit)), ("exit assistive vision", Expected(.exit))])
    func nameThenCommand(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text)")
        // A mishearing that runs the name into the command is asked about, never carried out as something else.
        if case .act(let command) = understanding.decide("assistive visions can now", channel: .spoken(certain: true)) {
            Issue.record("\"assistive visions can now\" was carried out as \(command.intent)")
        }
    }

    @Test("what is seen now is not what was seen before, and 'first' is no 'again'",
          arguments: [("what do you see right now", Expected(.describeAhead)), ("what have you seen so far", Expected(.recentDetections)),
                      ("tell me about dogs first", Expected(.prioritise, ["dog"])), ("tell me about dogs again", Expected(.stopIgnoring, ["dog"])),
                      // Counting people is no question whether there is one; a slower voice is a slower rate.
                      ("how many people are standing in front of me", Expected(.countThings, ["person"])), ("a slower voice", Expected(.speakSlower))])
    func contrasts(_ text: String, _ expected: Expected) {
        let decision = understanding.decide(text, channel: .typed)
        guard case .act(let command) = decision else {
            Issue.record("\(text) was not carried out: \(decision)")
            return
        }
        #expect(expected.matches(command), "\(text): \(command)")
    }

    @Test("an intent's similarity is the mean of its two closest examples")
    func meanOfNearest() throws {
        let classifier = try #require(understanding.classifier)
        #expect(classifier.nearest == 2)
        let vector = try classifier.embedder.embed(classifier.prepare("could you look for my cup"))
        let ranking = classifier.rank(vector: vector)
        for intent in [CommandIntent.find, .scanNow, .help] {
            var dots: [Float] = []
            for index in classifier.exampleIntents.indices where classifier.exampleIntents[index] == intent {
                dots.append(zip(vector, classifier.exampleVectors[(index * classifier.dimensions)...].prefix(classifier.dimensions)).map { $0 * $1 }.reduce(0, +))
            }
            let top = dots.sorted(by: >).prefix(2)
            let expected = top.reduce(0, +) / Float(top.count)
            let got = try #require(ranking.first { $0.intent == intent }).similarity
            #expect(abs(got - expected) < 1e-4, "\(intent): \(got) against \(expected)")
        }
        #expect(ranking.first?.intent == .find)
    }

    @Test("stairs, a door and a curb are answered honestly and never taken for chairs, a dog or a cup",
          arguments: [("find the stairs", "stairs"), ("where is the door", "doors"), ("is there a curb ahead", "curbs"),
                      ("enable stairs alert", "stairs"), ("find a door", "doors"), ("prioritise stairs", "stairs"),
                      // A bin is no toilet: the model has no class for it.
                      ("find the bin", "bins")])
    func notDetectable(_ text: String, _ plural: String) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            let decision = understanding.decide(text, channel: channel)
            #expect(decision == .refuse("I can't recognise \(plural). In navigation mode I warn about obstacles in your path."),
                    "\(text): \(decision)")
        }
        // The patterns alone no longer turn "stairs" into "chairs" either.
        #expect(english.interpret(text).command == nil, "\(text)")
    }

    @Test("a near miss of a category is offered as a question, not carried out")
    func nearMissIsAsked() {
        let decision = understanding.decide("where is my dgo", channel: .typed)
        guard case .confirm(let question, let pending) = decision else {
            Issue.record("expected a question, got \(decision)")
            return
        }
        #expect(pending.categories?.categories == ["dog"])
        #expect(question == "Where is the dog? Say yes or no.")
    }

    /// Asking "What is his name? Say yes or no." would only make the user repeat a question whose
    /// answer is that the picture cannot tell it; any other command understood as nearly is still asked.
    @Test("a line understood only nearly as a question the picture cannot answer is declined, not asked back")
    func nearlyCannotTellIsDeclined() throws {
        // Nothing understood by meaning is sure enough to act on here: every such line would be asked about.
        let hesitant = CommandUnderstanding(language: english, classifier: understanding.classifier,
                                            thresholds: UnderstandingThresholds(actSimilarity: 0.99, askSimilarity: 0.3))
        #expect(hesitant.decide("what might that lady be called", channel: .typed) == .act(Command(.cannotTell)))
        guard case .confirm(_, let pending) = hesitant.decide("could you do one quick scan for me", channel: .typed) else {
            Issue.record("a scan understood by meaning was not asked about")
            return
        }
        #expect(pending.intent == .scanNow)
    }

    @Test("a slip onto the opposite command is never offered: 'unpause' asks about starting, not pausing")
    func slipNeverOffersTheOpposite() {
        // "unpause" is one letter pair from the pattern "pause"; its own marking word says start.
        let phrasesOnly = CommandUnderstanding(language: english, classifier: nil)
        for (who, deciding) in [("meaning", understanding), ("phrases only", phrasesOnly)] {
            #expect(deciding.decide("unpause", channel: .spoken(certain: false)).sentence == "Start detection? Say yes or no.", "\(who)")
            let decision = deciding.decide("unpause it", channel: .spoken(certain: false))
            #expect(decision.command == nil, "\(who)")
            if case .confirm(_, let pending) = decision { #expect(pending.intent != .stopDetection, "\(who)") }
        }
        // The values read for the slip go with the intent the marking words say.
        let chairs = english.selection(of: ["chair"])
        #expect(phrasesOnly.offerable(Command(.ignore, categories: chairs), words: ["unmute", "chairs"])
                == Command(.stopIgnoring, categories: chairs))
        #expect(phrasesOnly.offerable(Command(.ignore, categories: chairs), words: ["mute", "chairs"])
                == Command(.ignore, categories: chairs))
        // A slip that its marking words agree with is still offered as it was matched.
        #expect(phrasesOnly.decide("stop detecton", channel: .typed).sentence == "Stop detection? Say yes or no.")
    }

    @Test("a question names the value it would act on, with its article: never the example's own")
    func questionNamesTheHeardValue() {
        let dog = english.selection(of: ["dog"]), oven = english.selection(of: ["oven"]), bus = english.selection(of: ["bus"])
        // Each example names a value of its own ("is there a person ahead", "enable car alert").
        #expect(english.spokenPhrase(for: Command(.findAhead, categories: dog)) == "is there a dog ahead")
        #expect(english.spokenPhrase(for: Command(.find, categories: oven)) == "find an oven")
        #expect(english.spokenPhrase(for: Command(.enableAlert, categories: bus)) == "enable bus alert")
        #expect(english.spokenPhrase(for: Command(.ignore, categories: dog)) == "ignore dogs")
        #expect(english.spokenPhrase(for: Command(.findAhead)) == "is there a person ahead", "no value: the example as written")
        // Near misses, asked as questions.
        for deciding in [understanding, CommandUnderstanding(language: english, classifier: nil)] {
            #expect(deciding.decide("is there a dgo ahead", channel: .typed).sentence == "Is there a dog ahead? Say yes or no.")
            #expect(deciding.decide("find an umbrela", channel: .typed).sentence == "Find an umbrella? Say yes or no.")
        }
    }

    @Test("ignoring a category by voice is confirmed first unless recognition is certain; typed, it is done at once")
    func hidingIsConfirmed() {
        let spoken = understanding.decide("ignore chairs", channel: .spoken(certain: false))
        #expect(spoken == .confirm(question: "Ignore chairs? Say yes or no.", pending: Command(.ignore, categories: english.selection(of: ["chair"]))))
        #expect(understanding.decide("ignore chairs", channel: .spoken(certain: true)).command?.intent == .ignore)
        #expect(understanding.decide("ignore chairs", channel: .typed).command?.intent == .ignore)
        if case .confirm = understanding.decide("change the language to French", channel: .spoken(certain: false)) {} else {
            Issue.record("a spoken language change must be confirmed")
        }
        if case .confirm = understanding.decide("set the confidence threshold to 0.9", channel: .spoken(certain: false)) {} else {
            Issue.record("a spoken threshold above 0.8 must be confirmed")
        }
        #expect(understanding.decide("set the confidence threshold to 0.5", channel: .spoken(certain: false)).command?.number == 0.5)
    }

    @Test("'is someone in front of me', which the meaning puts near 'who is that', is asked back as the question it says, never declined")
    func someoneInFront() {
        guard case .confirm(let question, let pending) = understanding.decide("is someone in front of me", channel: .typed) else {
            Issue.record("'is someone in front of me' was not asked back")
            return
        }
        #expect(question == "Is there someone ahead? Say yes or no.")
        #expect(pending.intent == .findAhead && pending.categories?.categories == ["person"])
        #expect(understanding.decide("who is the man in front of me", channel: .typed) == .act(Command(.cannotTell)))
    }

    @Test("'let me know if a bike comes' asks for an alert, never whether a bike is there now", arguments: [
        ("let me know if a bike comes", "bicycle"), ("tell me when a bus is coming", "bus"), ("warn me if a dog gets close", "dog"),
    ])
    func alertOnArrival(_ text: String, _ category: String) {
        let decision = understanding.decide(text, channel: .typed)
        let meant: Command?
        switch decision {
        case .act(let command), .confirm(_, let command): meant = command
        case .refuse: meant = nil
        }
        #expect(meant?.intent == .enableAlert && meant?.categories?.categories == [category], "\(decision)")
    }

    @Test("a line that says not to do something is never carried out, nor asked about, as doing it", arguments: [
        "don't stop detecting", "no, don't exit", "don't turn the volume down", "I don't want the natural voice",
        "please don't switch to navigation", "don't be so quiet", "turn off the alert for cars",
    ])
    func negated(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            #expect(understanding.decide(text, channel: channel) == .refuse("Sorry, I didn't understand. Say help to hear what I can do."))
        }
    }

    @Test("a line that says a setting is fine as it is changes nothing, typed or spoken", arguments: [
        "I can hear you fine", "no, leave the volume where it is", "I'm happy with the volume as it is",
        "I can understand you perfectly at this speed", "the speed is fine, thanks",
    ])
    func settingIsFine(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            #expect(understanding.decide(text, channel: channel) == .refuse("Sorry, I didn't understand. Say help to hear what I can do."), "\(text)")
        }
    }

    @Test("a negation before the words a command opens with turns that command down, even when they alone are another command",
          arguments: ["start detecting and don't stop", "start detecting and don't stop, keep going all the time", "do not stop"])
    func negationOpensCommand(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            let decision = understanding.decideLine(text, channel: channel)
            let acted: [CommandIntent]
            switch decision {
            case .one(let one): acted = one.command.map { [$0.intent] } ?? []
            case .several(let commands): acted = commands.map(\.intent)
            }
            #expect(!acted.contains(.stopDetection) && !acted.contains(.stopTalking), "\(text): \(decision)")
        }
    }

    @Test("a line about another thing's sound changes nothing of the assistant's, typed or spoken", arguments: [
        "that volume knob on the stereo is stuck", "the volume on my telly at home is broken",
        "the audiobook narrator reads far too fast", "the telly's too loud, tom, turn it down would you",
    ])
    func otherSoundSource(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            #expect(understanding.decideLine(text, channel: channel) == .one(.refuse("Sorry, I didn't understand. Say help to hear what I can do.")),
                    "\(text)")
        }
    }

    @Test("'I'm off' is leaving, not turning detection off: 'start detecting, I'm off across the road' starts it",
          arguments: ["start detecting, i'm off across the road", "turn on detection, i'm off out", "right, off we go, start detecting"])
    func leavingIsNoStop(_ text: String) {
        #expect(understanding.decideLine(text, channel: .typed) == .one(.act(Command(.startDetection))), "\(text): \(understanding.decideLine(text, channel: .typed))")
        #expect(understanding.decide("switch detection off", channel: .typed).command?.intent == .stopDetection)
    }

    @Test("what the speaker says of themselves is not asked of the picture: 'is there a lorry ahead, I'm about to cross' is answered")
    func speakerOwnClause() {
        #expect(Expected(.findAhead, ["truck"]).matches(understanding.decide("is there a lorry ahead, i'm about to cross", channel: .typed).command))
        #expect(understanding.decide("is the man about to cross", channel: .typed).command?.intent == .cannotTell)
    }

    @Test("a request not to do something opens like a question but is none: never declined as one the picture cannot answer")
    func negatedRequestIsNoQuestion() {
        let decided = understanding.decide("don't bother telling me about the potted plants round my desk", channel: .typed)
        switch decided {
        case .act(let command), .confirm(_, let command):
            #expect(Expected(.ignore, ["potted plant"]).matches(command), "\(decided)")
        case .refuse: Issue.record("\(decided)")
        }
    }

    @Test("a thing told of in the past is no command, whatever words follow: 'the train was too loud' sets no loud tone",
          arguments: ["the train was too loud", "the buses were really loud this morning"])
    func thingInThePast(_ text: String) {
        #expect(understanding.decideLine(text, channel: .typed) == .one(.refuse("Sorry, I didn't understand. Say help to hear what I can do.")),
                "\(text): \(understanding.decideLine(text, channel: .typed))")
        #expect(Expected(.loudTone, ["bus"]).matches(understanding.decide("loud tone for buses", channel: .typed).command))
    }

    @Test("'keep up' in a reason marks no faster speech: 'talk slower, I can't keep up' slows down")
    func keepUpIsNoFaster() {
        #expect(understanding.decide("could you talk slower, i'm chopping onions and can't keep up", channel: .typed).command?.intent == .speakSlower)
        #expect(understanding.decide("speed up", channel: .typed).command?.intent == .speakFaster)
    }

    @Test("the user telling someone about the assistant, or what they did with a device, is no command",
          arguments: ["it tells me when there's a car coming, it's brilliant", "i turned the volume down on my phone ages ago",
                      "i switch the camera off when i'm at home"])
    func talkAboutTheAssistant(_ text: String) {
        #expect(understanding.decideLine(text, channel: .typed) == .one(.refuse("Sorry, I didn't understand. Say help to hear what I can do.")),
                "\(text): \(understanding.decideLine(text, channel: .typed))")
    }

    @Test("a sound the assistant must be heard over is the reason for the request, not its subject",
          arguments: ["speak louder than the radio", "turn it up, i can't hear you over the telly"])
    func backgroundSound(_ text: String) {
        #expect(understanding.decide(text, channel: .typed).command?.intent == .volumeUp, "\(understanding.decide(text, channel: .typed))")
    }

    @Test("courteous openings are no part of the command", arguments: [
        ("i wonder if you might describe what lies before me", Expected(.describeAhead)),
        ("would you be so kind as to find a chair", Expected(.find, ["chair"])),
        ("is a cat here", Expected(.isThereThing, ["cat"])), ("are any dogs around", Expected(.isThereThing, ["dog"])),
        ("tell me a bit more about that", Expected(.more)), ("tell me how far the bus is", Expected(.howFarThing, ["bus"])),
        ("tell me what colour the bus is", Expected(.colourOfThing, ["bus"])), ("tell me what the bus says", Expected(.textOnThing, ["bus"])),
    ])
    func courteousOpenings(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text): \(understanding.decide(text, channel: .typed))")
    }

    @Test("a loud tone is set only when the line says loud (or raise, increase): a remark about loud buses is no command",
          arguments: ["the volume on these bus announcements is terrible"])
    func loudToneMarked(_ text: String) {
        #expect(understanding.decide(text, channel: .typed).command == nil, "\(understanding.decide(text, channel: .typed))")
        #expect(Expected(.loudTone, ["bus"]).matches(understanding.decide("make the bus alert louder", channel: .typed).command))
    }

    @Test("a command said with its reason in another clause is carried out; a remark with a command-like clause is not",
          arguments: [("slow down, I can't follow you", Expected(.speakSlower)),
                      ("okay, you can start watching again", Expected(.startDetection)),
                      ("i can't find the remote anywhere, did you take it", nil),
                      ("we're almost there, keep walking", nil),
                      ("honey, the tv is way too loud", nil),
                      // The negation in one clause, the command in the other.
                      ("I didn't catch that, can you repeat it", Expected(.repeatLast)),
                      ("not louder, quieter", Expected(.volumeDown)),
                      ("sorry, i didn't catch that, the music in here is so loud", nil),
                      ("he said, don't stop detecting", nil)])
    func reasonGiven(_ text: String, _ expected: Expected?) {
        let decided = understanding.decide(text, channel: .typed)
        if let expected {
            #expect(expected.matches(decided.command), "\(text): \(decided)")
        } else {
            #expect(decided.command == nil, "\(text): \(decided)")
        }
    }

    @Test("everyday question forms: where did it go, can you see one anywhere, traffic warnings, shut up for a second",
          arguments: [("where did the dog go", Expected(.whereIsThing, ["dog"])),
                      ("can you see a cat anywhere", Expected(.isThereThing, ["cat"])),
                      ("switch the traffic warnings off", Expected(.disableHazardAlerts)),
                      ("are the traffic warnings on", Expected(.askHazardAlerts)),
                      ("okay, shut up for a second", Expected(.stopTalking)),
                      // A clause that says which thing is meant leaves the question about that thing.
                      ("what colour is the car that just pulled up", Expected(.colourOfThing, ["car"])),
                      ("how far is the bus that is coming", Expected(.howFarThing, ["bus"]))])
    func everydayForms(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text): \(understanding.decide(text, channel: .typed))")
    }

    @Test("a reason that, read alone, is only asked about as that same command agrees with it; one asked as another command does not",
          arguments: [("it's far too loud in this cafe, quieter please", Expected(.volumeDown)),
                      ("this voice is way too slow, faster please", Expected(.speakFaster))])
    func reasonAgrees(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text): \(understanding.decide(text, channel: .typed))")
    }

    @Test("more everyday forms: what am I facing, as low as it goes, never mention, stop saying, vehicle warnings, trip over, further along the road",
          arguments: [("what am i facing right now", Expected(.describeAhead)),
                      ("volume as low as it can go", Expected(.minimumVolume)),
                      ("make the volume as high as it goes", Expected(.maximumVolume)),
                      ("never mention cups again", Expected(.ignore, ["cup"])),
                      ("stop saying chairs", Expected(.ignore, ["chair"])),
                      ("start mentioning dogs again", Expected(.stopIgnoring, ["dog"])),
                      ("turn off the vehicle warnings", Expected(.disableHazardAlerts)),
                      ("are the car warnings on", Expected(.askHazardAlerts)),
                      ("read what's written on this", Expected(.readText)),
                      ("anything on the floor i could trip over", Expected(.checkObstacles)),
                      ("is there a bench further up the road", Expected(.findAhead, ["bench"])),
                      ("more details about that one", Expected(.more)),
                      ("walk me through how to use the app", Expected(.tutorial)),
                      ("find me a cup", Expected(.find, ["cup"]))])
    func moreEverydayForms(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text): \(understanding.decide(text, channel: .typed))")
    }

    @Test("everyday forms: carry on detecting, stop watching, will I bump into something, so fast, a kitty, the loo; the light question and the text on a thing asked in so many words",
          arguments: [("carry on detecting", Expected(.startDetection)), ("start watching again", Expected(.startDetection)),
                      ("did i leave the light on", Expected(.checkLight)), ("check the lights", Expected(.checkLight)),
                      ("is it dark in here", Expected(.checkLight)), ("read the cover of the book", Expected(.textOnThing, ["book"])),
                      ("stop watching things", Expected(.stopDetection)), ("am i going to bump into something", Expected(.checkObstacles)),
                      ("you're talking so fast, slow it down", Expected(.speakSlower)), ("is there a kitty", Expected(.isThereThing, ["cat"])),
                      ("find the loo", Expected(.find, ["toilet"])), ("is there a bench further along this path", Expected(.findAhead, ["bench"]))])
    func formsOfDevelopmentSetTen(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text): \(understanding.decide(text, channel: .typed))")
    }

    @Test("a thing named inside a name the detector cannot see is not that thing: a bus stop is no bus",
          arguments: ["where is the nearest bus stop, do you know", "is the bus stop far", "find the car park"])
    func nameInsideUndetectable(_ text: String) {
        let decision = understanding.decide(text, channel: .typed)
        #expect(decision.command == nil, "\(text): \(decision)")
        if case .refuse(let sentence) = decision { #expect(sentence.contains("recognise"), "\(text): \(sentence)") }
    }

    @Test("a statement about a light or a thing is no question about it: asked, never answered as if asked",
          arguments: ["i think i left the kitchen light on when we left the house", "leave the light on",
                      "come on, walk faster or we'll miss the bus"])
    func statementNoQuestion(_ text: String) {
        let decision = understanding.decide(text, channel: .typed)
        if case .act(let command) = decision { Issue.record("\(text): carried out \(command)") }
    }

    @Test("one word put in place of a command's marking word is no agreement between patterns and meaning: asked, not carried out")
    func slipOverMarkingWord() {
        let decision = understanding.decide("get me to a bus", channel: .typed)
        if case .act(let command) = decision { Issue.record("carried out \(command)") }
    }

    @Test("a clause that turns down one command is no reason for another: the battery saver is not a reason to exit")
    func negatedClauseNoReason() {
        let decision = understanding.decide("i don't need the battery saver anymore, switch it off", channel: .typed)
        #expect(decision.command?.intent != .exit, "\(decision)")
        #expect(understanding.decide("not louder, quieter", channel: .typed).command?.intent == .volumeDown)
    }

    @Test("a negation that is part of the command is heeded, and the command carried out", arguments: [
        ("don't mention bottles", CommandIntent.ignore), ("not so loud", .volumeDown), ("I don't want vibrations", .disableHaptics),
        ("don't be so picky", .lowerConfidence), ("don't ignore cups anymore", .stopIgnoring),
    ])
    func negationHeeded(_ text: String, _ intent: CommandIntent) {
        #expect(understanding.decide(text, channel: .typed).command?.intent == intent, "\(understanding.decide(text, channel: .typed))")
    }

    @Test("a sentence about somebody else is talk near the assistant, not to it: never acted on or asked about",
          arguments: ["he prefers to speak spanish at home", "they turned the volume up at the party",
                      "my sister is a bit louder than me", "mum says the bus will be late", "our neighbours speak french"])
    func aboutOthers(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            #expect(understanding.decide(text, channel: channel) == .refuse("Sorry, I didn't understand. Say help to hear what I can do."))
        }
    }

    @Test("a sentence about what the speaker will do is talk, not a command: never acted on or asked about",
          arguments: ["i'll just exit through the back door", "we'll catch the next train instead", "I'll find a seat and wait for you",
                      "we're going to miss the bus if you don't hurry up", "i am going to read it later",
                      "i'm going to sit down on that bench for a bit"])
    func ownPlans(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            #expect(understanding.decideLine(text, channel: channel) == .one(.refuse("Sorry, I didn't understand. Say help to hear what I can do.")), "\(text)")
        }
    }

    @Test("a line that calls somebody else by who they are, in a clause of its own, is said to them: never acted on",
          arguments: ["repeat after me, kids, one two three", "speak up, grandad", "everyone, quiet please"])
    func addressesOthers(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            #expect(understanding.decideLine(text, channel: channel) == .one(.refuse("Sorry, I didn't understand. Say help to hear what I can do.")), "\(text)")
        }
        #expect(understanding.decide("speak up please", channel: .typed).command?.intent == .volumeUp)
    }

    @Test("a line that tells what someone or something said reports their words: never acted on or asked about",
          arguments: ["the sign said exit on the left", "the teacher always used to say speak slower", "i told him louder wasn't going to help",
                      "my phone says low battery", "a man outside shouted stop", "the radio says traffic is heavy ahead"])
    func reportedSpeech(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            #expect(understanding.decideLine(text, channel: channel) == .one(.refuse("Sorry, I didn't understand. Say help to hear what I can do.")), "\(text)")
        }
    }

    @Test("a question about what a sign or a thing says is no reported speech")
    func askedWhatItSays() {
        for text in ["what does the sign say", "tell me what the sign says", "read me what it says"] {
            guard case .act(let command) = understanding.decide(text, channel: .typed) else {
                Issue.record("not answered: \(text) → \(understanding.decide(text, channel: .typed))")
                continue
            }
            #expect([.readText, .textOnThing].contains(command.intent), "\(text)")
        }
    }

    @Test("a clause that calls several people as you ('you two', 'you lot', 'you kids') makes the line said to them",
          arguments: ["turn it down, you two, i'm on the phone", "quiet, you lot", "stop that, you kids"])
    func callsSeveral(_ text: String) {
        #expect(understanding.decideLine(text, channel: .typed) == .one(.refuse("Sorry, I didn't understand. Say help to hear what I can do.")), "\(text)")
    }

    @Test("a rate said as people say it: 'one fifty' is 150, never 51; words in no number's order are no number",
          arguments: [("talk at one fifty words a minute", 150.0), ("set the speech rate to one sixty five", 165.0),
                      ("set the speech rate to two hundred and ten", 210.0), ("speech rate fifty five", 55.0)])
    func rateAsSaid(_ text: String, _ rate: Double) {
        #expect(Expected(.setSpeechRate, number: rate).matches(understanding.decide(text, channel: .typed).command), "\(text): \(understanding.decide(text, channel: .typed))")
    }

    @Test("number words in no order a number is said in are not summed: the longest run that is a number is read",
          arguments: [(["fifty", "fifty"], 50.0), (["five", "five"], 5.0), (["one", "hundred", "one", "fifty"], 101.0), (["one", "fifty"], 150.0)])
    func numberWordsOutOfOrder(_ words: [String], _ value: Double) {
        #expect(english.readSlotAnywhere(.number, in: words) == .value(.number(NumberReader.Reading(value: value, isPercent: false))), "\(words)")
    }

    @Test("a speech rate with a fraction (a recogniser's \"100.90\" for \"190\") is asked about, never set; a whole one is set")
    func fractionalRate() {
        for channel in [InputChannel.typed, .spoken(certain: true)] {
            guard case .confirm(_, let pending) = understanding.decide("could you set your speech rate to 100.90", channel: channel) else {
                Issue.record("not asked: \(understanding.decide("could you set your speech rate to 100.90", channel: channel))")
                continue
            }
            #expect(pending.intent == .setSpeechRate)
        }
        #expect(understanding.decide("set the speech rate to 190", channel: .typed) == .act(Command(.setSpeechRate, number: 190)))
    }

    @Test("left and right are never swapped: the side said decides which side is described")
    func sideSaid() {
        for (text, intent) in [("what's over on the right hand side", CommandIntent.whatIsOnRight), ("what's over on the left hand side", .whatIsOnLeft)] {
            #expect(understanding.decide(text, channel: .typed).command?.intent == intent, "\(text): \(understanding.decide(text, channel: .typed))")
        }
    }

    @Test("a line that opens by naming a thing and asks nothing of it tells of the thing: never carried out or asked about, typed or spoken",
          arguments: ["the bus was late again today", "the bus was laid again to day", "the dog next door barked all night",
                      "my phone needs a new battery, it only lasts half a day", "the stop sign at the corner got knocked down",
                      "two trucks were parked outside the bakery"])
    func tellingOfThing(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true), .spoken(certain: false)] {
            #expect(understanding.decide(text, channel: channel) == .refuse("Sorry, I didn't understand. Say help to hear what I can do."),
                    "\(text)")
        }
    }

    @Test("a line that opens by naming a thing is still a command when it says what to do with it or is one of the phrases",
          arguments: [("people are the most important", Expected(.prioritise, ["person"])), ("cars first", Expected(.prioritise, ["car"])),
                      ("dog alerts on", Expected(.enableAlert, ["dog"]))])
    func namingThingWithCommand(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text)")
    }

    @Test("a hesitation the recogniser ran into the first word ('unsaved' for 'um, save') spoils the word: never carried out, typed or spoken",
          arguments: ["unsaved power please", "unlike mode please", "umbi quiet"])
    func fusedHesitation(_ text: String) {
        for channel in [InputChannel.typed, .spoken(certain: true), .spoken(certain: false)] {
            let decision = understanding.decide(text, channel: channel)
            #expect(decision.command == nil, "\(text), \(channel): \(decision)")
        }
        // Read without the hesitation, "saved power" is battery saver on, not off.
        if case .confirm(_, let pending) = understanding.decide("unsaved power please", channel: .typed) {
            #expect(pending.intent == .enableBatterySaver)
        }
    }

    @Test("'what am I looking at' says 'at' where a search says 'looking for': never read as 'what am I looking for'")
    func lookingAtIsNoSearch() {
        for channel in [InputChannel.typed, .spoken(certain: false)] {
            let decision = understanding.decide("what am i looking at", channel: channel)
            switch decision {
            case .act(let command), .confirm(_, let command): #expect(command.intent == .describeAhead, "\(decision)")
            case .refuse: Issue.record("refused: \(decision)")
            }
        }
        #expect(understanding.decide("what am i looking for", channel: .typed).command?.intent == .askFindTarget)
    }

    @Test("words of the language that begin like a hesitation ('unpause', 'unmute', 'umbrella') keep their meaning",
          arguments: [("unpause the detection", Expected(.startDetection)), ("unmute the books", Expected(.stopIgnoring, ["book"])),
                      ("unignore cups", Expected(.stopIgnoring, ["cup"])), ("umbrellas first", Expected(.prioritise, ["umbrella"]))])
    func hesitationLikeWords(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text)")
    }

    @Test("a search is carried out only when it was asked for in words that search; talk that only names a thing is asked about",
          arguments: ["can you fetch me a chair from the other room"])
    func searchNeedsItsWords(_ text: String) {
        let decision = understanding.decide(text, channel: .typed)
        guard case .confirm(_, let pending) = decision else {
            Issue.record("\(text) was not asked about: \(decision)")
            return
        }
        #expect(pending.intent == .find, "\(text)")
    }

    @Test("a search said with its words is carried out", arguments: [("please get me to a bench", Expected(.find, ["bench"])),
                                                                     ("search the room for a bottle", Expected(.find, ["bottle"]))])
    func searchWithItsWords(_ text: String, _ expected: Expected) {
        #expect(expected.matches(understanding.decide(text, channel: .typed).command), "\(text)")
    }

    @Test("talk that is no command does nothing",
          arguments: ["the weather is really nice today, isn't it", "could you call my daughter and tell her I am late"])
    func chitChat(_ text: String) {
        #expect(understanding.decide(text, channel: .spoken(certain: true)) == .refuse("Sorry, I didn't understand. Say help to hear what I can do."))
    }
}

@Suite("A question waits for yes or no, and for no longer than its timeout")
struct ConfirmationTests {
    let command = Command(.ignore, categories: english.selection(of: ["chair"]))
    let start = ContinuousClock.now

    @Test("yes within the timeout carries the command out")
    func yes() {
        var question = PendingConfirmation<ContinuousClock.Instant>()
        question.ask(command, at: start)
        let reply = question.answer("yes please", at: start + .seconds(4), isYes: english.answer)
        #expect(reply == .confirmed(command))
        #expect(question.pending == nil)
    }

    @Test("no drops the command")
    func no() {
        var question = PendingConfirmation<ContinuousClock.Instant>()
        question.ask(command, at: start)
        let first = question.answer("no", at: start + .seconds(1), isYes: english.answer)
        #expect(first == .declined)
        let second = question.answer("yes", at: start + .seconds(2), isYes: english.answer)
        #expect(second == .expired)
    }

    @Test("a yes after the timeout does nothing")
    func timeout() {
        var question = PendingConfirmation<ContinuousClock.Instant>(timeout: .seconds(10))
        question.ask(command, at: start)
        let openBeforeTimeout = question.isOpen(at: start + .seconds(9))
        #expect(openBeforeTimeout)
        let late = question.answer("yes", at: start + .seconds(11), isYes: english.answer)
        #expect(late == .expired)
        #expect(question.pending == nil)
    }

    @Test("another command instead of an answer drops the question")
    func otherLine() {
        var question = PendingConfirmation<ContinuousClock.Instant>()
        question.ask(command, at: start)
        #expect(question.answer("scan now", at: start + .seconds(1), isYes: english.answer) == .notAnAnswer)
        #expect(question.pending == nil)
    }
}

@Suite("Replies never show a template's placeholders")
struct FilledReplyTests {
    @Test("a confirmation whose value only the session knows says what was understood instead",
          arguments: [CommandIntent.speakFaster, .volumeUp, .help, .recentDetections, .changeSpeechSpeed])
    func noPlaceholders(_ intent: CommandIntent) {
        let sentence = english.confirmation(for: Command(intent))
        #expect(!sentence.contains("{") && !sentence.isEmpty, "\(sentence)")
    }

    @Test("given the value, the template is filled")
    func filled() {
        #expect(english.confirmation(for: Command(.speakFaster), values: ["rate": "200"]) == "Faster: 200 words per minute.")
    }
}
