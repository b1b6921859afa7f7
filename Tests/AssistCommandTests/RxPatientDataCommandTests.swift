import Foundation
import TestSupport
import Testing

/// Issue 17 §5 through the binary: another patient's prescription, a newer one, and erasure
/// that leaves nothing about the patient under the user's folders.
@Suite("assist rx: another patient, a newer prescription, erasing everything", .serialized)
struct RxPatientDataCommandTests {
    @Test("""
        another patient's prescription is refused naming both unless --yes; a newer one for the same patient waits \
        for rx use; after rx erase no byte of patient data is left under the user's folders
        """)
    func patientData() throws {
        let patient = try RxPatient()
        defer { patient.remove() }
        let scratch = try TemporaryFolder.make("rx-data")
        defer { try? FileManager.default.removeItem(at: scratch) }
        func file(_ name: String) -> String { scratch.appendingPathComponent(name).path }
        let clinicKey = ["ASSIST_RX_KEY_PASSPHRASE": RxClinic.keyPassphrase]
        for (name, person, reference) in [("other", "Hans Quellenhof", "P-0077"), ("newer", "Margarethe Quellenhof", "")] {
            let made = try AssistBinary.run(["rx", "create", "--key", patient.path("ruiz.key"), "--patient", person]
                                            + (reference.isEmpty ? [] : ["--patient-reference", reference])
                                            + ["--audiogram", patient.path("audiogram.csv"), "--rule", "nal-r", "--quiet",
                                               "--output", file(name)], environment: clinicKey)
            #expect(made.status == 0, "\(made.standardError)")
        }

        #expect(try patient.run(["rx", "trust", patient.path("ruiz.pub"), "--yes"]).status == 0)
        let first = try patient.run(["rx", "import", patient.path("fitting.png")])
        #expect(first.standardOutput.contains("now the prescription in use"), "\(first.standardError)")

        let refused = try patient.run(["rx", "import", file("other.png")])
        #expect(refused.status == 1)
        #expect(refused.standardError == "This prescription is for Hans Quellenhof (patient number P-0077), but this hearing aid's prescriptions are for Margarethe Quellenhof; nothing was imported (confirm with --yes to import it anyway).\n")
        let confirmed = try patient.run(["rx", "import", file("other.png"), "--yes"])
        #expect(confirmed.status == 0 && !confirmed.standardOutput.contains("now the prescription in use"), "\(confirmed.standardError)")

        let newer = try patient.run(["rx", "import", file("newer.png")])
        #expect(newer.status == 0, "\(newer.standardError)")
        #expect(newer.standardOutput.contains("It is newer than the prescription in use"))
        #expect(!newer.standardOutput.contains("now the prescription in use"))
        let listed = try patient.run(["rx", "list"]).standardOutput.split(separator: "\n")
        #expect(listed.filter { $0.hasPrefix("*") }.count == 1 && listed.first { $0.hasPrefix("*") }?.contains(first.standardOutput.split(separator: " ")[1].dropLast()) == true)

        // Heard through once; and a file an older version left in plain text.
        #expect(try patient.run(["hear", patient.path("soft-tone.wav"), "-o", file("aided.wav")]).status == 0)
        let data = URL(fileURLWithPath: patient.environment["XDG_DATA_HOME"]!)
        let legacy = data.appendingPathComponent("assistivekit/hearing/last-started-prescription.json")
        try FileManager.default.createDirectory(at: legacy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"patient":"Margarethe Quellenhof","left":{"thresholdsHL":{"2000":55}}}"#.utf8).write(to: legacy)

        // Every file under the user's data, config and runtime folders, byte by byte.
        let home = data.deletingLastPathComponent()
        let secrets = ["Quellenhof", "Margarethe", "P-0077", "AKRX1:", "thresholds", "Dr. Ana Ruiz"]
        func filesHoldingPatientData() -> [String] {
            let enumerator = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
            var found: [String] = []
            while let url = enumerator?.nextObject() as? URL {
                guard let bytes = FileManager.default.contents(atPath: url.path) else { continue }
                if let secret = secrets.first(where: { bytes.range(of: Data($0.utf8)) != nil }) { found.append("\(url.path): \(secret)") }
            }
            return found
        }
        // The search finds what is there: the old plain-text file (the store itself is sealed).
        #expect(filesHoldingPatientData().count == 1)
        let erased = try patient.run(["rx", "erase", "--yes"])
        #expect(erased.standardOutput == "All patient data was erased.\n", "\(erased.standardError)")
        #expect(filesHoldingPatientData() == [])
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
    }
}
