import Foundation

/// The contents of one `Languages/<language>.json`: every word the command language knows in
/// that language. Code never holds a phrase; a translator edits this file alone.
struct LanguageFile: Sendable, Decodable {
    struct Fillers: Sendable, Decodable {
        /// Politeness removed at the start only ("can you …"): it may be part of a command elsewhere.
        var leading: [String]
        /// Removed wherever it stands ("please").
        var anywhere: [String]
        /// The names the user calls the assistant by ("assistive vision", "assistant"): removed
        /// at the start, even when nothing is left. A name is who is spoken to, not what is asked:
        /// "assistant" alone was carried out as "exit" (it resembles "shut down the assistant").
        var address: [String]?
        /// How a recogniser writes a hesitation run into the next word ("um save" heard "unsaved",
        /// "um be" heard "umbi"): a first word that begins so and is no word of the language is
        /// read both as said and with the hesitation taken off (`CommandUnderstanding`).
        var fused: [String]?
    }

    struct Numbers: Sendable, Decodable {
        /// Words for 0 to 19 (and alternatives such as "oh").
        var units: [String: Int]
        /// Words for 20, 30, … 90.
        var tens: [String: Int]
        /// Multipliers: "hundred" 100, "thousand" 1000.
        var scales: [String: Int]
        /// The decimal point word: "zero point five".
        var point: String
        /// Words joining parts of a number, ignored: "one hundred and fifty".
        var joiners: [String]
        /// "percent", "per cent" (as words).
        var percent: [String]
        /// Fractions said as words: "a half", "a quarter"; their plurals take a count ("three quarters").
        var fractions: [String: Double]
    }

    struct Categories: Sendable, Decodable {
        /// Plurals that the suffix rules get wrong: "person" → "people".
        var irregularPlurals: [String: String]
        /// Ordered suffix rules: the first ending that fits is replaced ("bus" → "buses"); no
        /// rule fitting adds `defaultPluralSuffix`.
        var pluralRules: [[String]]
        var defaultPluralSuffix: String
        /// Other words for a detector category: "sofa" → "couch".
        var synonyms: [String: String]
        /// Names for several categories at once, by their plural name.
        var groups: [String: Group]
        /// Words inside a list of categories that are not themselves categories ("and", "the").
        var listWords: [String]
        /// Joins the last two names of a list: "cars and people".
        var conjunction: String
        /// "a" / "an" before a singular name.
        var indefiniteArticle: IndefiniteArticle
        /// Things people ask for that the detector cannot see (stairs, doors, curbs), by every
        /// word for them → the plural said in the answer. Never matched to a similar-sounding
        /// category: "stairs" is not "chairs".
        var notDetectable: [String: String]?
        /// Words that open a place phrase ("on", "next to", "in front of"): a thing named after one
        /// is where the thing asked about is, not what is asked about ("how many cups are on the
        /// table" counts cups).
        var placeWords: [String]?
        /// Words that open a clause telling which thing is meant ("the car *that* just pulled up"):
        /// a question about one thing is that question about it.
        var relativeWords: [String]?
        /// The side of the view a place phrase after the thing can name ("the person on the left",
        /// "the car to my right"), and the words that may end it ("side", "of me").
        var sidesOfView: SidesOfView?
    }

    /// Place words that put a thing inside a vehicle: `inside` before any of `carriers`
    /// (category names), `onBoard` before those of `carriersOnBoard` ("on the bus", not "on the car").
    struct CarriedIn: Sendable, Decodable {
        var inside: [String]
        var onBoard: [String]
        var carriers: [String]
        var carriersOnBoard: [String]
    }

    struct SidesOfView: Sendable, Decodable {
        var left: [String]
        var right: [String]
        var after: [String]
    }

    /// A group's words; its members are `CategoryGroups.members[name]` (AssistCore).
    struct Group: Sendable, Decodable {
        var singular: String
    }

    struct IndefiniteArticle: Sendable, Decodable {
        var beforeVowel: String
        var otherwise: String
        var vowels: String
        /// Names said without an article ("someone", "anybody"): "Is there someone ahead?".
        var notTaken: [String]?
    }

