import Foundation
import Media
import Testing
@testable import Prescription

/// Runs the built `assist` binary (built with the tests by scripts/test), as a user would.
private func assist(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String, error: String) {
    let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let process = Process()
    process.executableURL = runner.deletingLastPathComponent().appendingPathComponent("assist")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
    environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
    environment["ASSIST_RX_PASSPHRASE"] = nil
    environment["ASSIST_RX_KEY_PASSPHRASE"] = nil
    process.environment = environment
    let errorFile = folder.appendingPathComponent("stderr-\(UUID())")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let out = Pipe()
    process.standardOutput = out
    process.standardError = try FileHandle(forWritingTo: errorFile)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self),
            String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self))
}

@Suite("assist rx, as an audiologist and a patient run it", .serialized)
struct RxCommandTests {
    // Each command derives a key with the standard scrypt cost (128 MiB), seconds in a debug
    // build, so this walks the essential path only; the library tests cover every refusal.
    @Test("keygen, create, trust, import from the PNG; an altered prescription is refused with its reason")
    func walkthrough() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("clinic passphrase\n".utf8).write(to: folder.appendingPathComponent("key-pass"))
        try Data("4821 tulip\n".utf8).write(to: folder.appendingPathComponent("pin"))
        try Data("frequency,left,right\n250,20,25\n500,30,30\n1000,40,45\n2000,55,60\n4000,70,70\n".utf8)
            .write(to: folder.appendingPathComponent("audiogram.csv"))

        let keygen = try assist(["rx", "keygen", "--name", "Dr. Ana Ruiz", "--id", "AUD-12345", "--output", "ruiz",
                                 "--passphrase-file", "key-pass"], in: folder)
        #expect(keygen.status == 0, "\(keygen.error)")
        let fingerprint = try #require(keygen.output.firstMatch(of: /Fingerprint: ([0-9A-F-]{19})/)?.1)

        let create = try assist(["rx", "create", "--key", "ruiz.key", "--passphrase-file", "key-pass", "--patient", "Margarethe Quellenhof",
                                 "--audiogram", "audiogram.csv", "--rule", "nal-r", "--trial-days", "14", "--output", "rx"], in: folder)
        #expect(create.status == 0, "\(create.error)")
        #expect(create.output.contains("QR version") && create.output.contains("▀"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("rx.png").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("rx.svg").path))

        let trust = try assist(["rx", "trust", "ruiz.pub", "--yes", "--passphrase-file", "pin"], in: folder)
        #expect(trust.status == 0 && trust.output.contains(String(fingerprint)), "\(trust.error)")

        let imported = try assist(["rx", "import", "rx.png", "--passphrase-file", "pin"], in: folder)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.output.contains("fitting for Margarethe Quellenhof by Dr. Ana Ruiz, issued"))
        #expect(imported.output.contains("trial until") && imported.output.contains("now the prescription in use"))

        // The same prescription with one character of its text changed.
        let text = try QRCodeReader.text(in: try ImageFile(folder.appendingPathComponent("rx.png")).decode())
        var payload = try PayloadCoding.payload(fromText: text)
        payload[payload.range(of: Data("Quellenhof".utf8))!.lowerBound] ^= 0x02
        try Data(PayloadCoding.text(fromPayload: payload).utf8).write(to: folder.appendingPathComponent("altered.txt"))
        let altered = try assist(["rx", "import", "--text-file", "altered.txt", "--passphrase-file", "pin"], in: folder)
        #expect(altered.status == 1)
        #expect(altered.error.contains("its signature does not match its contents"))
    }
}
