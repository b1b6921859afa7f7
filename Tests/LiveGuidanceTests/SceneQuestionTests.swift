import AssistCore
import ColourAndLight
import Foundation
import Guidance
import LiveGuidance
import Perception
import PictureAnswers
import Reading
import Testing

/// Questions about the things in view are answered from what was measured: the objects found, their
/// places and distances, the colours inside one object's box. Pictures and findings are made here.
@Suite("Questions about the things in view")
struct SceneQuestionTests {
    static let answers = Result { try PictureAnswers(wordsPerMinute: 175) }
    static let describer = Result { try SceneDescriber() }

    /// A located object at `angle` degrees (negative: left) and `meters`, its box in a 640×480 picture.
    func object(_ label: String, _ box: BoundingBox, angle: Double, meters: Double?) -> LocatedObject {
        LocatedObject(detection: Detection(classIndex: COCOClasses.names.firstIndex(of: label) ?? 0, label: label, confidence: 0.8, box: box),
                      direction: Direction(angleDegrees: angle, elevationDegrees: 0),
                      distance: meters.map { DistanceEstimate(meters: $0, method: .objectSize, relativeError: 0.1) } ?? .unknown)
    }

    func target(_ category: String, _ plural: String) -> SceneTarget { SceneTarget(categories: [category], singular: category, plural: plural) }

    func ask(_ question: SceneQuestion, image: RGBImage = RGBImage(width: 640, height: 480, filledWith: (128, 128, 128)),
             objects: [LocatedObject]) throws -> SceneAnswer {
        let context = FrameContext(people: objects.filter { $0.label == "person" }.map(\.detection.box), objects: objects,
                                   describer: try Self.describer.get(), describe: { _ in [] })
        return try Self.answers.get().answer(question, about: image, context: context)
    }

    var street: [LocatedObject] {
        [object("person", BoundingBox(x0: 20, y0: 100, x1: 90, y1: 400), angle: -25, meters: 3),
         object("person", BoundingBox(x0: 100, y0: 120, x1: 160, y1: 380), angle: -18, meters: 4),
         object("bus", BoundingBox(x0: 250, y0: 80, x1: 450, y1: 400), angle: 2, meters: 8),
         object("car", BoundingBox(x0: 500, y0: 250, x1: 630, y1: 380), angle: 28, meters: 6)]
    }

    @Test("how many: the objects of that category are counted and each is placed; none is 'No … in view'")
    func count() throws {
        let people = try ask(.count(target("person", "people")), objects: street)
        #expect(people.sentences.first == "2 people.", "\(people.sentences)")
        #expect(people.basis.count == 2 && people.sentences.count >= 2)
        let buses = try ask(.count(target("bus", "buses")), objects: street)
        #expect(buses.sentences.first == "One bus.")
        let dogs = try ask(.count(target("dog", "dogs")), objects: street)
        #expect(dogs.sentences == ["No dogs in view."] && dogs.basis.isEmpty)
    }

    @Test("is there / where is / how far: said where it is and how far, or that it is not in view; never another thing")
    func isThereWhereHowFar() throws {
        let bus = try ask(.isThere(target("bus", "buses")), objects: street)
        #expect(bus.sentences.first == "Yes." && bus.sentences.count == 2, "\(bus.sentences)")
        #expect(bus.sentences[1].lowercased().hasPrefix("bus") && bus.sentences[1].contains("8"), "\(bus.sentences)")
        #expect(try ask(.isThere(target("dog", "dogs")), objects: street).sentences == ["No dog in view."])
        let whereCar = try ask(.whereIs(target("car", "cars")), objects: street)
        #expect(whereCar.sentences.count == 1 && whereCar.sentences[0].lowercased().contains("right"), "\(whereCar.sentences)")
        let far = try ask(.howFar(target("person", "people")), objects: street)
        // The nearer of the two people.
        #expect(far.basis.count == 1 && far.basis[0].distance.meters == 3 && far.sentences[0].contains("3"), "\(far.sentences)")
    }

    @Test("what is closest, on my left, on my right: from the measured distances and directions")
    func closestAndSides() throws {
        #expect(try ask(.closest, objects: street).basis.map(\.distance.meters) == [3])
        #expect(try ask(.onSide(left: true), objects: street).basis.map(\.label) == ["person", "person"])
        #expect(try ask(.onSide(left: false), objects: street).basis.map(\.label) == ["car"])
        #expect(try ask(.onSide(left: false), objects: Array(street.prefix(2))).sentences == ["Nothing on your right."])
        #expect(try ask(.closest, objects: []).sentences == ["Nothing in view."])
    }

    @Test("describe: one short sentence first (how many of each, the most numerous first, then the closest), then where each is")
    func describe() throws {
        let answer = try ask(.describe, objects: street)
        #expect(answer.sentences.first == "In view: 2 people, 1 car and 1 bus.", "\(answer.sentences)")
        #expect(answer.sentences.count > 1)
    }

    /// The street's two people are both on the left (−25° and −18°); its car on the right.
    @Test("the person on the left / right: of several, the one furthest that way; counted and looked for only on that side")
    func side() throws {
        func sided(_ category: String, _ plural: String, _ side: SideOfView) -> SceneTarget {
            SceneTarget(categories: [category], singular: category, plural: plural, side: side)
        }
        // Of two people, "the one on the right" is the nearer the middle, though both are on the left.
        let right = try ask(.howFar(sided("person", "people", .right)), objects: street)
        #expect(right.basis.map(\.direction.angleDegrees) == [-18], "\(right.sentences)")
        let left = try ask(.whereIs(sided("person", "people", .left)), objects: street)
        #expect(left.basis.map(\.direction.angleDegrees) == [-25], "\(left.sentences)")
        // Counted and looked for on that side only, said so when none is there.
        #expect(try ask(.count(sided("person", "people", .right)), objects: street).sentences == ["No people on your right."])
        #expect(try ask(.count(sided("person", "people", .left)), objects: street).sentences.first == "2 people.")
        #expect(try ask(.isThere(sided("car", "cars", .left)), objects: street).sentences == ["No car on your left."])
        // A lone car on the right is not "the car on the left".
        #expect(try ask(.howFar(sided("car", "cars", .left)), objects: street).sentences == ["No car on your left."])
        #expect(try ask(.howFar(sided("car", "cars", .right)), objects: street).basis.map(\.label) == ["car"])
    }

