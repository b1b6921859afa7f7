import AssistCore
import Foundation
import Hearing
import LiveHearing
import Prescription

/// The hidden field every form of the web app carries.
func formTokenField(_ formToken: String) -> String {
    "<input type=\"hidden\" name=\"\(AccessGuard.formField)\" value=\"\(escaped(formToken))\">"
}

extension HearingPages {
    /// The form that opens the patient store, in place of a page's content while it is locked;
    /// on first use it sets the passphrase (typed twice), as `assist rx` asks for it.
    func unlockSection(formToken: String, returnTo page: WebPage) -> String {
        let creating = !patientStore.exists
        let heading = creating ? "Choose a passphrase for your prescriptions" : "Open your prescriptions"
        let repeatField = creating ? """
            <label for="passphrase-repeat">Repeat the passphrase</label>
            <input id="passphrase-repeat" name="repeat" type="password" autocomplete="new-password" required>
            """ : ""
        let help = creating
            ? "No prescriptions are stored yet. Choose a passphrase or PIN of at least \(PatientStore.minimumPassphraseCharacters) characters; your prescriptions are kept encrypted under it, as assist rx keeps them."
            : "Your prescriptions are kept encrypted under your passphrase, the one assist rx asks for. Wrong passphrases make you wait longer each time, then lock the store for a while."
        return """
        <section aria-labelledby="unlock-heading"><h2 id="unlock-heading">\(heading)</h2>
        <form method="post" action="/hearing/unlock" class="stack">
        \(formTokenField(formToken))
        <input type="hidden" name="return" value="\(page.rawValue)">
        <p id="passphrase-help" class="help">\(escaped(help))</p>
        <label for="passphrase">Passphrase or PIN</label>
        <input id="passphrase" name="passphrase" type="password" autocomplete="\(creating ? "new-password" : "current-password")" aria-describedby="passphrase-help" required>
        \(repeatField)
        <div class="row"><button type="submit">\(creating ? "Set the passphrase" : "Open")</button></div>
        </form></section>
        """
    }

    /// Whether the hearing aid runs, in words (a warning when it does not).
    func aidStateParagraph() -> String {
        if let aid {
            let settings = aid.control.settings
            return "<p class=\"message confirmation\" id=\"aid-state\">The hearing aid is running on the sound file \(escaped(aid.inputName)) "
                + "(\(Int(aid.sampleRateHz)) Hz), in program \(escaped(settings.program.rawValue)), volume \(Self.volumeText(settings.volumeDecibels)). "
                + "Its processed sound is not played: this web app has no sound device; the live hearing aid on the sound devices plays it.</p>"
        }
        if let state = live?.state, state.phase == .running || state.phase == .deviceLost || state.phase == .starting {
            return "<p class=\"message \(state.phase == .running ? "confirmation" : "warning")\" id=\"aid-state\">\(escaped(state.sentence))</p>"
        }
        return "<p class=\"message warning\" id=\"aid-state\">\(escaped(noAidSentence))</p>"
    }

    static func volumeText(_ decibels: Double) -> String { LiveHearingState.volumeText(decibels) }

    // MARK: Patient home

