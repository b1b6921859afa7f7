import Foundation
import TestSupport
import Media
import Testing
@testable import Prescription

/// Runs the built `assist` in `folder`, with its data and model cache there and no passphrase
/// in the environment (each command must take it from its file), reading nothing from the terminal.
private func assist(_ arguments: [String], in folder: URL) throws -> AssistBinary.Output {
    try AssistBinary.run(arguments, environment: ["XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                                                  "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path],
                         unset: ["ASSIST_RX_PASSPHRASE", "ASSIST_RX_KEY_PASSPHRASE"], currentDirectory: folder, input: .nothing)
}

@Suite("assist rx, as an audiologist and a patient run it", .serialized)
struct RxCommandTests {
    // Each command derives a key with the standard scrypt cost (128 MiB), seconds in a debug
    // build, so this walks the essential path only; the library tests cover every refusal.
    @Test("keygen, create, trust, import from the PNG; an altered prescription is refused with its reason")
    func walkthrough() throws {
        let folder = try TemporaryFolder.make("rx-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("clinic passphrase\n".utf8).write(to: folder.appendingPathComponent("key-pass"))
        try Data("4821 tulip\n".utf8).write(to: folder.appendingPathComponent("pin"))
        try Data("frequency,left,right\n250,20,25\n500,30,30\n1000,40,45\n2000,55,60\n4000,70,70\n".utf8)
            .write(to: folder.appendingPathComponent("audiogram.csv"))

        let keygen = try assist(["rx", "keygen", "--name", "Dr. Ana Ruiz", "--id", "AUD-12345", "--output", "ruiz",
                                 "--passphrase-file", "key-pass"], in: folder)
        #expect(keygen.status == 0, "\(keygen.standardError)")
        let fingerprint = try #require(keygen.standardOutput.firstMatch(of: /Fingerprint: ([0-9A-F-]{19})/)?.1)

        let create = try assist(["rx", "create", "--key", "ruiz.key", "--passphrase-file", "key-pass", "--patient", "Margarethe Quellenhof",
                                 "--audiogram", "audiogram.csv", "--rule", "nal-r", "--trial-days", "14", "--output", "rx"], in: folder)
        #expect(create.status == 0, "\(create.standardError)")
        #expect(create.standardOutput.contains("QR version") && create.standardOutput.contains("▀"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("rx.png").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("rx.svg").path))

        let trust = try assist(["rx", "trust", "ruiz.pub", "--yes", "--passphrase-file", "pin"], in: folder)
        #expect(trust.status == 0 && trust.standardOutput.contains(String(fingerprint)), "\(trust.standardError)")

        let imported = try assist(["rx", "import", "rx.png", "--passphrase-file", "pin"], in: folder)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("fitting for Margarethe Quellenhof by Dr. Ana Ruiz, issued"))
        #expect(imported.standardOutput.contains("trial until") && imported.standardOutput.contains("now the prescription in use"))

        // The same prescription with one character of its text changed.
        let text = try QRCodeReader.text(in: try ImageFile(folder.appendingPathComponent("rx.png")).decode())
        var payload = try PayloadCoding.payload(fromText: text)
        payload[payload.range(of: Data("Quellenhof".utf8))!.lowerBound] ^= 0x02
        try Data(PayloadCoding.text(fromPayload: payload).utf8).write(to: folder.appendingPathComponent("altered.txt"))
        let altered = try assist(["rx", "import", "--text-file", "altered.txt", "--passphrase-file", "pin"], in: folder)
        #expect(altered.status == 1)
        #expect(altered.standardError.contains("its signature does not match its contents"))
    }
}
