import Foundation
import Hearing

/// The one canonical byte encoding of a signed prescription (format version 1), and its text
/// form for the QR code.
///
/// Binary, big-endian, every field at a fixed place or length-prefixed, so that the same
/// document always gives the same bytes and a decoder that re-encodes what it read can insist
/// on byte equality (`notCanonical` otherwise): there is no second spelling of a prescription
/// to smuggle past the signature check.
///
///     version(1) kind(1) issued(u32 s) expires(u32 s, 0 = none)
///     patient name(len8 + UTF-8) patient reference(len8 + UTF-8) birth year(u16, 0 = none)
///     audiologist name(len8 + UTF-8) audiologist identifier(len8 + UTF-8)
///     rule(1) level reference(1) maximum output dB SPL(1) programs(bit set, 1)
///     per ear, left then right:
///         threshold mask(u16 over the 11 standard frequencies) thresholds(i8 dB HL each)
///         UCL mask(u16) UCLs(u8 dB HL each) medium-gain targets(11 × u8 dB)
///     signer key ID(8: the key's fingerprint)
///     signature(64: Ed25519 over "AssistiveKit prescription v1\0" + everything above)
///
/// A typical prescription is about 150 bytes. The text form is `AKRX1:` + Base45 (RFC 9285)
/// of the bytes: Base45 uses only the QR alphanumeric alphabet, so the code is made in
/// alphanumeric mode (5.5 bits a character, 8.25 bits a byte — 3 % more than byte mode) and,
/// unlike byte mode, no reader can mangle it by guessing a character set.
public enum PayloadCoding {
    public static let textPrefix = "AKRX1:"
    static let signatureContext = Data("AssistiveKit prescription v1\0".utf8)
    static let keyIDLength = 8
    static let signatureLength = 64

    /// Fixed tables rather than `allCases` order, so that adding a rule or program to Hearing
    /// can never renumber the ones already signed.
    static let ruleCodes: [FittingRule: UInt8] = [.nalR: 0, .nalRP: 1, .halfGain: 2, .pogo: 3, .fig6: 4]
    static let levelReferenceCodes: [LevelReference: UInt8] = [.band: 0, .speech: 1]
    static let programBits: [ListeningProgram: UInt8] = [.quiet: 0, .conversationInNoise: 1, .music: 2, .outdoors: 3, .tv: 4]

    /// The bytes that are signed: the document and the signer's key ID.
    static func signedBytes(_ document: PrescriptionDocument, keyID: Data) -> Data {
        var out = Data()
        out.append(UInt8(document.formatVersion))
        out.append(document.kind.rawValue)
        appendUInt32(&out, UInt32(document.issued.timeIntervalSince1970))
        appendUInt32(&out, document.expires.map { UInt32($0.timeIntervalSince1970) } ?? 0)
        appendText(&out, document.patient.name)
        appendText(&out, document.patient.reference)
        appendUInt16(&out, UInt16(document.patient.birthYear ?? 0))
        appendText(&out, document.audiologist.name)
        appendText(&out, document.audiologist.identifier)
        out.append(ruleCodes[document.rule]!)
        out.append(levelReferenceCodes[document.levelReference]!)
        out.append(UInt8(document.maximumOutputSPL))
        out.append(document.programs.reduce(UInt8(0)) { $0 | (1 << programBits[$1]!) })
        for ear in Ear.allCases {
            let audiogram = document.audiogram[ear]
            appendLevels(&out, audiogram.thresholdsHL) { UInt8(bitPattern: Int8($0)) }
            appendLevels(&out, audiogram.uncomfortableLevelsHL) { UInt8($0) }
            for gain in document.mediumGainTargets[ear] { out.append(UInt8(gain)) }
        }
        precondition(keyID.count == keyIDLength)
        out.append(keyID)
        return out
    }

    /// The message Ed25519 signs: a context string (so a signature over a prescription can
    /// never be replayed as a signature over anything else) and the signed bytes.
    static func message(forSignedBytes bytes: Data) -> Data { signatureContext + bytes }

