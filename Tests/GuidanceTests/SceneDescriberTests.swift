import Foundation
import Perception
import Testing
@testable import Guidance

@Suite("Scene descriptions")
struct SceneDescriberTests {
    func describer(_ settings: DescriptionSettings = .standard) throws -> SceneDescriber {
        try SceneDescriber(language: "en", settings: settings)
    }

    @Test("a chair at 2 m on the left is announced before a person at 5 m ahead")
    func closestFirst() throws {
        let sentences = try describer().sentences(for: [located("person", meters: 5), located("chair", meters: 2, degrees: -30)])
        #expect(sentences == ["Chair, 2 meters, left.", "Person, 5 meters, ahead."])
    }

    @Test("prioritised categories lead, closest first among themselves, and survive the cut to the maximum")
    func prioritisedFirst() throws {
        let scene = [located("chair", meters: 1), located("person", meters: 6), located("cup", meters: 2),
                     located("person", meters: 4, degrees: -30), located("dog", meters: nil, degrees: 30)]
        let prioritising = try describer(DescriptionSettings(maximumObjects: 3, prioritisedCategories: ["person", "dog"]))
        #expect(prioritising.sentences(for: scene) == ["Person, 4 meters, left.", "Person, 6 meters, ahead.", "Dog, distance unknown, right."])
        let plain = try describer(DescriptionSettings(maximumObjects: 3))
        #expect(plain.sentences(for: scene) == ["Chair, 1 meter, ahead.", "Cup, 2 meters, ahead.", "Person, 4 meters, left."])
    }

    @Test("the issue's example: a person 2 m slightly left, then a bus 4 m ahead")
    func issueExample() throws {
        let sentences = try describer().sentences(for: [located("bus", meters: 4.2, confidence: 0.94),
                                                        located("person", meters: 2.1, degrees: -15, confidence: 0.9)])
        #expect(sentences == ["Person, 2 meters, slightly left.", "Bus, 4 meters, ahead."])
    }

    @Test("unknown distances come after known ones, surest first, and say 'distance unknown'")
    func unknownAfterKnown() throws {
        let sentences = try describer().sentences(for: [
            located("dog", meters: nil, confidence: 0.7),
            located("cat", meters: nil, degrees: 12, confidence: 0.95),
            located("car", meters: 30, degrees: -12),
        ])
        #expect(sentences == ["Car, 30 meters, slightly left.", "Cat, distance unknown, slightly right.", "Dog, distance unknown, ahead."])
    }

    @Test("at the same distance, the surer object comes first")
    func tiesByConfidence() throws {
        let sentences = try describer().sentences(for: [located("cup", meters: 3, confidence: 0.7),
                                                        located("bottle", meters: 3, confidence: 0.8)])
        #expect(sentences == ["Bottle, 3 meters, ahead.", "Cup, 3 meters, ahead."])
    }

    @Test("at most 5 objects are announced, the 5 closest")
    func maximumFive() throws {
        let labels = ["person", "chair", "car", "bus", "dog", "cat", "bench"]
        let objects = labels.enumerated().map { located($0.element, meters: Double(7 - $0.offset)) }
        let sentences = try describer().sentences(for: objects)
        #expect(sentences.count == 5)
        #expect(sentences.first == "Bench, 1 meter, ahead.")
        #expect(sentences.last == "Car, 5 meters, ahead.")
        #expect(!sentences.contains { $0.hasPrefix("Person") || $0.hasPrefix("Chair") })
        #expect(try describer(DescriptionSettings(maximumObjects: 2)).sentences(for: objects).count == 2)
    }

    @Test("objects below the 0.6 confidence threshold are never mentioned")
    func threshold() throws {
        let sentences = try describer().sentences(for: [located("person", meters: 1.2, confidence: 0.59),
                                                        located("chair", meters: 4, confidence: 0.6)])
        #expect(sentences == ["Chair, 4 meters, ahead."])
        let lenient = try describer(DescriptionSettings(minimumConfidence: 0.5))
        #expect(lenient.sentences(for: [located("person", meters: 1.2, confidence: 0.59)]) == ["Person, 1 meter, ahead."])
    }

