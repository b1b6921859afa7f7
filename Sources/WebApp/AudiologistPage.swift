import AssistCore
import Foundation
import Hearing
import Prescription

/// The Audiologist page: an audiogram typed in, the rule, maximum output and programs chosen,
/// signed with the audiologist's key (its file and passphrase, as `assist rx create --key`
/// takes them) through `PrescriptionRequest`, the one signing path; the QR code is shown and
/// offered as the same PNG and SVG `assist rx create` writes, made in memory.
extension HearingPages {
    /// What the form was filled with, shown again after a refusal so nothing is typed twice.
    struct AudiologistForm: Sendable {
        var fields: FormFields

        subscript(name: String) -> String { fields[name] ?? "" }

        static func thresholdField(_ ear: Ear, _ frequency: Double) -> String { "\(ear.name)-\(Int(frequency))" }
    }

    func renderAudiologist(formToken: String, form: AudiologistForm? = nil, signedID: String? = nil, message: PageMessage? = nil) -> String {
        var body = "<p class=\"lead\">Signs a prescription exactly as <code>assist rx create</code> does; the patient imports the QR code on their Prescriptions page or with <code>assist rx import</code>.</p>"
        if let signedID, let code = signedCode(signedID) {
            let document = code.signed.document
            let svgData = Data(code.signed.code.svg().utf8).base64EncodedString()
            body += """
            <section aria-labelledby="signed-heading"><h2 id="signed-heading">Signed prescription</h2>
            <p>\(escaped(capitalisedFirst(PrescriptionDescription.summary(document)))); QR version \(code.signed.code.version), \(code.signed.text.count) characters.</p>
            <figure class="qr"><img src="data:image/svg+xml;base64,\(svgData)" alt="QR code of the signed prescription for \(escaped(document.patient.name))" width="320" height="320"></figure>
            <p class="actions">
            <a class="button-link" href="/hearing/audiologist/\(signedID).png" download="\(escaped(code.fileStem)).png">Download the PNG</a>
            <a class="button-link" href="/hearing/audiologist/\(signedID).svg" download="\(escaped(code.fileStem)).svg">Download the SVG</a>
            </p>
            <p class="help">The code holds the patient's name and audiogram: hand it to the patient only.</p>
            </section>
            """
        }
        let values = form ?? AudiologistForm(fields: FormFields(encoded: "maximum=100&rule=fig6"))
        func text(_ id: String, _ label: String, _ name: String, help: String? = nil, required: Bool = false, inputMode: String? = nil,
                  type: String = "text", autocomplete: String = "off") -> String {
            let described = help.map { _ in " aria-describedby=\"\(id)-help\"" } ?? ""
            let value = type == "password" ? "" : " value=\"\(escaped(values[name]))\""
            return "<div class=\"field\"><label for=\"\(id)\">\(label)</label>" + (help.map { "<p id=\"\(id)-help\" class=\"help\">\(escaped($0))</p>" } ?? "")
                + "<input id=\"\(id)\" name=\"\(name)\" type=\"\(type)\"\(value)\(inputMode.map { " inputmode=\"\($0)\"" } ?? "") autocomplete=\"\(autocomplete)\"\(described)\(required ? " required" : "")></div>"
        }
        body += "<form method=\"post\" action=\"/hearing/audiologist\">\(formTokenField(formToken))"
        body += "<section aria-labelledby=\"patient-heading\"><h2 id=\"patient-heading\">Patient</h2>"
        body += text("patient-name", "Patient's name", "patient", required: true)
        body += text("patient-reference", "Patient number (optional)", "reference")
        body += text("birth-year", "Year of birth (optional)", "birthYear", inputMode: "numeric")
        body += "</section>"
        body += "<section aria-labelledby=\"audiogram-heading\"><h2 id=\"audiogram-heading\">Audiogram</h2>"
        body += "<p class=\"help\" id=\"audiogram-help\">Thresholds in dB HL, −10 to 120. Leave a frequency empty when it was not measured: it is interpolated.</p>"
        for ear in [Ear.right, .left] {
            body += "<fieldset class=\"thresholds\"><legend>\(ear.name.capitalized) ear thresholds (dB HL)</legend><div class=\"grid-fields\">"
            for frequency in AudiometricFrequency.all {
                let name = AudiologistForm.thresholdField(ear, frequency)
                body += "<div class=\"field\"><label for=\"\(name)\">\(Int(frequency)) Hz</label>"
                    + "<input id=\"\(name)\" name=\"\(name)\" type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" value=\"\(escaped(values[name]))\" aria-describedby=\"audiogram-help\"></div>"
            }
            body += "</div></fieldset>"
        }
        body += "</section><section aria-labelledby=\"fitting-heading\"><h2 id=\"fitting-heading\">Fitting</h2>"
        let rules = FittingRule.allCases.map { rule -> String in
            "<option value=\"\(rule.rawValue)\"\(values["rule"] == rule.rawValue ? " selected" : "")>\(rule.rawValue)</option>"
        }.joined(separator: "")
        body += "<div class=\"field\"><label for=\"rule\">Fitting rule</label><select id=\"rule\" name=\"rule\">\(rules)</select></div>"
        body += text("maximum", "Maximum output (dB SPL)", "maximum", help: "60 to 111 dB SPL.", inputMode: "numeric")
        let chosen = form.map { form in ListeningProgram.allCases.filter { form["program-\($0.rawValue)"] == "yes" } } ?? ListeningProgram.allCases
        body += "<fieldset><legend>Programs the patient may use</legend>" + ListeningProgram.allCases.map { program -> String in
            "<div class=\"check\"><input id=\"program-\(program.rawValue)\" name=\"program-\(program.rawValue)\" type=\"checkbox\" value=\"yes\"\(chosen.contains(program) ? " checked" : "")>"
                + "<label for=\"program-\(program.rawValue)\">\(program.rawValue)</label></div>"
        }.joined(separator: "") + "</fieldset>"
        body += text("trial-days", "Trial days (optional)", "trialDays", help: "A trial prescription is refused after this many days, 1 to 365.", inputMode: "numeric")
        body += "<div class=\"check\"><input id=\"debug\" name=\"debug\" type=\"checkbox\" value=\"yes\"\(values["debug"] == "yes" ? " checked" : "")>"
            + "<label for=\"debug\">Debug prescription (unlocks the Debug page; not a fitting to hear through)</label></div>"
        body += "</section><section aria-labelledby=\"key-heading\"><h2 id=\"key-heading\">Signing key</h2>"
        body += text("key-file", "Signing key file", "key", help: "The PREFIX.key file assist rx keygen made, as a path on this computer.", required: true)
        body += text("key-passphrase", "Signing key passphrase", "keyPassphrase", required: true, type: "password")
        body += "<div class=\"row\"><button type=\"submit\">Sign the prescription</button></div></section></form>"
        return pageDocument(.audiologist, body: body, message: message)
    }

    /// What signing gave: the id of the kept code, or the refusal in one sentence.
    enum SigningOutcome {
        case signed(id: String)
        case refused(PageMessage)
    }

    /// Signs the form's prescription.
    func sign(form: FormFields) -> SigningOutcome {
        let values = AudiologistForm(fields: form)
        func refuse(_ text: String, field: String? = nil, name: String? = nil) -> SigningOutcome {
            .refused(PageMessage(text: text, isWarning: true, fieldID: field, fieldName: name))
        }
        let name = values["patient"].trimmingCharacters(in: .whitespaces)
        var birthYear: Int?
        if !values["birthYear"].isEmpty {
            guard let year = Int(values["birthYear"].trimmingCharacters(in: .whitespaces)) else {
                return refuse("“\(values["birthYear"])” is not a year of birth.", field: "birth-year", name: "the year of birth")
            }
            birthYear = year
        }
        var request = PrescriptionRequest(patient: .init(name: name, reference: values["reference"].trimmingCharacters(in: .whitespaces), birthYear: birthYear))
        request.rule = values["rule"]
        if !values["maximum"].isEmpty {
            guard let maximum = Int(values["maximum"].trimmingCharacters(in: .whitespaces)) else {
                return refuse("“\(values["maximum"])” is not a number of dB SPL.", field: "maximum", name: "the maximum output")
            }
            request.maximumOutputSPL = maximum
        }
        let programs = ListeningProgram.allCases.filter { values["program-\($0.rawValue)"] == "yes" }
        guard !programs.isEmpty else { return refuse("Choose at least one program the patient may use.", field: "program-quiet", name: "the programs") }
        request.programs = programs.map(\.rawValue).joined(separator: ",")
        if !values["trialDays"].isEmpty {
            guard let days = Int(values["trialDays"].trimmingCharacters(in: .whitespaces)), (1...365).contains(days) else {
                return refuse("Trial days must be a whole number from 1 to 365.", field: "trial-days", name: "the trial days")
            }
            request.trialDays = days
        }
        request.isDebug = values["debug"] == "yes"
        do {
            let audiogram = try Self.audiogram(from: values)
            let key = try AudiologistSigningKey.load(from: URL(fileURLWithPath: values["key"]), passphrase: values["keyPassphrase"])
            let signed = try request.sign(with: key, now: clock(), askAudiogram: { audiogram })
            let stem = "prescription-" + (name.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(24)) + "-" + PrescriptionDescription.day(signed.document.issued)
            return .signed(id: keep(signed, fileStem: stem))
        } catch {
            return refuse(userMessage(for: error))
        }
    }

    /// The thresholds typed in: an empty field is not measured; anything that is not a number is
    /// refused with the sentence `assist rx create` gives when they are typed at the terminal.
    static func audiogram(from values: AudiologistForm) throws -> Audiogram {
        func ear(_ ear: Ear) throws -> EarAudiogram {
            var thresholds: [Double: Double] = [:]
            for frequency in AudiometricFrequency.all {
                let typed = values[AudiologistForm.thresholdField(ear, frequency)].trimmingCharacters(in: .whitespaces)
                if typed.isEmpty { continue }
                guard let value = Double(typed.replacingOccurrences(of: "−", with: "-")) else { throw PrescriptionError.notAThreshold(typed) }
                thresholds[frequency] = value
            }
            return try EarAudiogram(ear: ear, thresholdsHL: thresholds)
        }
        return Audiogram(left: try ear(.left), right: try ear(.right))
    }
}
