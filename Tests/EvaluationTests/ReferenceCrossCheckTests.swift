import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Evaluation
import Perception

/// Compares the Swift accumulator with `Reference/ultralytics_map.py`, a NumPy re-implementation
/// of Ultralytics' matching and `ap_per_class`, on seeded random scenes.
@Suite("Agreement with a NumPy re-implementation of Ultralytics' validation")
struct ReferenceCrossCheckTests {
    struct ReferenceInput: Encodable {
        struct Image: Encodable {
            /// [x0, y0, x1, y1, confidence, class]; Float32 values widened to Double so the text
            /// round-trips to the same Float32 in NumPy.
            var detections: [[Double]]
            /// [class, x0, y0, x1, y1]
            var groundTruth: [[Double]]
        }
        var images: [Image]
    }

    struct ReferenceResult: Decodable {
        var map50_95: Double
        var map50: Double
        var mp: Double
        var mr: Double
        var classes: [Int]
        var ap50: [Double]
        var ap: [Double]
        var images: Int
        var instances: Int
    }

    struct Scene {
        var detections: [Detection]
        var groundTruth: [GroundTruthObject]
    }

    /// Random scenes: objects (some in overlapping pairs), detections jittered from them with
    /// IoUs across the thresholds, missed objects, repeated and wrong-class detections, and false
    /// positives; some images with no objects and some with no detections. Confidences are
    /// distinct, so NumPy's unstable sort cannot reorder ties.
    /// With `tiedConfidences`, confidences are multiples of 0.05 instead, so many are equal.
    static func randomScenes(seed: UInt64, count: Int, classCount: Int, tiedConfidences: Bool = false) -> [Scene] {
        var random = SplitMix64(seed: seed)
        var usedConfidences: Set<Float> = []
        func confidence() -> Float {
            if tiedConfidences { return Float(Int.random(in: 1...20, using: &random)) * 0.05 }
            while true {
                let value = Float.random(in: 0.001...1, using: &random)
                if usedConfidences.insert(value).inserted { return value }
            }
        }
        func randomBox(width: Float, height: Float) -> BoundingBox {
            let w = Float.random(in: 8...(width / 2), using: &random), h = Float.random(in: 8...(height / 2), using: &random)
            let x = Float.random(in: 0...(width - w), using: &random), y = Float.random(in: 0...(height - h), using: &random)
            return BoundingBox(x0: x, y0: y, x1: x + w, y1: y + h)
        }
        func jittered(_ box: BoundingBox, by amount: Float, width: Float, height: Float) -> BoundingBox {
            func shift(_ size: Float) -> Float { Float.random(in: -amount...amount, using: &random) * size }
            let w = box.x1 - box.x0, h = box.y1 - box.y0
            let moved = BoundingBox(x0: box.x0 + shift(w), y0: box.y0 + shift(h), x1: box.x1 + shift(w), y1: box.y1 + shift(h))
            return BoundingBox(x0: min(moved.x0, moved.x1), y0: min(moved.y0, moved.y1),
                               x1: max(moved.x0, moved.x1), y1: max(moved.y0, moved.y1))
                .clipped(width: Int(width), height: Int(height))
        }

        return (0..<count).map { _ in
            let width = Float(Int.random(in: 320...1280, using: &random))
            let height = Float(Int.random(in: 240...960, using: &random))
            var groundTruth: [GroundTruthObject] = []
            let objectCount = Int.random(in: 0...8, using: &random)
            for _ in 0..<objectCount {
                let classIndex = Int.random(in: 0..<classCount, using: &random)
                let box = randomBox(width: width, height: height)
                groundTruth.append(GroundTruthObject(classIndex: classIndex, box: box))
                if Double.random(in: 0..<1, using: &random) < 0.3 {
                    // A neighbour of the same class, so detections have two candidates.
                    groundTruth.append(GroundTruthObject(classIndex: classIndex, box: jittered(box, by: 0.3, width: width, height: height)))
                }
            }
            var detections: [Detection] = []
            let detectorIsBlind = Double.random(in: 0..<1, using: &random) < 0.08
            if !detectorIsBlind {
                for object in groundTruth where Double.random(in: 0..<1, using: &random) < 0.85 {
                    let repeats = Double.random(in: 0..<1, using: &random) < 0.15 ? 2 : 1
                    for _ in 0..<repeats {
                        let wrongClass = Double.random(in: 0..<1, using: &random) < 0.1
                        let classIndex = wrongClass ? (object.classIndex + 1) % classCount : object.classIndex
                        let amount = Float.random(in: 0...0.25, using: &random)
                        detections.append(Detection(classIndex: classIndex, label: "c\(classIndex)", confidence: confidence(),
                                                    box: jittered(object.box, by: amount, width: width, height: height)))
                    }
                }
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    let classIndex = Int.random(in: 0..<classCount, using: &random)
                    detections.append(Detection(classIndex: classIndex, label: "c\(classIndex)", confidence: confidence(),
                                                box: randomBox(width: width, height: height)))
                }
            }
            detections.shuffle(using: &random)
            return Scene(detections: detections, groundTruth: groundTruth)
        }
    }

    static func reference(for scenes: [Scene], stableTies: Bool = false) throws -> ReferenceResult {
        let input = ReferenceInput(images: scenes.map { scene in
            ReferenceInput.Image(
                detections: scene.detections.map { [Double($0.box.x0), Double($0.box.y0), Double($0.box.x1), Double($0.box.y1),
                                                     Double($0.confidence), Double($0.classIndex)] },
                groundTruth: scene.groundTruth.map { [Double($0.classIndex), Double($0.box.x0), Double($0.box.y0),
                                                      Double($0.box.x1), Double($0.box.y1)] })
        })
        let folder = try TemporaryFolder.make("evaluation-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputFile = folder.appendingPathComponent("scenes.json")
        try JSONEncoder().encode(input).write(to: inputFile)
        let output = try runPython([referenceScript.path, inputFile.path] + (stableTies ? ["--stable-ties"] : []))
        return try JSONDecoder().decode(ReferenceResult.self, from: output)
    }

    static func swiftAccuracy(for scenes: [Scene]) -> DetectionAccuracy {
        var map = MeanAveragePrecision()
        for scene in scenes { map.add(detections: scene.detections, groundTruth: scene.groundTruth) }
        return map.accuracy()
    }

    @Test("the NumPy reference reproduces the hand-computed APs 0.995, 0.75 and 0.4975")
    func referenceSelfTest() throws {
        let output = try runPython([referenceScript.path, "--self-test"])
        #expect(String(decoding: output, as: UTF8.self).contains("\"self_test_failures\": 0"))
    }

    @Test("the hand examples give the same numbers in Swift and in the NumPy reference")
    func handExamplesAgree() throws {
        let scenes = [
            Scene(detections: [detection(3, 0.8, 10, 10, 50, 90), detection(3, 0.9, 200, 200, 240, 280)],
                  groundTruth: [object(3, 10, 10, 50, 90), object(3, 300, 10, 350, 90)]),
            Scene(detections: [detection(0, 0.7, 0, 0, 100, 72)], groundTruth: [object(0, 0, 0, 100, 100)]),
            Scene(detections: [detection(0, 0.9, 10, 0, 110, 100), detection(0, 0.85, 0, 0, 100, 100)],
                  groundTruth: [object(0, 0, 0, 100, 100), object(0, 20, 0, 120, 100)]),
        ]
        let reference = try Self.reference(for: scenes)
        let swift = Self.swiftAccuracy(for: scenes)
        #expect(swift.meanAveragePrecision50to95 == reference.map50_95)
        #expect(swift.meanAveragePrecision50 == reference.map50)
        #expect(swift.classes.map(\.averagePrecision50) == reference.ap50)
    }

    @Test("50 random images: mAP50-95, mAP50, per-class AP, precision and recall equal the NumPy reference",
          arguments: [UInt64(20_251_122), 7, 99])
    func randomScenesAgree(seed: UInt64) throws {
        let scenes = Self.randomScenes(seed: seed, count: 50, classCount: 6)
        let reference = try Self.reference(for: scenes)
        let swift = Self.swiftAccuracy(for: scenes)

        // The scenes must exercise what is being compared.
        #expect(swift.meanAveragePrecision50to95 > 0.1 && swift.meanAveragePrecision50to95 < 0.9)
        #expect(swift.meanAveragePrecision50 > swift.meanAveragePrecision50to95)

        #expect(swift.imageCount == reference.images)
        #expect(swift.instanceCount == reference.instances)
        #expect(swift.classes.map(\.classIndex) == reference.classes)
        #expect(abs(swift.meanAveragePrecision50to95 - reference.map50_95) < 1e-6)
        #expect(abs(swift.meanAveragePrecision50 - reference.map50) < 1e-6)
        for (ours, theirs) in zip(swift.classes.map(\.averagePrecision50to95), reference.ap) { #expect(abs(ours - theirs) < 1e-6) }
        for (ours, theirs) in zip(swift.classes.map(\.averagePrecision50), reference.ap50) { #expect(abs(ours - theirs) < 1e-6) }
        #expect(abs(swift.precision - reference.mp) < 1e-6)
        #expect(abs(swift.recall - reference.mr) < 1e-6)
        // NumPy's own order of operations is reproduced, so the agreement is in fact exact.
        #expect(swift.meanAveragePrecision50to95 == reference.map50_95)
        #expect(swift.meanAveragePrecision50 == reference.map50)
    }

    @Test("with many equal confidences the results equal the reference that sorts ties stably")
    func tiedConfidencesAgree() throws {
        let scenes = Self.randomScenes(seed: 2024, count: 50, classCount: 4, tiedConfidences: true)
        let confidences = scenes.flatMap { $0.detections.map(\.confidence) }
        #expect(Set(confidences).count <= 20 && confidences.count > 100)
        let reference = try Self.reference(for: scenes, stableTies: true)
        let swift = Self.swiftAccuracy(for: scenes)
        #expect(swift.meanAveragePrecision50to95 == reference.map50_95)
        #expect(swift.meanAveragePrecision50 == reference.map50)
        #expect(swift.classes.map(\.averagePrecision50to95) == reference.ap)
    }
}
