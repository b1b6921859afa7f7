import AssistCore
import Foundation
import Hearing
import Hummingbird
import LiveHearing
import Media
import Prescription
import TestSupport
import Testing
@testable import WebApp

/// What the hearing pages' tests sign with: a fresh audiologist key, trusted by the test's store.
struct TestAudiologist {
    let key: AudiologistSigningKey

    init() throws { key = try AudiologistSigningKey.generate(for: .init(name: "Dr. Ana Ruiz", identifier: "AUD-12345")) }

    func signed(kind: PrescriptionDocument.Kind = .fitting, patient: String = "Margarethe Quellenhof") throws -> PrescriptionRequest.Signed {
        var request = PrescriptionRequest(patient: .init(name: patient, reference: "P-0042", birthYear: 1948))
        request.rule = "nal-r"
        request.programs = "quiet,conversation-in-noise,tv"
        request.isDebug = kind == .debug
        let audiogram = Audiogram(
            left: try EarAudiogram(ear: .left, thresholdsHL: [250: 20, 500: 30, 1000: 40, 2000: 55, 4000: 70, 8000: 75]),
            right: try EarAudiogram(ear: .right, thresholdsHL: [250: 25, 500: 30, 1000: 45, 2000: 60, 4000: 70]))
        return try request.sign(with: key, askAudiogram: { audiogram })
    }
}

extension WebTestApp {
    static let passphrase = "correct horse"

    /// Sets the passphrase on first use through the page, and trusts `audiologist`'s key.
    func openStore(trusting audiologist: TestAudiologist) async throws {
        let reply = try await request(.post, "/hearing/unlock", form: ["passphrase": Self.passphrase, "repeat": Self.passphrase,
                                                                       "return": "hearing", "form_token": "form-secret"])
        #expect(reply.status == .ok)
        try #require(hearing.unlocked != nil)
        try hearing.unlocked!.trust(audiologist.key.publicKey)
    }

    /// The picture as a browser sends it from the Prescriptions page's form.
    func uploadPicture(_ bytes: Data, name: String = "code.png", fields: [String: String] = [:]) async throws -> Reply {
        let boundary = "----assistboundary7MA4YWxk"
        var body = Data()
        for (field, value) in ["form_token": "form-secret"].merging(fields, uniquingKeysWith: { $1 }) {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"picture\"; filename=\"\(name)\"\r\nContent-Type: image/png\r\n\r\n".utf8)
        body += bytes
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        return try await request(.post, "/hearing/prescriptions/import", upload: ("multipart/form-data; boundary=\(boundary)", body))
    }

    func importCode(_ signed: PrescriptionRequest.Signed, fields: [String: String] = [:]) async throws -> Reply {
        try await uploadPicture(signed.code.pngData(), fields: fields)
    }
}

/// A second of a 1 kHz tone at 65 dB SPL-ish level, as a mono WAV in `folder`.
func toneFile(in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent("tone.wav")
    let samples = (0..<48_000).map { Float(0.1 * sin(2 * Double.pi * 1000 * Double($0) / 48_000)) }
    try AudioFile.writeWAV(AudioBuffer(samples: samples, sampleRate: 48_000, channelCount: 1), to: url)
    return url
}

