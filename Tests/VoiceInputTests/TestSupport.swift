import Commands
import Foundation
@testable import VoiceInput

/// The default detector's classes (COCO, in class-index order), written out here so the tests
/// do not depend on a model being installed.
let cocoNames = [
    "person", "bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat", "traffic light",
    "fire hydrant", "stop sign", "parking meter", "bench", "bird", "cat", "dog", "horse", "sheep", "cow",
    "elephant", "bear", "zebra", "giraffe", "backpack", "umbrella", "handbag", "tie", "suitcase", "frisbee",
    "skis", "snowboard", "sports ball", "kite", "baseball bat", "baseball glove", "skateboard", "surfboard",
    "tennis racket", "bottle", "wine glass", "cup", "fork", "knife", "spoon", "bowl", "banana", "apple",
    "sandwich", "orange", "broccoli", "carrot", "hot dog", "pizza", "donut", "cake", "chair", "couch",
    "potted plant", "bed", "dining table", "toilet", "tv", "laptop", "mouse", "remote", "keyboard",
    "cell phone", "microwave", "oven", "toaster", "sink", "refrigerator", "book", "clock", "vase",
    "scissors", "teddy bear", "hair drier", "toothbrush",
]

let englishVocabulary = VoiceCommandVocabulary(language: try! CommandLanguage(language: "en", categories: cocoNames))

/// A fresh folder under the system's temporary folder, removed by `cleanUp`.
func temporaryFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("voice-tests-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

let testData = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data")

/// pocketsphinx-testdata's raw files: 16 kHz mono little-endian 16-bit, no header.
func rawSamples(_ name: String) throws -> [Int16] {
    let data = try Data(contentsOf: testData.appendingPathComponent(name))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
}