    /// Splits a payload into document, key ID, signed bytes and signature; throws on any
    /// malformed, truncated, over-long or non-canonical input. Checks no signature.
    static func decode(_ payload: Data) throws -> (document: PrescriptionDocument, keyID: Data, signedBytes: Data, signature: Data) {
        var reader = ByteReader(bytes: [UInt8](payload))
        let version = Int(try reader.byte("format version"))
        guard version == PrescriptionDocument.currentFormatVersion else {
            throw PrescriptionError.unsupportedFormatVersion(version)
        }
        guard let kind = PrescriptionDocument.Kind(rawValue: try reader.byte("kind")) else {
            throw PrescriptionError.malformedPayload(field: "kind")
        }
        let issued = try reader.uint32("issue date")
        let expires = try reader.uint32("expiry date")
        let patientName = try reader.text("patient name")
        let patientReference = try reader.text("patient reference")
        let birthYear = try reader.uint16("patient birth year")
        let audiologistName = try reader.text("audiologist name")
        let audiologistIdentifier = try reader.text("audiologist identifier")
        guard let rule = ruleCodes.first(where: { $0.value == (try? reader.peek()) })?.key else {
            throw PrescriptionError.malformedPayload(field: "fitting rule")
        }
        _ = try reader.byte("fitting rule")
        guard let levelReference = levelReferenceCodes.first(where: { $0.value == (try? reader.peek()) })?.key else {
            throw PrescriptionError.malformedPayload(field: "level reference")
        }
        _ = try reader.byte("level reference")
        let maximumOutput = Int(try reader.byte("maximum output"))
        let programMask = try reader.byte("program list")
        let programs = ListeningProgram.allCases.filter { programMask & (1 << programBits[$0]!) != 0 }
        var ears: [Ear: (EarAudiogram, [Int])] = [:]
        for ear in Ear.allCases {
            let thresholds = try reader.levels("\(ear.name) thresholds") { Double(Int8(bitPattern: $0)) }
            let ucls = try reader.levels("\(ear.name) uncomfortable levels") { Double($0) }
            var gains: [Int] = []
            for _ in AudiometricFrequency.all { gains.append(Int(try reader.byte("\(ear.name) targets"))) }
            do {
                ears[ear] = (try EarAudiogram(ear: ear, thresholdsHL: thresholds, uncomfortableLevelsHL: ucls), gains)
            } catch {
                throw PrescriptionError.malformedPayload(field: "\(ear.name) audiogram")
            }
        }
        let keyID = Data(try reader.bytes(keyIDLength, "signer key"))
        let signedCount = reader.offset
        let signature = Data(try reader.bytes(signatureLength, "signature"))
        guard reader.isAtEnd else { throw PrescriptionError.malformedPayload(field: "length") }
        let document: PrescriptionDocument
        do {
            document = try PrescriptionDocument(
                formatVersion: version, kind: kind,
                patient: .init(name: patientName, reference: patientReference, birthYear: birthYear == 0 ? nil : Int(birthYear)),
                audiologist: .init(name: audiologistName, identifier: audiologistIdentifier),
                issued: Date(timeIntervalSince1970: Double(issued)),
                expires: expires == 0 ? nil : Date(timeIntervalSince1970: Double(expires)),
                audiogram: Audiogram(left: ears[.left]!.0, right: ears[.right]!.0),
                rule: rule, levelReference: levelReference, maximumOutputSPL: maximumOutput, programs: programs,
                mediumGainTargets: .init(left: ears[.left]!.1, right: ears[.right]!.1))
        } catch PrescriptionError.invalidField(let field, _) {
            throw PrescriptionError.malformedPayload(field: field)
        }
        let signed = payload.prefix(signedCount)
        guard signedBytes(document, keyID: keyID) == signed else { throw PrescriptionError.notCanonical }
        return (document, keyID, Data(signed), signature)
    }

    // MARK: Text form

    public static func text(fromPayload payload: Data) -> String { textPrefix + Base45.encode(payload) }

    public static func payload(fromText text: String) throws -> Data {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(textPrefix) else { throw PrescriptionError.notAPrescription }
        guard let payload = Base45.decode(String(trimmed.dropFirst(textPrefix.count))) else {
            throw PrescriptionError.malformedPayload(field: "text encoding")
        }
        return payload
    }