    struct Intent: Sendable, Decodable {
        /// Patterns: words, `[optional words]`, `(one | other)`, and a `{slot}`.
        var phrases: [String]
        /// Said after the command is carried out. Placeholders: `{singular}`, `{plural}`,
        /// `{a singular}`, `{number}`, `{percent}`, `{language}`, and values the caller supplies.
        var confirmation: String
        /// The phrase offered in help and in "Did you mean: …?".
        var example: String
        /// Phrasings as people say them (polite, indirect, short, with fillers), compared by
        /// meaning with what was said; slot values in them are only examples.
        var examples: [String]?
    }

    struct Replies: Sendable, Decodable {
        var notUnderstood: String
        var didYouMean: String
        var sayHelp: String
        var unknownCategory: String
        var unknownNumber: String
        var unknownLanguage: String
        var listCategories: String
        /// "I can't recognise {plural}. …" for a thing in `notDetectable`.
        var cannotRecognise: String?
        /// "{phrase}? Say yes or no." before a command that is carried out only after yes.
        var confirmQuestion: String?
        /// The command was understood but its value was not said: "{example}".
        var valueMissing: String?
        /// Said when a question was answered no, or not answered in time.
        var cancelled: String?
    }

    /// Words that answer a question: "yes", "yeah", "no", "cancel".
    struct Answers: Sendable, Decodable {
        var yes: [String]
        var no: [String]
    }

    struct Help: Sendable, Decodable {
        var intro: String
        /// Mode name ("continuous", "on-demand", "explore", "navigate", "find") → intents worth
        /// saying in it, most useful first.
        var modes: [String: [String]]
        var always: [String]
        var closing: String
    }

    var language: String
    var fillers: Fillers
    var contractions: [String: String]
    var numbers: Numbers
    var categories: Categories
    /// Language names → BCP 47 tags: "french" → "fr".
    var languages: [String: String]
    /// Values used when a phrase must be shown with its slot filled ("find a chair").
    var slotExamples: [String: String]
    var intents: [String: Intent]
    var replies: Replies
    /// Sentences of the control layer, by `ControlSentence` name.
    var control: [String: String]
    var help: Help
    var tutorial: [String]
    var answers: Answers?
    /// Groups of intents that mean opposite or closely related things ("faster"/"slower"), which
    /// sentence similarity tells apart badly: intent → words that mark it, the first group
    /// member whose words were said winning.
    var contrasts: [Contrast]?
    /// Intents carried out on their meaning only when one of their contrast group's marking words
    /// was said ("where", "find", …); otherwise asked about. Everyday talk names things all the
    /// time ("I'm just going to sit on this bench"), and by similarity alone it reads as a search.
    var actOnlyWhenMarked: [String]?
    /// Intents that the words around another command read as ("go ahead and start detecting",
    /// "turn it up and keep going" near "more"): a part of a line of several commands is taken as
    /// one of them only when its meaning is certain.
    var joinedOnlyWhenCertain: [String]?
    /// Words by which a part of a line speaks of what an earlier part named ("look for a bench and
    /// guide me there", "find the bus and take me to it", "find the loo, can you guide me"): such a
    /// part, naming nothing of its own, is about that thing, not a command of its own.
    var backReferences: [String]?
    /// The words that join two commands in one line ("louder and slower", "ignore handbags but
    /// warn me about bicycles"); a comma joins them too.
    var joiningWords: [String]?
    /// Words that stand for a thing named before, and whether it was one or several ("singular",
    /// "plural"): "is there a bus ahead, and how far is it" asks how far the bus is.
    var thingPronouns: [String: String]?
    /// Words that open a sentence about somebody else ("she speaks french and a bit of german",
    /// "he talks too fast"): said near the assistant, not to it, so never acted on or asked about.
    var aboutOthers: [String]?
    /// Words that open a sentence about what the speaker (and company) will do ("I'll just exit
    /// through the back door", "we're going to miss the bus"): telling of a plan, not asking the
    /// assistant for anything, so never acted on or asked about, like `aboutOthers`.
    var ownPlans: [String]?
    /// Words that open a sentence about what the speaker did or does with a device ("I turned the
    /// volume down on my phone ages ago", "I switch the camera off when I'm at home"): telling, not
    /// asking, like `ownPlans`.
    var ownDoings: [String]?
    /// People named by who they are to the speaker ("sister", "doctor", "neighbour", "kids",
    /// "everyone"): a line that opens with one of them, alone or after "my" or "our" ("my sister
    /// is a bit louder than me", "mum says it's going to rain"), is about that person, like one
    /// that opens with `aboutOthers`; one that calls them in a clause of their own ("speak up,
    /// grandad") is said to them.
    var othersByRelation: [String]?
    /// Ways of calling several people in a clause of their own ("turn it down, you two"): the line
    /// is said to them, like one that calls somebody by who they are.
    var othersAddressed: [String]?
    /// How a line tells what someone or something said ("the sign said exit on the left", "the
    /// teacher used to say speak slower", "I told him louder wasn't going to help"): the words
    /// reported are theirs, not a request of the speaker's.
    var reportedSpeech: ReportedSpeech?
    /// How a speaker takes back what they just said ("louder, no, quieter", "find the cat, no
    /// wait, the dog", "is there a horse, sorry, a cow"): only the correction is meant.
    var corrections: Corrections?
    /// Words that may stand before a thing named at the opening of a line ("the", "my", "those"),
    /// a number too: a line that opens by naming a thing in view ("the bus is running late again",
    /// "my phone needs charging") tells of it, and is a command only when it says what to do with it.
    var thingOpeners: [String]?
    /// Words after a thing named at the opening that tell what it did or was ("the train *was* too
    /// loud"): an event told, never a request.
    var pastLinks: [String]?
    /// Words (or runs of words) that ask about what a picture cannot show: a name, an age, a breed,
    /// a mood, a price, where something is going ("where is the bus going", "how old is the dog").
    /// A question about a thing in view that says one is declined, never answered as the nearby
    /// question its other words resemble ("where is the bus", "is there a dog").
    var unmeasured: [String]?
    /// How a line is told to be a question about the picture when it is none of the answerable
    /// forms: it is then declined ("I can't tell that from the picture"), not "not understood".
    var pictureQuestions: PictureQuestions?
    /// How a line asks to be told when a thing arrives ("let me know if a bike comes"): a request
    /// for an alert, never a question about what is in view now, however near its meaning is to
    /// "is there a bike ahead".
    var arrivalRequests: ArrivalRequests?
    /// Words and phrases that negate what follows ("not", "never", "no need to"): how a line says
    /// not to do something ("don't stop detecting", "no, don't exit").
    var negation: [String]?
    /// Commands that only turn a thing on (an alert for a category), and the words that would ask
    /// for the opposite ("turn off the alert for cars"), which no command does.
    var turningOff: RefusedWhenSaid?
    /// Commands that change a setting, and the words that say the setting is fine as it is ("I
    /// can hear you fine", "no, leave the volume where it is", "I'm happy with the speed"): said of
    /// a setting, they ask for no change, however near the line's meaning is to one.
    var keepingAsIs: RefusedWhenSaid?
    /// Commands that change how the assistant sounds, and the other things that make sound or
    /// speak ("the stereo", "the audiobook narrator"): a line that says one of them speaks of its
    /// sound ("that volume knob on the stereo is stuck"), not of the assistant's, unless the thing
    /// is only what the assistant must be heard over (`background`: "louder than the radio").
    var otherSoundSources: OtherSoundSources?