    @Test("nothing above the threshold → 'No object detected.'")
    func noObject() throws {
        #expect(try describer().sentences(for: []) == ["No object detected."])
        #expect(try describer().sentences(for: [located("person", meters: 2, confidence: 0.3)]) == ["No object detected."])
    }

    @Test("a dark or blurred picture gets its quality sentence instead of objects")
    func qualitySentences() throws {
        let objects = [located("person", meters: 2)]
        #expect(try describer().sentences(for: objects, imageQuality: .tooDark) == ["The image is too dark to see anything."])
        #expect(try describer().sentences(for: [], imageQuality: .tooBlurred)
            == ["The image is too blurred to judge; hold the camera steady."])
        #expect(try describer().sentences(for: objects, imageQuality: .ok) == ["Person, 2 meters, ahead."])
    }

    @Test("the full template says 'is … away', and its own sentence for an unknown distance")
    func fullTemplate() throws {
        let full = try describer(DescriptionSettings(sentenceStyle: .full))
        #expect(full.sentences(for: [located("person", meters: 2, degrees: -15), located("bus", meters: nil)])
            == ["Person is 2 meters away, slightly left.", "Bus is ahead; its distance is unknown."])
        #expect(full.sentences(for: [located("chair", meters: 0.6)]) == ["Chair is less than 1 meter away, ahead."])
    }

    @Test("clock style speaks hours: 12 ahead, 11 and 1 beside it")
    func clockStyle() throws {
        let clock = try describer(DescriptionSettings(directionStyle: .clock))
        #expect(clock.sentences(for: [located("person", meters: 2, degrees: -20), located("car", meters: 6, degrees: 5)])
            == ["Person, 2 meters, at 11 o'clock.", "Car, 6 meters, at 12 o'clock."])
    }

    @Test("feet are spoken when chosen")
    func feet() throws {
        let feet = try describer(DescriptionSettings(unit: .feet))
        #expect(feet.sentences(for: [located("person", meters: 2)]) == ["Person, 7 feet, ahead."])
    }

    @Test("alike objects at the same spoken distance and direction become one sentence with a plural")
    func grouping() throws {
        let objects = [located("person", meters: 3.1), located("person", meters: 3.3), located("chair", meters: 3.2),
                       located("person", meters: 3.0, degrees: -30)]
        #expect(try describer().sentences(for: objects)
            == ["Person, 3 meters, left.", "2 people, 3 meters, ahead.", "Chair, 3 meters, ahead."])
        let full = try describer(DescriptionSettings(sentenceStyle: .full))
        #expect(full.sentences(for: Array(objects.prefix(2))) == ["2 people are 3 meters away, ahead."])
        let ungrouped = try describer(DescriptionSettings(groupsAlikeObjects: false))
        #expect(ungrouped.sentences(for: objects).count == 4)
    }

    @Test("objects high above the horizon are said to be high up")
    func highUp() throws {
        #expect(try describer().sentences(for: [located("traffic light", meters: 10, degrees: -15, elevationDegrees: 25)])
            == ["Traffic light, 10 meters, slightly left, high up."])
    }

    @Test("labels the phrase file does not know are spoken as they are")
    func unknownLabel() throws {
        #expect(try describer().sentences(for: [located("wheelchair ramp", meters: 2)]) == ["Wheelchair ramp, 2 meters, ahead."])
    }

    @Test("settings outside their ranges are rejected")
    func badSettings() {
        #expect(throws: DescriptionSettingsError.minimumConfidenceOutOfRange(1.5)) { try DescriptionSettings(minimumConfidence: 1.5) }
        #expect(throws: DescriptionSettingsError.maximumObjectsBelowOne(0)) { try DescriptionSettings(maximumObjects: 0) }
    }
}
