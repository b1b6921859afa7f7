import Foundation
import Hearing
import Testing
@testable import Prescription

@Suite("Signed prescription payloads")
struct PayloadTests {
    let key: AudiologistSigningKey
    let verifier: PrescriptionVerifier

    init() throws {
        key = try AudiologistSigningKey.generate(for: clinic)
        verifier = PrescriptionVerifier(trustedKeys: [key.publicKey], now: issueDate.addingTimeInterval(86_400))
    }

    @Test("a signed prescription verifies back to exactly the document that was signed")
    func roundTrip() throws {
        let document = try sampleDocument()
        let text = try key.sign(document)
        let verified = try verifier.verify(text: text)
        #expect(verified.document == document)
        #expect(verified.text == text)
        #expect(verified.signer == key.publicKey)
        #expect(text.hasPrefix("AKRX1:"))
        // The targets are the fitting's medium gains, and the fitting is Hearing's.
        let fitting = try verified.document.fitting()
        #expect(verified.document.mediumGainTargets.left == fitting.left.bands.map { Int($0.mediumGain.rounded()) })
        #expect(fitting.options.rule == .nalR && fitting.options.maximumOutputSPL == 105)
    }

    @Test("the same document always encodes to the same text, in the QR alphanumeric alphabet")
    func canonical() throws {
        let a = try key.sign(try sampleDocument()), b = try key.sign(try sampleDocument())
        #expect(a == b)
        let alphabet = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
        #expect(a.allSatisfy { alphabet.contains($0) })
        // Programs given in another order are the same prescription.
        let reordered = try PrescriptionDocument(patient: .init(name: patientName, reference: "P-0042", birthYear: 1948),
                                                 audiologist: clinic, issued: issueDate, audiogram: try sampleAudiogram(),
                                                 rule: .nalR, maximumOutputSPL: 105, programs: [.tv, .quiet, .conversationInNoise])
        #expect(try key.sign(reordered) == a)
    }

    @Test("one changed byte in the patient's name is refused as altered")
    func changedByteIsAltered() throws {
        var payload = try PayloadCoding.payload(fromText: try key.sign(try sampleDocument()))
        let nameOffset = payload.range(of: Data(patientName.utf8))!.lowerBound
        payload[nameOffset] ^= 0x01 // "M" → "L": still a valid name, so only the signature can tell
        #expect(throws: PrescriptionError.altered) { try verifier.verify(text: PayloadCoding.text(fromPayload: payload)) }
    }

    @Test("every single changed byte anywhere in the payload is refused")
    func everyByteIsCovered() throws {
        let payload = try PayloadCoding.payload(fromText: try key.sign(try sampleDocument()))
        var altered = 0
        for index in payload.indices {
            var changed = payload
            changed[index] ^= 0x10
            do {
                _ = try verifier.verify(text: PayloadCoding.text(fromPayload: changed))
                Issue.record("a change at byte \(index) was accepted")
            } catch PrescriptionError.altered {
                altered += 1
            } catch {
                // Malformed, not canonical, untrusted key, …: refused for another reason.
            }
        }
        // Most bytes can change into another valid prescription; only the signature catches those.
        #expect(altered > payload.count / 2)
    }

    @Test("a prescription signed by a key this installation does not trust is refused, naming that key")
    func untrustedKey() throws {
        let stranger = try AudiologistSigningKey.generate(for: clinic)
        let text = try stranger.sign(try sampleDocument())
        #expect(throws: PrescriptionError.untrustedKey(fingerprint: stranger.publicKey.fingerprint)) { try verifier.verify(text: text) }
        #expect(stranger.publicKey.fingerprint.count == 19)
        #expect(stranger.publicKey.fingerprint != key.publicKey.fingerprint)
    }