    struct OtherSoundSources: Sendable, Decodable {
        var intents: [String]
        var sources: [String]
        /// Words just before a source that make it the background of the request.
        var background: [String]
    }

    struct ReportedSpeech: Sendable, Decodable {
        /// Verbs that report words ("said", "says", "told").
        var verbs: [String]
        /// Subjects besides a thing named that may open a report: the assistant spoken of ("it said
        /// person ahead", "it tells me when there's a car coming").
        var subjects: [String]?
        /// Who the speaker told, after "I told" ("him", "them"): "I told him …" reports; "I told
        /// you to stop" is a request said again.
        var hearers: [String]
    }

    struct Corrections: Sendable, Decodable {
        /// Clauses that withdraw what came before whatever follows ("no", "no wait", "scratch
        /// that"): what follows is all that is meant, and nothing is done when it is no command.
        var withdrawing: [String]
        /// Clauses that put what follows in place of what came before only when it is understood
        /// ("sorry", "I mean"): otherwise a courtesy ("stop talking, sorry, I'm on the phone").
        var replacing: [String]
        /// Those of both that may open the clause that says the correction ("I mean a bottle",
        /// "no wait the dog"); the rest stand alone between commas ("no" in "no more chairs" is none).
        var opening: [String]
    }

    /// Intents, and words that, said in a line read as one of them, ask for something else.
    struct RefusedWhenSaid: Sendable, Decodable {
        var intents: [String]
        var words: [String]
    }

