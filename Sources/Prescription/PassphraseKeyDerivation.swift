import Crypto
import _CryptoExtras
import Foundation

/// How hard a passphrase is to guess offline: scrypt's cost, stored beside what it protects so
/// a file opens with the cost it was made with. Tests pass a cheap cost; the default is never
/// lowered.
public struct ScryptCost: Sendable, Equatable, Codable {
    /// log2 of scrypt's N.
    public var log2Rounds: Int
    /// scrypt's r.
    public var blockSize: Int
    /// scrypt's p.
    public var parallelism: Int

    public init(log2Rounds: Int, blockSize: Int, parallelism: Int) {
        self.log2Rounds = log2Rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// N = 2^17, r = 8, p = 1: 128 MiB and about half a second, the interactive-login cost in
    /// OWASP's password storage guidance for scrypt. Memory-hard, so a GPU or ASIC guessing
    /// PINs offline pays for memory on every guess.
    public static let standard = ScryptCost(log2Rounds: 17, blockSize: 8, parallelism: 1)

    /// A file must not be able to make opening it cost more than 1 GiB or minutes of work
    /// before anything is authenticated.
    var isReasonable: Bool {
        (10...20).contains(log2Rounds) && (1...16).contains(blockSize) && (1...4).contains(parallelism)
            && 128 * blockSize * (1 << log2Rounds) <= 1 << 30
    }

    func deriveKey(passphrase: String, salt: Data) throws -> SymmetricKey {
        guard isReasonable else { throw PrescriptionError.unreasonableKeyDerivation }
        return try KDF.Scrypt.deriveKey(from: Data(passphrase.utf8), salt: salt, outputByteCount: 32,
                                        rounds: 1 << log2Rounds, blockSize: blockSize, parallelism: parallelism)
    }
}

/// AES-256-GCM with the file's own role as authenticated data, so a sealed file moved into
/// another file's place fails to open. Layout: nonce(12) ciphertext tag(16).
enum Sealing {
    static func seal(_ plaintext: Data, key: SymmetricKey, context: String) throws -> Data {
        try AES.GCM.seal(plaintext, using: key, authenticating: Data(context.utf8)).combined!
    }

    /// nil when the key is wrong or a single byte changed.
    static func open(_ sealed: Data, key: SymmetricKey, context: String) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: Data(context.utf8))
    }

    static func randomBytes(_ count: Int) -> Data {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Data($0) }
    }

    /// A separate key for each purpose from the one scrypt output (HKDF-SHA256, RFC 5869).
    static func subkey(_ master: SymmetricKey, purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("assistivekit \(purpose)".utf8), outputByteCount: 32)
    }
}
