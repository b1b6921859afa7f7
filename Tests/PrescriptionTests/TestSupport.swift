import Foundation
import TestSupport
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

/// An hour after the prescriptions were issued.
func clockAfterIssue() -> ManualClock { ManualClock(issueDate.addingTimeInterval(3600)) }

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