    struct ArrivalRequests: Sendable, Decodable {
        /// Words that open the request ("let me know if", "tell me when", "warn me if").
        var leads: [String]
        /// Words that say the thing comes ("comes", "approaches", "gets close").
        var arrivals: [String]
    }

    struct PictureQuestions: Sendable, Decodable {
        /// Words that open a question ("what", "who", "is", "does", "will", …).
        var openers: [String]
        /// Runs of words that wrap a question ("do you know", "tell me"): what follows is asked.
        var leads: [String]
        /// Words that point at something (a thing in view or spoken of): "this", "the", "she", "it".
        var references: [String]
        /// Words between the speaker and what they say of themselves ("I *am* about to cross"):
        /// words of the `unmeasured` list said so are the speaker's, not asked of the picture.
        var speakerLinks: [String]?
        /// Openings that make a request of the opener, not a question ("do not bother telling me
        /// about the plants").
        var requestOpenings: [String]?
        /// Words that, close after the opener, make the listener the one asked about ("did you
        /// watch the match", "how was your weekend"): talk to a person, not about the picture.
        var addressee: [String]
        /// Words that name what can be answered: what the picture's measurements give (a count, a
        /// place or direction, a distance, a colour, what text says, a description, the light) and
        /// the assistant's own state (its alerts, mode, volume, voice). A question asked back ("Did
        /// you mean …?") that says none of them asks about a property nothing measures ("is the
        /// bench wet", "is the music loud in there") and is declined instead.
        var answerable: [String]
        /// Words that, close after the opener, make the line a request of the speaker's ("can I
        /// hear that again", "could we go back"): asked back as the command it resembles, as before.
        var speaker: [String]
        /// Words that open a count ("how many"): the things counted follow them.
        var counting: [String]
        /// Words that may follow the things counted when the count is of those in view ("how many
        /// cars are parked", "how many dogs can you spot"); any other ("how many people live in
        /// this building", "how many cars does he own") counts what the picture cannot show.
        var countedInView: [String]
        /// Words that join the things counted to what is said of them ("how many birds are
        /// singing"): what follows them must be about their being there too, or the count is of
        /// what they do ("are singing", "are laughing"), which nothing measures.
        var countingLinks: [String]?
        /// Parts of someone or something whose colour nothing here measures (eyes, hair, a
        /// tattoo): the colour measured is the whole thing's box, so a colour question about one
        /// is declined, never answered with the colour of the person or of the centre of the view.
        var parts: [String]?
        /// What people wear (a shirt, a coat, shoes), which the detector does not find: its colour
        /// asked of someone ("his shirt", "the man's jacket") is declined, never the centre of the
        /// view's; asked of "this" or "my" it is the thing held up to the camera, as before.
        var worn: [String]?
        /// Words that say whose a thing is, beside any word with a possessive "'s" ("his", "her").
        var owners: [String]?
        /// Things counted or looked for inside a vehicle ("how many people are in the car", "on the
        /// bus"): the detector sees people through a window at best, so such a count is declined.
        var carriedIn: CarriedIn?
        /// How a question asks what a thing in view does, will do, is for or where it goes ("where
        /// does this bus go", "when will the train leave", "which way is the car driving", "what is
        /// the bench for"): a route, a time, an intention or a purpose, which no picture shows.
        var doing: Doing?
    }

    /// The shape of a question about what a thing does: a question word (`asking`), a word that
    /// carries the verb (`helpers`), the thing in view, then the verb. After "does", "will", "can"
    /// any verb asks of a doing but those of saying, showing or being (`notDoing`: "what does the
    /// truck say"); after "is", "are" a word with the `ending` of a doing does ("is the car
    /// driving"), but not one of being there (`countedInView`: "where is the dog sitting"), and so
    /// does a last word that asks of something beyond the thing (`beyond`: "what is the bench for",
    /// "where are the people walking to").
    struct Doing: Sendable, Decodable {
        var asking: [String]
        var helpers: [String]
        var notDoing: [String]
        var ending: String
        var beyond: [String]
        /// A last word that asks what a thing pointed at is for, named or not ("what does this
        /// device do").
        var purpose: [String]?
    }

    struct Contrast: Sendable, Decodable {
        /// In order of precedence: "too slowly" marks faster before "slowly" marks slower.
        var intents: [String]
        var words: [String: [String]]
        /// Runs of words in which a marking word marks nothing, as they mean something else ("I'm
        /// off", "off we go": leaving, not turning detection off).
        var notMarking: [String]?
    }
}