    // MARK: Primitives

    private static func appendUInt16(_ out: inout Data, _ value: UInt16) {
        out.append(UInt8(value >> 8)); out.append(UInt8(value & 0xFF))
    }

    private static func appendUInt32(_ out: inout Data, _ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    private static func appendText(_ out: inout Data, _ text: String) {
        let bytes = Array(text.utf8)
        out.append(UInt8(bytes.count))
        out.append(contentsOf: bytes)
    }

    private static func appendLevels(_ out: inout Data, _ table: [Double: Double], _ byte: (Int) -> UInt8) {
        var mask: UInt16 = 0
        var values: [UInt8] = []
        for (index, f) in AudiometricFrequency.all.enumerated() {
            guard let level = table[f] else { continue }
            mask |= 1 << UInt16(index)
            values.append(byte(Int(level)))
        }
        appendUInt16(&out, mask)
        out.append(contentsOf: values)
    }
}

/// Reads the fields of a payload, naming the field that runs past the end.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    func peek() throws -> UInt8 {
        guard offset < bytes.count else { throw PrescriptionError.malformedPayload(field: "length") }
        return bytes[offset]
    }

    mutating func byte(_ field: String) throws -> UInt8 { try bytes(1, field).first! }

    mutating func bytes(_ count: Int, _ field: String) throws -> ArraySlice<UInt8> {
        guard count >= 0, offset + count <= bytes.count else { throw PrescriptionError.malformedPayload(field: field) }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func uint16(_ field: String) throws -> UInt16 {
        let b = try bytes(2, field)
        return UInt16(b[b.startIndex]) << 8 | UInt16(b[b.startIndex + 1])
    }

    mutating func uint32(_ field: String) throws -> UInt32 {
        try bytes(4, field).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    mutating func text(_ field: String) throws -> String {
        let count = Int(try byte(field))
        guard let text = String(validating: try bytes(count, field), as: UTF8.self) else {
            throw PrescriptionError.malformedPayload(field: field)
        }
        return text
    }

    mutating func levels(_ field: String, _ value: (UInt8) -> Double) throws -> [Double: Double] {
        let mask = try uint16(field)
        guard mask >> UInt16(AudiometricFrequency.all.count) == 0 else { throw PrescriptionError.malformedPayload(field: field) }
        var table: [Double: Double] = [:]
        for (index, f) in AudiometricFrequency.all.enumerated() where mask & (1 << UInt16(index)) != 0 {
            table[f] = value(try byte(field))
        }
        return table
    }
}

/// Base45 (RFC 9285): two bytes become three characters of the QR alphanumeric alphabet.
public enum Base45 {
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)
    static let values: [UInt8: Int] = Dictionary(uniqueKeysWithValues: alphabet.enumerated().map { ($1, $0) })

    public static func encode(_ data: Data) -> String {
        let bytes = [UInt8](data)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 2 + 2)
        var index = 0
        while index + 1 < bytes.count {
            var n = Int(bytes[index]) * 256 + Int(bytes[index + 1])
            for _ in 0..<3 { out.append(alphabet[n % 45]); n /= 45 }
            index += 2
        }
        if index < bytes.count {
            let n = Int(bytes[index])
            out.append(alphabet[n % 45]); out.append(alphabet[n / 45])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// nil for a character outside the alphabet, a dangling character or a group over 65535.
    public static func decode(_ text: String) -> Data? {
        let characters = Array(text.utf8)
        guard characters.count % 3 != 1 else { return nil }
        var out = Data()
        var index = 0
        while index < characters.count {
            let group = characters[index..<min(index + 3, characters.count)]
            var n = 0, weight = 1
            for c in group {
                guard let v = values[c] else { return nil }
                n += v * weight
                weight *= 45
            }
            if group.count == 3 {
                guard n <= 0xFFFF else { return nil }
                out.append(UInt8(n >> 8)); out.append(UInt8(n & 0xFF))
            } else {
                guard n <= 0xFF else { return nil }
                out.append(UInt8(n))
            }
            index += 3
        }
        // Canonical: re-encoding must give the same text (no alternative spellings).
        return encode(out) == text ? out : nil
    }
}
