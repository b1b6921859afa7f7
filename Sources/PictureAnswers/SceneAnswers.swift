import AssistCore
import ColourAndLight
import Foundation
import Guidance
import LiveGuidance
import Perception
import Reading

/// An answer to a question about the things in view, and what it was based on (for `--json`):
/// the objects it counted, placed, measured or read.
public struct SceneAnswer: Sendable, Equatable {
    public var sentences: [String]
    public var basis: [LocatedObject]

    public init(sentences: [String], basis: [LocatedObject]) {
        self.sentences = sentences
        self.basis = basis
    }
}

/// Answers `SceneQuestion`s from what was measured in one frame: the detector's objects with their
/// directions and distances, the colours inside one object's box, the text read in or near it.
/// Only what was found is named: a question about something not found says it is not in view, and
/// a question nothing here measures gets `cannotTell`, never a guess or a nearby question's answer.
public struct SceneAnswerer: Sendable {
    /// The sentences, from `Templates/<language>.json` (the `scene` part).
    public struct Phrases: Sendable, Equatable, Decodable {
        public var countNone: String
        public var countOne: String
        public var countMany: String
        public var yes: String
        public var notInView: String
        public var colourOnly: String
        public var colourWithOther: String
        public var textSays: String
        public var noText: String
        public var nothingInView: String
        public var nothingOnLeft: String
        public var nothingOnRight: String
        /// "the dog on the left" when no dog is there: `{side}` is `leftSide` or `rightSide`.
        public var notOnSide: String
        public var countNoneOnSide: String
        public var leftSide: String
        public var rightSide: String
        public var summary: String
        public var listJoiner: String
        public var listLastJoiner: String
        public var cannotTell: String
        public var needsDetector: String
    }

    public let phrases: Phrases
    public let colourPhrases: ColourAndLightPhrases
    /// Text is read this much of the box's size beyond each side: a sign's words run past the pole.
    public var textMargin: Float = 0.15

    public init(phrases: Phrases, colourPhrases: ColourAndLightPhrases) {
        self.phrases = phrases
        self.colourPhrases = colourPhrases
    }

