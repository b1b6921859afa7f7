import Crypto
import Foundation

/// One thing done to the patient store: who, when, what.
public struct AuditEntry: Sendable, Equatable, Codable {
    /// 1, 2, 3, … in the order written.
    public let sequence: Int
    public let time: Date
    /// The login name of the user whose process did it.
    public let user: String
    public let action: String
    public let detail: String?
}

/// The append-only audit log: one line an entry, each line AES-GCM sealed (so the log names no
/// patient without the key) with its sequence number as authenticated data, and chained:
/// hash(n) = SHA-256(hash(n−1) ‖ sealed line n), with hash(0) = 32 zero bytes. Each entry also
/// carries hash(n−1) inside its seal. A removed, reordered, replaced or edited line breaks the
/// chain at that entry; a log cut short is caught by the head (count and hash) kept in the
/// sealed state file.
enum AuditLog {
    static let genesis = Data(repeating: 0, count: 32)

    private struct SealedEntry: Codable {
        var entry: AuditEntry
        var previous: Data
    }

    static func line(for entry: AuditEntry, previous: Data, key: SymmetricKey) throws -> Data {
        let plaintext = try JSONEncoder.sorted.encode(SealedEntry(entry: entry, previous: previous))
        let sealed = try Sealing.seal(plaintext, key: key, context: "audit \(entry.sequence)")
        return Data(sealed.base64EncodedString().utf8)
    }

    static func chain(_ previous: Data, _ line: Data) -> Data { Data(SHA256.hash(data: previous + line)) }

    /// Every entry, checked link by link; with the head, where the chain ends.
    static func read(_ url: URL, key: SymmetricKey, headCount: Int, head: Data) throws -> (entries: [AuditEntry], tail: Data) {
        try StoreFiles.checkKind(url)
        let data = FileManager.default.contents(atPath: url.path) ?? Data()
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        var entries: [AuditEntry] = []
        var hash = genesis
        for (index, line) in lines.enumerated() {
            let sequence = index + 1
            guard let sealed = Data(base64Encoded: Data(line)),
                  let plaintext = Sealing.open(sealed, key: key, context: "audit \(sequence)"),
                  let decoded = try? JSONDecoder.sorted.decode(SealedEntry.self, from: plaintext),
                  decoded.entry.sequence == sequence, decoded.previous == hash else {
                throw PrescriptionError.auditLogTampered(entry: sequence)
            }
            hash = chain(hash, Data(line))
            entries.append(decoded.entry)
            if sequence == headCount, hash != head { throw PrescriptionError.auditLogTampered(entry: sequence) }
        }
        // Entries past the head are possible only after a crash between the two writes, and
        // are sealed with the key, so they are genuine; fewer entries than the head is a cut.
        guard entries.count >= headCount else { throw PrescriptionError.auditLogTampered(entry: entries.count + 1) }
        return (entries, hash)
    }
}
