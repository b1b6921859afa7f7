import Crypto
import Foundation

/// An audiologist's public key as handed to patients (`assist rx trust FILE`): who it belongs
/// to and the Ed25519 key. Its fingerprint is what the patient reads aloud to the audiologist.
public struct AudiologistPublicKey: Sendable, Equatable, Codable {
    public let audiologist: PrescriptionDocument.Audiologist
    /// The raw 32-byte Ed25519 public key.
    public let rawKey: Data

    public init(audiologist: PrescriptionDocument.Audiologist, rawKey: Data) throws {
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: rawKey)) != nil else {
            throw PrescriptionError.invalidField(field: "public key", reason: "is not a 32-byte Ed25519 key")
        }
        self.audiologist = audiologist
        self.rawKey = rawKey
    }

    /// The first 8 bytes of SHA-256 of the key, also the key ID inside each prescription.
    public var keyID: Data { Self.keyID(of: rawKey) }

    /// The key ID in four groups of four hex digits ("3F2A-91BC-0D4E-77A1"): 64 bits, short
    /// enough to read aloud and compare, long enough that no one can make a key to match it.
    public var fingerprint: String { Self.fingerprint(ofKeyID: keyID) }

    static func keyID(of rawKey: Data) -> Data { Data(SHA256.hash(data: rawKey).prefix(PayloadCoding.keyIDLength)) }

    public static func fingerprint(ofKeyID keyID: Data) -> String {
        let hex = keyID.map { String(format: "%02X", $0) }.joined()
        return stride(from: 0, to: hex.count, by: 4).map { offset -> String in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return String(hex[start..<hex.index(start, offsetBy: 4)])
        }.joined(separator: "-")
    }

    var verifyingKey: Curve25519.Signing.PublicKey { try! Curve25519.Signing.PublicKey(rawRepresentation: rawKey) }

    // MARK: File

    private struct File: Codable {
        var format: String
        var version: Int
        var name: String
        var identifier: String
        var key: String
    }

    static let fileFormat = "assistivekit-audiologist-public-key"

    /// A small JSON file: it is public, and a person may want to read who it claims to be.
    public func fileData() -> Data {
        let file = File(format: Self.fileFormat, version: 1, name: audiologist.name, identifier: audiologist.identifier,
                        key: rawKey.base64EncodedString())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try! encoder.encode(file) + Data("\n".utf8)
    }

    public static func load(from url: URL) throws -> AudiologistPublicKey {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PrescriptionError.unreadableKeyFile(path: url.path, reason: "it does not exist or cannot be read")
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data), file.format == fileFormat, file.version == 1,
              let raw = Data(base64Encoded: file.key) else {
            throw PrescriptionError.unreadableKeyFile(path: url.path, reason: "it is not an AssistiveKit audiologist public key")
        }
        do {
            return try AudiologistPublicKey(audiologist: .init(name: file.name, identifier: file.identifier), rawKey: raw)
        } catch {
            throw PrescriptionError.unreadableKeyFile(path: url.path, reason: "its key is not a 32-byte Ed25519 key")
        }
    }
}

/// An audiologist's signing key: Ed25519 (RFC 8032) through swift-crypto. Ed25519 because its
/// signatures are 64 bytes (an RSA-2048 signature alone would be 256 bytes of QR code), it is
/// deterministic (no nonce to get wrong on a clinic PC) and it is fast to verify everywhere.
public struct AudiologistSigningKey: Sendable {
    public let audiologist: PrescriptionDocument.Audiologist
    private let rawPrivateKey: Data

    public static func generate(for audiologist: PrescriptionDocument.Audiologist) throws -> AudiologistSigningKey {
        // Validated like the document's fields, since they are copied into every prescription.
        _ = try PrescriptionDocument.validatedAudiologist(audiologist)
        return AudiologistSigningKey(audiologist: audiologist, rawPrivateKey: Curve25519.Signing.PrivateKey().rawRepresentation)
    }

    /// From a raw 32-byte Ed25519 private key (tests use fixed ones for reproducible codes).
    init(audiologist: PrescriptionDocument.Audiologist, rawPrivateKey: Data) {
        self.audiologist = audiologist
        self.rawPrivateKey = rawPrivateKey
    }