    func renderHome(formToken: String, message: PageMessage? = nil) -> String {
        var body = "<section aria-labelledby=\"aid-heading\"><h2 id=\"aid-heading\">Hearing aid</h2>\(aidStateParagraph())</section>"
        guard let store = unlocked else {
            return pageDocument(.hearing, body: body + unlockSection(formToken: formToken, returnTo: .hearing), message: message)
        }
        body += "<section aria-labelledby=\"rx-heading\"><h2 id=\"rx-heading\">Prescription in use</h2>"
        var programs: [ListeningProgram] = []
        do {
            if let active = try store.activePrescription(), let id = try store.profiles().first(where: \.isActive)?.id {
                body += "<p>\(escaped(capitalisedFirst(PrescriptionDescription.summary(active.document)))).</p>"
                body += "<p><a class=\"button-link\" href=\"/hearing/prescriptions/\(escaped(id))\">Details of the prescription in use</a></p>"
                programs = active.document.programs
            } else {
                body += "<p>No prescription is in use. Import the QR code from your audiologist on the <a href=\"\(WebPage.prescriptions.path)\">Prescriptions</a> page.</p>"
            }
        } catch {
            body += "<p class=\"message warning\">\(escaped(userMessage(for: error)))</p>"
        }
        body += "</section>"
        // The program and volume forms act on whichever aid runs: on a sound file or live.
        if let aid = session {
            let settings = aid.control.settings
            let options = programs.map { program -> String in
                "<option value=\"\(program.rawValue)\"\(program == settings.program ? " selected" : "")>\(escaped(program.rawValue))</option>"
            }.joined(separator: "")
            body += """
            <section aria-labelledby="program-heading"><h2 id="program-heading">Program</h2>
            <form method="post" action="/hearing/program" class="row">
            \(formTokenField(formToken))
            <label for="program">Program</label>
            <select id="program" name="program">\(options)</select>
            <button type="submit">Switch program</button>
            </form></section>
            <section aria-labelledby="volume-heading"><h2 id="volume-heading">Volume</h2>
            <p id="volume-now">Volume \(Self.volumeText(settings.volumeDecibels)); your audiologist allows \(Self.volumeText(settings.volumeRangeDecibels.lowerBound)) to \(Self.volumeText(settings.volumeRangeDecibels.upperBound)), in 2 dB steps.</p>
            <form method="post" action="/hearing/volume" class="commands">
            \(formTokenField(formToken))
            <button type="submit" name="change" value="softer">Softer</button>
            <button type="submit" name="change" value="louder">Louder</button>
            </form></section>
            """
        }
        body += """
        <section aria-labelledby="said-heading"><h2 id="said-heading">Said by the hearing aid</h2>
        <div role="log" aria-live="polite" aria-relevant="additions" aria-labelledby="said-heading">
        <ol id="spoken" class="spoken" data-events="/hearing/events">
        """
        // The log is a wrapper: role=log on the list itself would take away its list semantics.
        for sentence in announcements.recent { body += "<li>\(escaped(sentence.text))</li>" }
        body += "</ol></div></section>"
        body += """
        <section aria-labelledby="lock-heading"><h2 id="lock-heading">Lock</h2>
        <form method="post" action="/hearing/lock">\(formTokenField(formToken))
        <p class="help" id="lock-help">Locking forgets the passphrase in this web app; the hearing aid keeps running.</p>
        <button type="submit" aria-describedby="lock-help">Lock the prescriptions</button></form></section>
        """
        return pageDocument(.hearing, body: body, message: message)
    }

    // MARK: Prescriptions

    func renderPrescriptions(formToken: String, message: PageMessage? = nil) -> String {
        guard let store = unlocked else {
            return pageDocument(.prescriptions, body: unlockSection(formToken: formToken, returnTo: .prescriptions), message: message)
        }
        var body = """
        <section aria-labelledby="import-heading"><h2 id="import-heading">Import a prescription</h2>
        <form method="post" action="/hearing/prescriptions/import" enctype="multipart/form-data" class="stack">
        \(formTokenField(formToken))
        <label for="picture">Picture of the QR code</label>
        <p id="picture-help" class="help">A photo or screenshot of the code your audiologist gave you (JPEG, PNG, WebP; up to 10 MB). \
        It is read in memory and checked before anything is stored, exactly as assist rx import checks it.</p>
        <input id="picture" name="picture" type="file" accept="image/*" aria-describedby="picture-help" required>
        <div class="check"><input id="use-now" name="use" type="checkbox" value="yes"><label for="use-now">Hear through it at once</label></div>
        <div class="check"><input id="another-patient" name="another" type="checkbox" value="yes"><label for="another-patient">\(Self.anotherPatientLabel)</label></div>
        <div class="row"><button type="submit">Import</button></div>
        </form></section>
        """
        body += "<section aria-labelledby=\"list-heading\"><h2 id=\"list-heading\">Stored prescriptions</h2>"
        do {
            let profiles = try store.profiles()
            if profiles.isEmpty {
                body += "<p>No prescriptions yet; import the picture of your audiologist's QR code above.</p>"
            } else {
                body += "<table><caption>Each checked again now; a refused one is never used</caption><thead><tr>"
                    + "<th scope=\"col\">Prescription</th><th scope=\"col\">State</th><th scope=\"col\">Actions</th></tr></thead><tbody>"
                for profile in profiles { body += row(profile, formToken: formToken) }
                body += "</tbody></table>"
            }
        } catch {
            body += "<p class=\"message warning\">\(escaped(userMessage(for: error)))</p>"
        }
        body += "</section>"
        return pageDocument(.prescriptions, body: body, message: message)
    }