@Suite("The hearing pages do what assist rx and assist hear do")
struct HearingPagesTests {
    @Test("every hearing page and action is refused without the access token")
    func refusedWithoutToken() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        for path in ["/hearing", "/hearing/prescriptions", "/hearing/debug", "/hearing/audiologist", "/hearing/events", "/hearing/debug/events"] {
            let reply = try await web.request(.get, path, cookie: nil)
            #expect(reply.status == .unauthorized, "\(path)")
            #expect(reply.body == AccessGuard.Refusal.missingToken.sentence + "\n")
        }
        let post = try await web.request(.post, "/hearing/unlock", cookie: nil, form: ["passphrase": "123456", "repeat": "123456", "form_token": "form-secret"])
        #expect(post.status == .unauthorized)
        #expect(!web.hearing.patientStore.exists)
    }

    @Test("a hearing form from another site, or without the form token, is refused and changes nothing")
    func crossSite() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let crossSite = try await web.request(.post, "/hearing/unlock", form: ["passphrase": "123456", "repeat": "123456", "form_token": "form-secret"],
                                              origin: "http://evil.example")
        #expect(crossSite.status == .forbidden)
        let noToken = try await web.request(.post, "/hearing/unlock", form: ["passphrase": "123456", "repeat": "123456"])
        #expect(noToken.status == .forbidden)
        #expect(noToken.body == AccessGuard.Refusal.missingFormToken.sentence + "\n")
        #expect(!web.hearing.patientStore.exists)
        // An upload carries its form token as one of its parts: without it, refused too.
        let boundary = "b0undary"
        let body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"picture\"; filename=\"x.png\"\r\n\r\nxx\r\n--\(boundary)--\r\n".utf8)
        let upload = try await web.request(.post, "/hearing/prescriptions/import", upload: ("multipart/form-data; boundary=\(boundary)", body))
        #expect(upload.status == .forbidden)
    }

    @Test("the store is opened with the passphrase as assist rx opens it: a wrong one is counted and told")
    func passphrase() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let first = try await web.request(.get, "/hearing")
        #expect(first.body.contains("Choose a passphrase for your prescriptions"))
        let differ = try await web.request(.post, "/hearing/unlock", form: ["passphrase": "abcdef1", "repeat": "abcdef2", "form_token": "form-secret"])
        #expect(differ.status == .unprocessableContent)
        #expect(differ.body.contains("The two entries differ; nothing was changed."))
        try await web.openStore(trusting: TestAudiologist())
        _ = try await web.request(.post, "/hearing/lock", form: ["form_token": "form-secret"])
        #expect(web.hearing.unlocked == nil)
        let wrong = try await web.request(.post, "/hearing/unlock", form: ["passphrase": "not it at all", "form_token": "form-secret"])
        #expect(wrong.status == .unprocessableContent)
        #expect(wrong.body.contains(escaped(PrescriptionError.wrongPassphrase(attemptsBeforeDelay: LockoutPolicy.standard.freeAttempts - 1).userMessage)))
        #expect(web.hearing.unlocked == nil)
        let right = try await web.request(.post, "/hearing/unlock", form: ["passphrase": WebTestApp.passphrase, "form_token": "form-secret"])
        #expect(right.status == .ok)
        #expect(web.hearing.unlocked != nil)
        // Nothing the patient typed is on disk in plain text.
        let enumerator = FileManager.default.enumerator(at: web.hearing.patientStore.folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let bytes = FileManager.default.contents(atPath: url.path) ?? Data()
            #expect(bytes.range(of: Data(WebTestApp.passphrase.utf8)) == nil, "\(url.lastPathComponent)")
        }
    }

    @Test("an uploaded picture of a valid code imports the prescription, stored encrypted, and it is in use")
    func uploadImports() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let audiologist = try TestAudiologist()
        try await web.openStore(trusting: audiologist)
        let signed = try audiologist.signed()
        let reply = try await web.importCode(signed)
        #expect(reply.status == .ok)
        #expect(reply.body.contains("It is now the prescription in use."))
        let profiles = try web.hearing.unlocked!.profiles()
        #expect(profiles.count == 1 && profiles[0].isActive)
        let page = try await web.request(.get, "/hearing/prescriptions")
        #expect(page.body.contains("fitting for Margarethe Quellenhof by Dr. Ana Ruiz"))
        for url in (FileManager.default.enumerator(at: web.hearing.patientStore.folder, includingPropertiesForKeys: nil)?.allObjects as? [URL]) ?? [] {
            #expect((FileManager.default.contents(atPath: url.path) ?? Data()).range(of: Data("Quellenhof".utf8)) == nil, "\(url.lastPathComponent)")
        }
        // The same code again: the store's own sentence.
        let again = try await web.importCode(signed)
        #expect(again.status == .unprocessableContent)
        #expect(Self.alert(in: again.body) == PrescriptionError.alreadyImported(id: profiles[0].id).userMessage)
        let details = try await web.request(.get, "/hearing/prescriptions/\(profiles[0].id)")
        #expect(details.body.contains("<svg class=\"audiogram\""))
        #expect(details.body.contains("<th scope=\"row\">Left threshold</th><td>—</td><td>20</td><td>30</td>"))
    }

    @Test("another patient's code is refused naming both patients and how the page confirms it (its check box, not --yes); ticked, it is imported")
    func anotherPatient() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let audiologist = try TestAudiologist()
        try await web.openStore(trusting: audiologist)
        _ = try await web.importCode(try audiologist.signed())
        let other = try audiologist.signed(patient: "Hans Quellenhof")
        let refused = try await web.importCode(other)
        #expect(refused.status == .unprocessableContent)
        let sentence = try #require(Self.alert(in: refused.body))
        #expect(sentence == PrescriptionError.differentPatientSentence(
            imported: "Hans Quellenhof (patient number P-0042)", stored: "Margarethe Quellenhof (patient number P-0042)",
            confirm: "tick “Import it even if it names another patient” and send the picture again"), "\(sentence)")
        #expect(!sentence.contains("--yes"))
        #expect(refused.body.contains("<label for=\"another-patient\">Import it even if it names another patient</label>"))
        #expect(try web.hearing.unlocked!.profiles().count == 1)
        let confirmed = try await web.importCode(other, fields: ["another": "yes"])
        #expect(confirmed.status == .ok)
        #expect(try web.hearing.unlocked!.profiles().count == 2)
        // The library's sentence names no option (the command line adds its own).
        #expect(PrescriptionError.differentPatient(imported: "A", stored: "B").userMessage.hasSuffix("(confirm to import it anyway)."))
    }

    @Test("a damaged picture, a picture without a code and an untrusted code are each refused in one sentence, nothing stored")
    func damagedPicture() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let audiologist = try TestAudiologist()
        try await web.openStore(trusting: audiologist)
        let png = try audiologist.signed().code.pngData()
        let damaged = try await web.uploadPicture(png.prefix(png.count / 2), name: "photo.png")
        #expect(damaged.status == .unprocessableContent)
        let sentence = try #require(Self.alert(in: damaged.body))
        #expect(sentence.hasPrefix("The picture photo.png cannot be read:"))
        // One sentence, about the file the patient chose (not the in-memory file it was read from).
        #expect(sentence.hasSuffix(".") && !sentence.dropLast().contains(". ") && !sentence.contains("/proc"), "\(sentence)")
        let noCode = try await web.uploadPicture(QRCode(version: 1, width: 1, modules: [false]).pngData(pixelsPerModule: 20), name: "white.png")
        #expect(Self.alert(in: noCode.body) == PrescriptionError.noQRCodeFound.userMessage)
        let stranger = try TestAudiologist()
        let untrusted = try await web.importCode(try stranger.signed())
        #expect(Self.alert(in: untrusted.body) == PrescriptionError.untrustedKey(fingerprint: stranger.key.publicKey.fingerprint).userMessage)
        #expect(try web.hearing.unlocked!.profiles().isEmpty)
    }

    @Test("a picture over the size cap is refused with one sentence before it is read")
    func tooLarge() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        try await web.openStore(trusting: TestAudiologist())
        let reply = try await web.uploadPicture(Data(count: MultipartForm.maximumBytes + 1))
        #expect(reply.status == .contentTooLarge)
        #expect(reply.body == HearingPages.uploadTooLargeSentence + "\n")
    }

    @Test("delete needs the confirmation page's button; confirmed, the prescription is gone")
    func deleteNeedsConfirmation() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let audiologist = try TestAudiologist()
        try await web.openStore(trusting: audiologist)
        _ = try await web.importCode(try audiologist.signed())
        let id = try web.hearing.unlocked!.profiles()[0].id
        let unconfirmed = try await web.request(.post, "/hearing/prescriptions/\(id)/delete", form: ["form_token": "form-secret"])
        #expect(unconfirmed.status == .unprocessableContent)
        #expect(unconfirmed.body.contains("Nothing was deleted"))
        #expect(try web.hearing.unlocked!.profiles().count == 1)
        let confirmation = try await web.request(.get, "/hearing/prescriptions/\(id)/delete")
        #expect(confirmation.body.contains("Delete prescription \(id)?"))
        #expect(confirmation.body.contains("name=\"confirm\" value=\"yes\""))
        let confirmed = try await web.request(.post, "/hearing/prescriptions/\(id)/delete", form: ["confirm": "yes", "form_token": "form-secret"])
        #expect(confirmed.status == .ok)
        #expect(confirmed.body.contains("Deleted \(id). It was the prescription in use, so none is in use now."))
        #expect(try web.hearing.unlocked!.profiles().isEmpty)
        #expect(try web.hearing.unlocked!.auditEntries().contains { $0.action == "deleted a prescription" })
    }

    @Test("the Debug page is refused without a debug prescription, with the command line's sentence")
    func debugRefused() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let audiologist = try TestAudiologist()
        try await web.openStore(trusting: audiologist)
        _ = try await web.importCode(try audiologist.signed())
        let page = try await web.request(.get, "/hearing/debug")
        #expect(page.status == .forbidden)
        #expect(Self.alert(in: page.body) == PrescriptionError.debuggingModeLocked.userMessage)
        let events = try await web.request(.get, "/hearing/debug/events")
        #expect(events.status == .forbidden)
        let change = try await web.request(.post, "/hearing/debug/threshold", form: ["ear": "left", "frequency": "2000", "threshold": "65", "form_token": "form-secret"])
        #expect(change.status == .forbidden)
    }

    @Test("with a debug prescription and a sound file, the Debug page shows the chain's bands and a threshold change reaches it")
    func debugLive() async throws {
        let folder = try TemporaryFolder.make("web-hear")
        defer { try? FileManager.default.removeItem(at: folder) }
        let web = try WebTestApp(hearingInput: .soundFile(try toneFile(in: folder)))
        defer { web.remove() }
        let audiologist = try TestAudiologist()
        try await web.openStore(trusting: audiologist)
        #expect(web.hearing.aid == nil)
        _ = try await web.importCode(try audiologist.signed())
        let aid = try #require(web.hearing.aid)
        _ = try await web.importCode(try audiologist.signed(kind: .debug))
        for _ in 0..<40 { try aid.processNextBlock() }
        let frame = HearingPages.DebugFrame(monitors: aid.control.monitors)
        let band1k = try #require(frame.bandsHz.firstIndex(of: 1000))
        #expect(frame.left.inputSPL[band1k] > 40)
        #expect(frame.left.outputSPL[band1k] == HearingPages.DebugFrame.rounded(frame.left.inputSPL[band1k] + frame.left.gainDecibels[band1k]))
        #expect(frame.event.hasPrefix("data: {") && frame.event.hasSuffix("}\n\n"))
        let page = try await web.request(.get, "/hearing/debug")
        #expect(page.status == .ok)
        #expect(page.body.contains("id=\"bar-left-input-0\""))
        let before = aid.control.settings.prescription
        let change = try await web.request(.post, "/hearing/debug/threshold", form: ["ear": "left", "frequency": "2000", "threshold": "80", "form_token": "form-secret"])
        #expect(change.status == .ok)
        #expect(change.body.contains("Threshold changed: left 2000 Hz → 80 dB HL"))
        #expect(aid.control.settings.prescription != before)
        #expect(aid.session.thresholdChanges.map(\.thresholdHL) == [80])
        let refused = try await web.request(.post, "/hearing/debug/threshold", form: ["ear": "left", "frequency": "2000", "threshold": "300", "form_token": "form-secret"])
        #expect(refused.status == .unprocessableContent)
        #expect(Self.alert(in: refused.body) == PrescriptionError.invalidThresholdChange("left:2000=300").userMessage)
    }

    @Test("the patient home switches program and volume on the running hearing aid, and says when none runs")
    func patientHome() async throws {
        let none = try WebTestApp()
        defer { none.remove() }
        let audiologist = try TestAudiologist()
        try await none.openStore(trusting: audiologist)
        let noAid = try await none.request(.get, "/hearing")
        #expect(noAid.body.contains("assist serve was started without a hearing input"))
        let refused = try await none.request(.post, "/hearing/program", form: ["program": "tv", "form_token": "form-secret"])
        #expect(refused.status == .unprocessableContent)

        let folder = try TemporaryFolder.make("web-hear")
        defer { try? FileManager.default.removeItem(at: folder) }
        let web = try WebTestApp(hearingInput: .soundFile(try toneFile(in: folder)))
        defer { web.remove() }
        try await web.openStore(trusting: audiologist)
        _ = try await web.importCode(try audiologist.signed())
        let aid = try #require(web.hearing.aid)
        let home = try await web.request(.get, "/hearing")
        #expect(home.body.contains("The hearing aid is running on the sound file tone.wav"))
        let tv = try await web.request(.post, "/hearing/program", form: ["program": "tv", "form_token": "form-secret"])
        #expect(tv.status == .ok)
        #expect(aid.control.settings.program == .tv)
        #expect(web.hearing.announcements.recent.last?.text == LiveHearingSession.spokenName(.tv))
        let music = try await web.request(.post, "/hearing/program", form: ["program": "music", "form_token": "form-secret"])
        #expect(Self.alert(in: music.body) == PrescriptionError.programNotPrescribed(program: "music", prescribed: ["quiet", "conversation-in-noise", "tv"]).userMessage)
        let louder = try await web.request(.post, "/hearing/volume", form: ["change": "louder", "form_token": "form-secret"])
        #expect(louder.status == .ok)
        #expect(aid.control.settings.volumeSteps == 1)
    }

    @Test("the audiologist page signs what assist rx create signs, and the PNG is the code it would write")
    func audiologistSigns() async throws {
        let web = try WebTestApp()
        defer { web.remove() }
        let audiologist = try TestAudiologist()
        let keyFile = web.root.appendingPathComponent("clinic.key")
        try audiologist.key.encryptedFileData(passphrase: "key passphrase", cost: ScryptCost(log2Rounds: 10, blockSize: 8, parallelism: 1)).write(to: keyFile)
        var form = ["patient": "Margarethe Quellenhof", "rule": "nal-r", "maximum": "100", "program-quiet": "yes", "program-tv": "yes",
                    "key": keyFile.path, "keyPassphrase": "key passphrase", "form_token": "form-secret"]
        for (frequency, level) in [(250, 20), (500, 30), (1000, 40), (2000, 55), (4000, 70)] {
            form["left-\(frequency)"] = "\(level)"
            form["right-\(frequency)"] = "\(level + 5)"
        }
        let reply = try await web.request(.post, "/hearing/audiologist", form: form)
        #expect(reply.status == .ok)
        let link = try #require(reply.body.range(of: "/hearing/audiologist/[0-9a-f]+\\.png", options: .regularExpression))
        let png = try await web.request(.get, String(reply.body[link]))
        #expect(png.headers[.contentType] == "image/png")
        // The download is a code the patient's import reads and verifies.
        let text = try QRCodeReader.text(in: try ImageFile.decode(bytes: png.data, name: "x.png"))
        let verified = try PrescriptionVerifier(trustedKeys: [audiologist.key.publicKey], now: Date()).verify(text: text)
        #expect(verified.document.patient.name == "Margarethe Quellenhof")
        #expect(verified.document.programs == [.quiet, .tv])
        #expect(verified.document.rule == .nalR)
        var wrongKey = form
        wrongKey["keyPassphrase"] = "not the passphrase"
        let refused = try await web.request(.post, "/hearing/audiologist", form: wrongKey)
        #expect(Self.alert(in: refused.body) == PrescriptionError.wrongKeyPassphrase.userMessage)
        #expect(refused.body.contains("value=\"Margarethe Quellenhof\""))
        var badThreshold = form
        badThreshold["left-1000"] = "loud"
        let typo = try await web.request(.post, "/hearing/audiologist", form: badThreshold)
        #expect(Self.alert(in: typo.body) == "“loud” is not a number of dB HL.")
    }

    @Test("a multipart body is split into its fields and file; one the browser did not make gives no form, never a crash")
    func multipart() throws {
        let good = Data("--xyz\r\nContent-Disposition: form-data; name=\"form_token\"\r\n\r\nabc\r\n--xyz\r\nContent-Disposition: form-data; name=\"picture\"; filename=\"C:\\photos\\code.png\"\r\nContent-Type: image/png\r\n\r\n\u{89}PNG\r\n--xyz--\r\n".utf8)
        let form = try? MultipartForm(body: good, contentType: "multipart/form-data; boundary=xyz")
        #expect(form?.field("form_token") == "abc")
        #expect(form?.file("picture")?.fileName == "code.png")
        #expect(form?.file("picture")?.bytes == Data("\u{89}PNG".utf8))
        for broken in ["", "--xyz", "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end", "garbage --xyz--", "--xyz--\r\n"] {
            #expect(throws: MultipartForm.Failure.malformed, "\(broken)") {
                try MultipartForm(body: Data(broken.utf8), contentType: "multipart/form-data; boundary=xyz")
            }
        }
        #expect(throws: MultipartForm.Failure.malformed) { try MultipartForm(body: good, contentType: "multipart/form-data") }
        #expect(throws: MultipartForm.Failure.malformed) { try MultipartForm(body: good, contentType: "application/x-www-form-urlencoded") }
        // A boundary longer than RFC 2046 allows, and more parts than any form sends.
        let long = String(repeating: "b", count: 71)
        #expect(throws: MultipartForm.Failure.malformed) {
            try MultipartForm(body: Data("--\(long)\r\n\r\nx\r\n--\(long)--".utf8), contentType: "multipart/form-data; boundary=\(long)")
        }
        let many = multipartBody(boundary: "xyz", fields: (0..<17).map { ("f\($0)", "x") })
        #expect(throws: MultipartForm.Failure.tooManyParts) { try MultipartForm(body: many, contentType: "multipart/form-data; boundary=xyz") }
        #expect(try MultipartForm(body: multipartBody(boundary: "xyz", fields: (0..<16).map { ("f\($0)", "x") }),
                                  contentType: "multipart/form-data; boundary=xyz").parts.count == 16)
    }

    /// The refusal a page shows (its role=alert message), unescaped.
    static func alert(in body: String) -> String? {
        guard let start = body.range(of: "role=\"alert\" tabindex=\"-1\">"), let end = body.range(of: "</p>", range: start.upperBound..<body.endIndex) else { return nil }
        return String(body[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