    private var privateKey: Curve25519.Signing.PrivateKey {
        try! Curve25519.Signing.PrivateKey(rawRepresentation: rawPrivateKey)
    }

    public var publicKey: AudiologistPublicKey {
        try! AudiologistPublicKey(audiologist: audiologist, rawKey: privateKey.publicKey.rawRepresentation)
    }

    /// Signs `document` (whose audiologist must be this key's) and returns the QR text.
    public func sign(_ document: PrescriptionDocument) throws -> String {
        guard document.audiologist == audiologist else {
            throw PrescriptionError.audiologistMismatch(payloadIdentifier: document.audiologist.identifier,
                                                        keyIdentifier: audiologist.identifier)
        }
        let signed = PayloadCoding.signedBytes(document, keyID: publicKey.keyID)
        let signature = try privateKey.signature(for: PayloadCoding.message(forSignedBytes: signed))
        return PayloadCoding.text(fromPayload: signed + signature)
    }

    // MARK: Encrypted file

    /// "AKRXKEY1" log2N r p salt(16) | AES-256-GCM(JSON of name, identifier, key) with the
    /// header as authenticated data, the key from scrypt(passphrase, salt).
    static let magic = Data("AKRXKEY1".utf8)
    public static let minimumPassphraseCharacters = 8

    private struct Secret: Codable {
        var name: String
        var identifier: String
        var key: Data
    }

    public func encryptedFileData(passphrase: String, cost: ScryptCost = .standard) throws -> Data {
        guard passphrase.count >= Self.minimumPassphraseCharacters else {
            throw PrescriptionError.passphraseTooShort(minimumCharacters: Self.minimumPassphraseCharacters)
        }
        let salt = Sealing.randomBytes(16)
        let header = Self.magic + Data([UInt8(cost.log2Rounds), UInt8(cost.blockSize), UInt8(cost.parallelism)]) + salt
        let key = try cost.deriveKey(passphrase: passphrase, salt: salt)
        let secret = try JSONEncoder().encode(Secret(name: audiologist.name, identifier: audiologist.identifier, key: rawPrivateKey))
        let sealed = try AES.GCM.seal(secret, using: key, authenticating: header).combined!
        return header + sealed
    }

    public static func load(from url: URL, passphrase: String) throws -> AudiologistSigningKey {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PrescriptionError.unreadableKeyFile(path: url.path, reason: "it does not exist or cannot be read")
        }
        let headerLength = magic.count + 3 + 16
        guard data.count > headerLength + 28, data.prefix(magic.count) == magic else {
            throw PrescriptionError.unreadableKeyFile(path: url.path, reason: "it is not an AssistiveKit signing key")
        }
        let bytes = [UInt8](data)
        let cost = ScryptCost(log2Rounds: Int(bytes[8]), blockSize: Int(bytes[9]), parallelism: Int(bytes[10]))
        let header = data.prefix(headerLength)
        let key = try cost.deriveKey(passphrase: passphrase, salt: Data(bytes[11..<27]))
        guard let box = try? AES.GCM.SealedBox(combined: data.dropFirst(headerLength)),
              let plaintext = try? AES.GCM.open(box, using: key, authenticating: header) else {
            throw PrescriptionError.wrongKeyPassphrase
        }
        guard let secret = try? JSONDecoder().decode(Secret.self, from: plaintext),
              (try? Curve25519.Signing.PrivateKey(rawRepresentation: secret.key)) != nil else {
            throw PrescriptionError.unreadableKeyFile(path: url.path, reason: "its contents are damaged")
        }
        return AudiologistSigningKey(audiologist: .init(name: secret.name, identifier: secret.identifier), rawPrivateKey: secret.key)
    }
}

extension PrescriptionDocument {
    static func validatedAudiologist(_ audiologist: Audiologist) throws -> Audiologist {
        try validateText(audiologist.name, field: "audiologist name", maximumBytes: nameMaximumBytes, allowEmpty: false)
        try validateText(audiologist.identifier, field: "audiologist identifier", maximumBytes: identifierMaximumBytes, allowEmpty: false)
        return audiologist
    }
}