    /// A grey picture with a red box drawn on its left and a blue patch in its centre: the colour
    /// of "the car" is the car box's (red), never the picture's centre (blue).
    @Test("what colour is the car: the colour of the car's own box, not the picture's centre")
    func colourFromTheBox() throws {
        var image = RGBImage(width: 640, height: 480, filledWith: (128, 128, 128))
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ rgb: (UInt8, UInt8, UInt8)) {
            for y in y0..<y1 { for x in x0..<x1 { let i = (y * 640 + x) * 3; image.pixels[i] = rgb.0; image.pixels[i + 1] = rgb.1; image.pixels[i + 2] = rgb.2 } }
        }
        paint(220, 160, 420, 320, (20, 40, 200))     // blue in the centre
        paint(40, 200, 180, 300, (200, 20, 20))      // the red car
        // The car's box is a little larger than the car: grey background shows at its edges.
        let car = object("car", BoundingBox(x0: 30, y0: 190, x1: 190, y1: 310), angle: -25, meters: 5)
        let answer = try ask(.colour(target("car", "cars")), image: image, objects: [car])
        #expect(answer.sentences.count == 1 && answer.sentences[0].hasPrefix("The car is red"), "\(answer.sentences)")
        #expect(!answer.sentences[0].contains("blue") && !answer.sentences[0].contains("grey"), "\(answer.sentences)")
        #expect(answer.basis == [car])
        // No car: not in view, no colour guessed.
        #expect(try ask(.colour(target("bus", "buses")), image: image, objects: [car]).sentences == ["No bus in view."])
    }

    /// A blue bus with two people in black coats walking past it, nearer the camera: their coats
    /// are not the bus's colour. A cup held by a person as near as the cup is not hidden by them.
    @Test("what colour is the bus: the people standing in front of it are left out of its colour")
    func colourLeavesOutWhatIsInFront() throws {
        var image = RGBImage(width: 640, height: 480, filledWith: (200, 190, 140))   // a beige wall
        func paint(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ rgb: (UInt8, UInt8, UInt8)) {
            for y in y0..<y1 { for x in x0..<x1 { let i = (y * 640 + x) * 3; image.pixels[i] = rgb.0; image.pixels[i + 1] = rgb.1; image.pixels[i + 2] = rgb.2 } }
        }
        paint(100, 100, 540, 360, (30, 90, 210))     // the blue bus
        paint(140, 120, 300, 420, (15, 15, 15))      // a person in black in front of it
        paint(330, 120, 470, 430, (15, 15, 15))      // another
        let bus = object("bus", BoundingBox(x0: 100, y0: 100, x1: 540, y1: 360), angle: 0, meters: 8)
        let people = [object("person", BoundingBox(x0: 140, y0: 120, x1: 300, y1: 420), angle: -8, meters: 3),
                      object("person", BoundingBox(x0: 330, y0: 120, x1: 470, y1: 430), angle: 6, meters: 3)]
        let answer = try ask(.colour(target("bus", "buses")), image: image, objects: [bus] + people)
        #expect(answer.sentences == ["The bus is blue."], "\(answer.sentences)")
        // Without the people found, their coats are read as the bus's: the change is what leaves them out.
        let unaware = try ask(.colour(target("bus", "buses")), image: image, objects: [bus])
        #expect(unaware.sentences.first?.contains("black") == true, "\(unaware.sentences)")
        // Distances unknown: the one standing lower in the view is the one in front.
        let unknown = [object("bus", BoundingBox(x0: 100, y0: 100, x1: 540, y1: 360), angle: 0, meters: nil)]
            + people.map { object("person", $0.detection.box, angle: 0, meters: nil) }
        #expect(try ask(.colour(target("bus", "buses")), image: image, objects: unknown).sentences == ["The bus is blue."])
        // A thing hidden almost entirely keeps its own pixels rather than nothing.
        let covered = object("person", BoundingBox(x0: 90, y0: 90, x1: 550, y1: 440), angle: 0, meters: 2)
        #expect(try ask(.colour(target("bus", "buses")), image: image, objects: [bus, covered]).sentences.first?.hasPrefix("The bus is") == true)
    }

    @Test("a question the picture cannot answer is declined honestly, with or without the detector")
    func cannotTell() throws {
        #expect(try ask(.cannotTell, objects: street).sentences == ["I can't tell that from the picture."])
        let withoutDetector = try Self.answers.get().answer(.cannotTell, about: RGBImage(width: 8, height: 8, filledWith: (0, 0, 0)),
                                                            context: .pixelsOnly)
        #expect(withoutDetector.sentences == ["I can't tell that from the picture."] && withoutDetector.basis.isEmpty)
        // A question about things needs the detector's findings: said, not guessed.
        #expect(throws: PictureQuestionError.self) {
            try Self.answers.get().answer(.count(target("bus", "buses")), about: RGBImage(width: 8, height: 8, filledWith: (0, 0, 0)), context: .pixelsOnly)
        }
    }
}
