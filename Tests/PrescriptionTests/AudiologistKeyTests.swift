import Foundation
import TestSupport
import Testing
@testable import Prescription

@Suite("Audiologist keys")
struct AudiologistKeyTests {
    @Test("the private key file opens only with its passphrase and holds no key bytes in clear")
    func encryptedPrivateKey() throws {
        let folder = try TemporaryFolder.make("rx-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try AudiologistSigningKey.generate(for: clinic)
        let file = folder.appendingPathComponent("ruiz.key")
        try key.encryptedFileData(passphrase: "clinic passphrase", cost: cheapCost).write(to: file)
        #expect(throws: PrescriptionError.wrongKeyPassphrase) { try AudiologistSigningKey.load(from: file, passphrase: "clinic passphrasf") }
        let loaded = try AudiologistSigningKey.load(from: file, passphrase: "clinic passphrase")
        #expect(loaded.publicKey == key.publicKey)
        #expect(loaded.audiologist == clinic)
        let bytes = try Data(contentsOf: file)
        #expect(bytes.range(of: Data("Ruiz".utf8)) == nil)
        #expect(throws: PrescriptionError.passphraseTooShort(minimumCharacters: 8)) { try key.encryptedFileData(passphrase: "short", cost: cheapCost) }
        // A file asking for a ruinous scrypt cost is refused before any work.
        var hostile = bytes
        hostile[8] = 30
        try hostile.write(to: file)
        #expect(throws: PrescriptionError.unreasonableKeyDerivation) { try AudiologistSigningKey.load(from: file, passphrase: "clinic passphrase") }
    }

    @Test("the public key file round-trips, and its fingerprint is 16 hex digits in four groups")
    func publicKeyFile() throws {
        let folder = try TemporaryFolder.make("rx-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try AudiologistSigningKey.generate(for: clinic).publicKey
        let file = folder.appendingPathComponent("ruiz.pub")
        try key.fileData().write(to: file)
        #expect(try AudiologistPublicKey.load(from: file) == key)
        #expect(key.fingerprint.range(of: #"^[0-9A-F]{4}(-[0-9A-F]{4}){3}$"#, options: .regularExpression) != nil)
        try Data("{\"format\":\"something else\"}".utf8).write(to: file)
        #expect(throws: PrescriptionError.self) { try AudiologistPublicKey.load(from: file) }
    }
}
