import Perception
import Speech
@testable import Guidance
@testable import LiveGuidance

/// COCO class indices of the labels the tests use (the tracker only pairs the same class).
private let classIndices = ["person": 0, "bicycle": 1, "car": 2, "bus": 5, "bench": 13, "dog": 16, "backpack": 24,
                            "bottle": 39, "cup": 41, "chair": 56, "couch": 57, "potted plant": 58, "dining table": 60,
                            "tv": 62, "laptop": 63]

/// An object as the locator would hand it on: `degrees` right of ahead, `meters` away. Its box sits
/// where the angle puts it in a 640-pixel-wide picture and grows as it comes closer, the way a
/// real box does, so a real `ObjectTracker` follows it from frame to frame.
func sighting(_ label: String, meters: Double?, degrees: Double = 0, confidence: Float = 0.9) -> LocatedObject {
    let size = Float(min(400, 200 / (meters ?? 4)))
    let box = BoundingBox(centerX: 320 + Float(degrees) * 9, centerY: 240, width: size, height: size * 1.5)
    return LocatedObject(
        detection: Detection(classIndex: classIndices[label] ?? 79, label: label, confidence: confidence, box: box),
        direction: Direction(angleDegrees: degrees, elevationDegrees: 0),
        distance: meters.map { DistanceEstimate(meters: $0, method: .combined, relativeError: 0.1) } ?? .unknown)
}

/// The analyzer's report for a frame: objects closest first; quality judged only when nothing was found.
func report(_ objects: [LocatedObject], quality: ImageQualityVerdict? = nil) -> SceneReport {
    let ordered = objects.sorted { ($0.distance.meters ?? .infinity) < ($1.distance.meters ?? .infinity) }
    return SceneReport(source: "test", imageWidth: 640, imageHeight: 480,
                       quality: objects.isEmpty ? (quality ?? .ok) : nil, objects: ordered, sentences: [],
                       announced: ordered, timings: StageTimings(), depthSource: "geometry")
}

/// A session's loop without camera or audio: a real tracker and the policy, fed frames 0.2 s apart (5 fps).
struct PolicyHarness {
    var tracker = ObjectTracker()
    var policy: GuidancePolicy
    var timeSeconds = 0.0
    let frameSeconds: Double

    init(mode: GuidanceMode, settings: GuidanceSettings = GuidanceSettings(), frameSeconds: Double = 0.2) throws {
        policy = GuidancePolicy(mode: mode, settings: settings, describer: try SceneDescriber(language: "en"))
        self.frameSeconds = frameSeconds
    }

    /// One analysed frame; returns what the policy says about it.
    mutating func frame(_ objects: [LocatedObject], quality: ImageQualityVerdict? = nil,
                        corridor: CorridorReading? = nil) -> [Announcement] {
        let tracking = tracker.update(with: objects, atSeconds: timeSeconds)
        let observation = SceneObservation(timeSeconds: timeSeconds, report: report(objects, quality: quality),
                                           tracking: tracking, corridor: corridor)
        timeSeconds += frameSeconds
        return policy.announcements(for: observation)
    }

    /// The same objects for `count` frames; everything said, in order.
    mutating func frames(_ count: Int, _ objects: [LocatedObject], quality: ImageQualityVerdict? = nil,
                         corridor: CorridorReading? = nil) -> [Announcement] {
        (0..<count).flatMap { _ in frame(objects, quality: quality, corridor: corridor) }
    }

    mutating func request(_ request: PolicyRequest) -> [Announcement] {
        policy.handle(request, atSeconds: timeSeconds)
    }

    mutating func setMode(_ mode: GuidanceMode) -> [Announcement] {
        policy.setMode(mode, atSeconds: timeSeconds)
    }
}

extension Array where Element == Announcement {
    /// Every phrase, in the order it would be heard.
    var phrases: [String] { flatMap(\.utterance.phrases) }
    var text: String { phrases.joined(separator: " ") }
}

func target(_ label: String, aheadOnly: Bool = false) -> FindTarget {
    FindTarget(categories: [label], spokenName: label, aheadOnly: aheadOnly)
}