    @Test("a trusted key cannot sign a prescription that names another audiologist")
    func audiologistMustMatchKey() throws {
        let other = PrescriptionDocument.Audiologist(name: "Dr. Mallory", identifier: "AUD-99999")
        let otherKey = try AudiologistSigningKey.generate(for: other)
        // The patient trusts this key, but as Dr. Ruiz's.
        let mislabelled = try AudiologistPublicKey(audiologist: clinic, rawKey: otherKey.publicKey.rawKey)
        let text = try otherKey.sign(try sampleDocument(audiologist: other))
        let verifier = PrescriptionVerifier(trustedKeys: [mislabelled], now: issueDate)
        #expect(throws: PrescriptionError.audiologistMismatch(payloadIdentifier: "AUD-99999", keyIdentifier: "AUD-12345")) {
            try verifier.verify(text: text)
        }
        #expect(throws: PrescriptionError.self) { try key.sign(try sampleDocument(audiologist: other)) }
    }

    @Test("a trial prescription is accepted until its expiry and refused from then on, with the date")
    func expiredTrial() throws {
        let expiry = issueDate.addingTimeInterval(14 * 86_400)
        let text = try key.sign(try sampleDocument(expires: expiry))
        let before = PrescriptionVerifier(trustedKeys: [key.publicKey], now: expiry.addingTimeInterval(-1))
        #expect(try before.verify(text: text).document.expires == expiry)
        let after = PrescriptionVerifier(trustedKeys: [key.publicKey], now: expiry)
        #expect(throws: PrescriptionError.expired(on: expiry)) { try after.verify(text: text) }
        #expect(PrescriptionError.expired(on: expiry).userMessage.contains("expired on 2026-11-15"))
    }

    @Test("values outside their range are refused with the field's name")
    func validation() throws {
        func refusal(_ make: () throws -> PrescriptionDocument) -> String? {
            do { _ = try make(); return nil } catch { return (error as? PrescriptionError)?.userMessage }
        }
        let audiogram = try sampleAudiogram()
        let loud = refusal { try PrescriptionDocument(patient: .init(name: "A"), audiologist: clinic, issued: issueDate,
                                                      audiogram: audiogram, rule: .fig6, maximumOutputSPL: 120) }
        #expect(loud?.contains("maximum output is 120 dB SPL, outside 60 to 111") == true)
        let unnamed = refusal { try PrescriptionDocument(patient: .init(name: " "), audiologist: clinic, issued: issueDate,
                                                         audiogram: audiogram, rule: .fig6) }
        #expect(unnamed?.contains("patient name is empty") == true)
        let half = Audiogram(left: try EarAudiogram(ear: .left, thresholdsHL: [500: 30, 1000: 42.5, 2000: 50]), right: audiogram.right)
        let fractional = refusal { try PrescriptionDocument(patient: .init(name: "A"), audiologist: clinic, issued: issueDate,
                                                            audiogram: half, rule: .fig6) }
        #expect(fractional?.contains("left threshold at 1000 Hz is 42.5 dB HL; use whole decibels") == true)
        let backwards = refusal { try sampleDocument(expires: issueDate.addingTimeInterval(-60)) }
        #expect(backwards?.contains("expiry date must be after the issue date") == true)
        let long = refusal { try PrescriptionDocument(patient: .init(name: String(repeating: "x", count: 65)), audiologist: clinic,
                                                      issued: issueDate, audiogram: audiogram, rule: .fig6) }
        #expect(long?.contains("patient name is 65 bytes long") == true)
    }

    @Test("text that is not a prescription, or is cut short, is refused as such")
    func notAPrescription() throws {
        #expect(throws: PrescriptionError.notAPrescription) { try verifier.verify(text: "https://example.com") }
        let text = try key.sign(try sampleDocument())
        #expect(throws: PrescriptionError.self) { try verifier.verify(text: String(text.dropLast(3))) }
        let future = try key.sign(try sampleDocument(issued: issueDate.addingTimeInterval(10 * 86_400)))
        #expect(throws: PrescriptionError.issuedInTheFuture(on: issueDate.addingTimeInterval(10 * 86_400))) { try verifier.verify(text: future) }
    }

    @Test("Base45 matches the examples of RFC 9285")
    func base45() {
        #expect(Base45.encode(Data("AB".utf8)) == "BB8")
        #expect(Base45.encode(Data("Hello!!".utf8)) == "%69 VD92EX0")
        #expect(Base45.encode(Data("base-45".utf8)) == "UJCLQE7W581")
        #expect(Base45.decode("QED8WEX0") == Data("ietf!".utf8))
        #expect(Base45.decode("GGW") == nil) // RFC 9285 §6: 65 535 < value
        #expect(Base45.decode("a") == nil)
    }
}