    /// `objects`: the frame's findings, closest first; `describer` words them (the session's units
    /// and names); `read` reads the text in a picture (Tesseract, thorough).
    public func answer(_ question: SceneQuestion, image: RGBImage, objects: [LocatedObject], describer: SceneDescriber,
                       read: (RGBImage) throws(PictureQuestionError) -> TextReading) throws(PictureQuestionError) -> SceneAnswer {
        // Every object found is said, whatever its confidence: what is said agrees with what was counted.
        func place(_ found: [LocatedObject]) -> [String] { describer.sentences(forFaces: found) }
        func matching(_ target: SceneTarget) -> [LocatedObject] {
            let found = describer.orderedEveryConfidence(objects.filter { target.categories.contains($0.label) })
            guard let side = target.side else { return found }
            return found.filter { Self.sides(side).contains($0.direction.horizontal) }
        }
        // "How far is the person on the left": of several, the one furthest that way (the left one
        // of two people ahead); a lone one only when it is on that side.
        func theOne(_ target: SceneTarget) -> LocatedObject? {
            guard let side = target.side else { return matching(target).first }
            let found = objects.filter { target.categories.contains($0.label) }
            guard found.count > 1 else { return matching(target).first }
            return side == .left ? found.min { $0.direction.angleDegrees < $1.direction.angleDegrees }
                                 : found.max { $0.direction.angleDegrees < $1.direction.angleDegrees }
        }
        func notFound(_ target: SceneTarget, counting: Bool = false) -> String {
            guard let side = target.side else { return fill(counting ? phrases.countNone : phrases.notInView, target: target) }
            return fill(counting ? phrases.countNoneOnSide : phrases.notOnSide, target: target,
                        ["side": side == .left ? phrases.leftSide : phrases.rightSide])
        }
        switch question {
        case .cannotTell:
            return SceneAnswer(sentences: [phrases.cannotTell], basis: [])
        case .count(let target):
            let found = matching(target)
            let sentence: String
            switch found.count {
            case 0: sentence = notFound(target, counting: true)
            case 1: sentence = fill(phrases.countOne, target: target)
            default: sentence = fill(phrases.countMany, target: target, ["count": String(found.count)])
            }
            return SceneAnswer(sentences: [sentence] + (found.isEmpty ? [] : place(found)), basis: found)
        case .isThere(let target), .whereIs(let target):
            let isThere = question == .isThere(target)
            // "Where is the bus": each one; "where is the bus on the left": that one.
            let found = isThere || target.side == nil ? matching(target) : theOne(target).map { [$0] } ?? []
            guard !found.isEmpty else { return SceneAnswer(sentences: [notFound(target)], basis: []) }
            let lead = isThere ? [phrases.yes] : []
            return SceneAnswer(sentences: lead + place(found), basis: found)
        case .howFar(let target):
            guard let nearest = theOne(target) else { return SceneAnswer(sentences: [notFound(target)], basis: []) }
            return SceneAnswer(sentences: place([nearest]), basis: [nearest])
        case .colour(let target):
            guard let object = theOne(target) else { return SceneAnswer(sentences: [notFound(target)], basis: []) }
            let box = object.detection.box.clipped(width: image.width, height: image.height)
            let inFront = objects.filter { $0 != object && Self.stands(in: $0, frontOf: object) }
                .map { $0.detection.box.clipped(width: image.width, height: image.height) }
                .map { (x0: Int($0.x0), y0: Int($0.y0), x1: Int($0.x1.rounded(.up)), y1: Int($0.y1.rounded(.up))) }
            let reading = ColourNamer().read(image, objectX0: Int(box.x0), y0: Int(box.y0), x1: Int(box.x1.rounded(.up)), y1: Int(box.y1.rounded(.up)),
                                             inFront: inFront)
            let main = colourPhrases.name(reading.centre)
            var sentence = fill(phrases.colourOnly, target: target, ["colour": main])
            if let other = reading.mainColours.first(where: { $0.colour != reading.centre }) {
                sentence = fill(phrases.colourWithOther, target: target,
                                ["colour": main, "other": colourPhrases.name(other.colour)])
            }
            return SceneAnswer(sentences: [sentence], basis: [object])
        case .text(let target):
            guard let object = theOne(target) else { return SceneAnswer(sentences: [notFound(target)], basis: []) }
            let reading = try read(Self.crop(image, around: object.detection.box, margin: textMargin))
            guard !reading.isEmpty else { return SceneAnswer(sentences: [fill(phrases.noText, target: target)], basis: [object]) }
            let text = reading.lines.map(\.text).joined(separator: ". ")
            return SceneAnswer(sentences: [fill(phrases.textSays, target: target, ["text": text])], basis: [object])
        case .closest:
            guard let nearest = describer.orderedEveryConfidence(objects).first else {
                return SceneAnswer(sentences: [phrases.nothingInView], basis: [])
            }
            return SceneAnswer(sentences: place([nearest]), basis: [nearest])
        case .onSide(let left):
            let found = describer.orderedEveryConfidence(objects.filter { Self.sides(left ? .left : .right).contains($0.direction.horizontal) })
            guard !found.isEmpty else { return SceneAnswer(sentences: [left ? phrases.nothingOnLeft : phrases.nothingOnRight], basis: []) }
            return SceneAnswer(sentences: place(found), basis: found)
        case .describe:
            // One short sentence (how many of each thing, the most numerous first), then each thing
            // where it is: the queue says the first part and the rest on "more".
            let ordered = describer.orderedEveryConfidence(objects)
            guard !ordered.isEmpty else { return SceneAnswer(sentences: [phrases.nothingInView], basis: []) }
            var counts: [(label: String, count: Int)] = []
            for object in ordered {
                if let i = counts.firstIndex(where: { $0.label == object.label }) { counts[i].count += 1 } else { counts.append((object.label, 1)) }
            }
            let named = counts.enumerated().sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }
                .map { "\($0.element.count) \(describer.phrasebook.objectName(label: $0.element.label, count: $0.element.count))" }
            let list = named.count == 1 ? named[0]
                : named.dropLast().joined(separator: phrases.listJoiner) + phrases.listLastJoiner + named[named.count - 1]
            return SceneAnswer(sentences: [SentenceFiles.fill(phrases.summary, ["list": list])] + place(ordered), basis: ordered)
        }
    }

    /// In one pass, so a text read off an object that contains braces is said as it is.
    private func fill(_ template: String, target: SceneTarget, _ values: [String: String] = [:]) -> String {
        SentenceFiles.fill(template, values.merging(["singular": target.singular, "plural": target.plural]) { value, _ in value })
    }

    /// The directions that are on `side` of the view ("ahead" is on neither).
    static func sides(_ side: SideOfView) -> Set<HorizontalDirection> {
        side == .left ? [.left, .slightlyLeft] : [.right, .slightlyRight]
    }

    /// Whether `other` hides part of `object`: their boxes overlap and `other` is nearer, by the
    /// measured distances, or, where one is unknown, by standing lower in the view (on the ground
    /// in front of it).
    static func stands(in other: LocatedObject, frontOf object: LocatedObject) -> Bool {
        guard other.detection.box.intersectionOverUnion(with: object.detection.box) > 0 else { return false }
        if let near = other.distance.meters, let far = object.distance.meters { return near < far }
        return other.detection.box.y1 > object.detection.box.y1
    }

    /// The part of `image` inside `box`, widened by `margin` of its size on each side.
    static func crop(_ image: RGBImage, around box: BoundingBox, margin: Float) -> RGBImage {
        let grown = BoundingBox(x0: box.x0 - margin * box.width, y0: box.y0 - margin * box.height,
                                x1: box.x1 + margin * box.width, y1: box.y1 + margin * box.height).clipped(width: image.width, height: image.height)
        let x0 = Int(grown.x0), y0 = Int(grown.y0), x1 = max(x0, Int(grown.x1.rounded(.up))), y1 = max(y0, Int(grown.y1.rounded(.up)))
        var pixels: [UInt8] = []
        pixels.reserveCapacity((x1 - x0) * (y1 - y0) * 3)
        for y in y0..<y1 { pixels += image.pixels[((y * image.width + x0) * 3)..<((y * image.width + x1) * 3)] }
        return RGBImage(width: x1 - x0, height: y1 - y0, pixels: pixels)
    }
}

extension SceneDescriber {
    /// Every object, as the description orders them (closest first), whatever its confidence.
    func orderedEveryConfidence(_ objects: [LocatedObject]) -> [LocatedObject] {
        SceneDescriber(phrasebook: phrasebook, settings: settings.mentioningEveryConfidence).orderedForSpeech(objects)
    }
}
