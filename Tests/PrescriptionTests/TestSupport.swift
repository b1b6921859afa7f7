import Foundation
import Hearing
@testable import Prescription

/// scrypt at N = 2^10: cheap enough for tests, the same code path as the standard cost.
let cheapCost = ScryptCost(log2Rounds: 10, blockSize: 8, parallelism: 1)

let clinic = PrescriptionDocument.Audiologist(name: "Dr. Ana Ruiz", identifier: "AUD-12345")
let patientName = "Margarethe Quellenhof"
/// 2026-11-01 09:30:00 UTC.
let issueDate = Date(timeIntervalSince1970: 1_793_525_400)

func sampleAudiogram() throws -> Audiogram {
    Audiogram(
        left: try EarAudiogram(ear: .left, thresholdsHL: [250: 20, 500: 30, 1000: 40, 2000: 55, 4000: 70, 8000: 75]),
        right: try EarAudiogram(ear: .right, thresholdsHL: [250: 25, 500: 30, 1000: 45, 2000: 60, 4000: 70],
                                uncomfortableLevelsHL: [1000: 100, 4000: 105]))
}

func sampleDocument(kind: PrescriptionDocument.Kind = .fitting, audiologist: PrescriptionDocument.Audiologist = clinic,
                    issued: Date = issueDate, expires: Date? = nil) throws -> PrescriptionDocument {
    try PrescriptionDocument(kind: kind, patient: .init(name: patientName, reference: "P-0042", birthYear: 1948),
                             audiologist: audiologist, issued: issued, expires: expires, audiogram: try sampleAudiogram(),
                             rule: .nalR, maximumOutputSPL: 105, programs: [.quiet, .conversationInNoise, .tv])
}

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = issueDate.addingTimeInterval(3600)) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(seconds: TimeInterval) { lock.withLock { current = current.addingTimeInterval(seconds) } }

    var function: @Sendable () -> Date { { [self] in self.now } }
}

/// A fresh folder under the temporary directory, removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("rx-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Every byte of every file under `folder`.
func allFileBytes(under folder: URL) -> [(path: String, bytes: Data)] {
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    var result: [(String, Data)] = []
    while let url = enumerator?.nextObject() as? URL {
        if let data = FileManager.default.contents(atPath: url.path), (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            result.append((url.path, data))
        }
    }
    return result
}