    private func row(_ profile: StoredProfile, formToken: String) -> String {
        let id = escaped(profile.id)
        switch profile.verification {
        case .success(let verified):
            let document = verified.document
            let state = profile.isActive ? "<strong>In use</strong>" : (document.kind == .debug ? "Unlocks the Debug page" : "Stored")
            let use = profile.isActive || document.kind == .debug ? "" : """
                <form method="post" action="/hearing/prescriptions/\(id)/use">\(formTokenField(formToken))
                <button type="submit" aria-label="Use prescription \(id)">Use</button></form>
                """
            return "<tr><td><a href=\"/hearing/prescriptions/\(id)\">\(id)</a>: \(escaped(PrescriptionDescription.summary(document)))</td>"
                + "<td>\(state)</td><td><div class=\"actions\">\(use)"
                + "<a class=\"button-link\" href=\"/hearing/prescriptions/\(id)/delete\" aria-label=\"Delete prescription \(id)\">Delete</a></div></td></tr>"
        case .failure(let error):
            return "<tr><td>\(id)</td><td><span class=\"refused\">Refused: \(escaped(error.userMessage))</span></td><td><div class=\"actions\">"
                + "<a class=\"button-link\" href=\"/hearing/prescriptions/\(id)/delete\" aria-label=\"Delete prescription \(id)\">Delete</a></div></td></tr>"
        }
    }

    func renderDetails(id: String, formToken: String) -> (String, Bool) {
        guard let store = unlocked else {
            return (pageDocument(.prescriptions, body: unlockSection(formToken: formToken, returnTo: .prescriptions)), true)
        }
        let verified: VerifiedPrescription
        do { verified = try store.profile(id) } catch {
            return (renderPrescriptions(formToken: formToken, message: PageMessage(text: userMessage(for: error), isWarning: true)), false)
        }
        let d = verified.document
        let patient = d.patient.name + (d.patient.reference.isEmpty ? "" : " (\(d.patient.reference))") + (d.patient.birthYear.map { ", born \($0)" } ?? "")
        var body = """
        <p><a class="button-link" href="\(WebPage.prescriptions.path)">Back to the list</a></p>
        <section aria-labelledby="details-heading"><h2 id="details-heading">Prescription \(escaped(id))</h2>
        <dl class="facts">
        <dt>Patient</dt><dd>\(escaped(patient))</dd>
        <dt>Audiologist</dt><dd>\(escaped(d.audiologist.name)) (\(escaped(d.audiologist.identifier))), key \(escaped(verified.signer.fingerprint))</dd>
        <dt>Issued</dt><dd>\(PrescriptionDescription.day(d.issued))\(d.expires.map { "; trial prescription, expires \(PrescriptionDescription.day($0))" } ?? "")</dd>
        <dt>Kind</dt><dd>\(d.kind == .debug ? "debug: unlocks the Debug page" : "fitting")</dd>
        <dt>Rule</dt><dd>\(escaped(d.rule.rawValue)), maximum output \(d.maximumOutputSPL) dB SPL</dd>
        <dt>Programs</dt><dd>\(escaped(d.programs.map(\.rawValue).joined(separator: ", ")))</dd>
        </dl></section>
        """
        body += "<section aria-labelledby=\"audiogram-heading\"><h2 id=\"audiogram-heading\">Audiogram</h2>"
        body += AudiogramChart.figure(d.audiogram, targets: d.mediumGainTargets)
        body += "</section>"
        return (pageDocument(.prescriptions, body: body), false)
    }

    func renderDeleteConfirmation(id: String, formToken: String) -> String {
        guard let store = unlocked else { return pageDocument(.prescriptions, body: unlockSection(formToken: formToken, returnTo: .prescriptions)) }
        let what = (try? store.profiles().first { $0.id == id }).flatMap { $0 }.map { profile in
            profile.prescription.map { PrescriptionDescription.summary($0.document) } ?? "a refused prescription"
        }
        guard let what else {
            return renderPrescriptions(formToken: formToken, message: PageMessage(text: PrescriptionError.noSuchProfile(id).userMessage, isWarning: true))
        }
        return pageDocument(.prescriptions, body: """
        <section aria-labelledby="delete-heading"><h2 id="delete-heading">Delete prescription \(escaped(id))?</h2>
        <p>\(escaped(capitalisedFirst(what))).</p>
        <p class="message warning">Deleting cannot be undone; you would need the QR code again to import it.</p>
        <form method="post" action="/hearing/prescriptions/\(escaped(id))/delete" class="row">
        \(formTokenField(formToken))
        <input type="hidden" name="confirm" value="yes">
        <button type="submit" class="danger">Yes, delete it</button>
        <a class="button-link" href="\(WebPage.prescriptions.path)">No, keep it</a>
        </form></section>
        """)
    }
}

/// "fitting for …" → "Fitting for …": the command line's summaries begin a line; here they begin a sentence.
func capitalisedFirst(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
}
