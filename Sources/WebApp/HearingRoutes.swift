import AssistCore
import Foundation
import Hummingbird
import LiveHearing
import NIOCore
import Prescription
import ServiceLifecycle

extension HearingPages {
    /// The hearing pages' routes, behind the same access check as every other page (the router's
    /// middleware runs first).
    func addRoutes(to router: Router<WebContext>, formToken: String) {
        router.get("/hearing") { [self] _, _ in html(renderHome(formToken: formToken)) }
        router.post("/hearing/unlock") { [self] request, _ in
            let form = try await WebApp.form(request)
            let message = unlock(passphrase: form["passphrase"] ?? "", repeated: form["repeat"])
            let page = WebPage(rawValue: form["return"] ?? "") ?? .hearing
            return html(render(page, formToken: formToken, message: message), status: message.isWarning ? .unprocessableContent : .ok)
        }
        router.post("/hearing/lock") { [self] _, _ in html(renderHome(formToken: formToken, message: lock())) }
        router.post("/hearing/program") { [self] request, _ in
            let form = try await WebApp.form(request)
            let message = perform(.program(form["program"] ?? "")) { aid in
                "Now in program \(aid.control.settings.program.rawValue)."
            }
            return html(renderHome(formToken: formToken, message: message), status: message.isWarning ? .unprocessableContent : .ok)
        }
        router.post("/hearing/volume") { [self] request, _ in
            let form = try await WebApp.form(request)
            let command: LiveHearingCommand? = form["change"] == "louder" ? .louder : form["change"] == "softer" ? .softer : nil
            guard let command else {
                return html(renderHome(formToken: formToken, message: PageMessage(text: "Choose Louder or Softer.", isWarning: true)), status: .unprocessableContent)
            }
            let message = perform(command) { aid in
                let settings = aid.control.settings
                let atLimit = settings.volumeSteps >= settings.maximumVolumeSteps && command == .louder
                    || settings.volumeSteps <= settings.minimumVolumeSteps && command == .softer
                return "Volume \(Self.volumeText(settings.volumeDecibels))" + (atLimit ? ", the limit your audiologist set." : ".")
            }
            return html(renderHome(formToken: formToken, message: message), status: message.isWarning ? .unprocessableContent : .ok)
        }
        router.get("/hearing/events") { [self] _, _ in
            let sentences = announcements.listen()
            return Self.eventStream(AsyncStream<String> { continuation in
                let task = Task {
                    for await sentence in sentences { continuation.yield("data: \(sentence.text.replacingOccurrences(of: "\n", with: " "))\n\n") }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            })
        }

        router.get("/hearing/prescriptions") { [self] _, _ in html(renderPrescriptions(formToken: formToken)) }
        router.post("/hearing/prescriptions/import") { [self] request, _ in
            var request = request
            let body = try await request.collectBody(upTo: MultipartForm.maximumBytes)
            let form = try? MultipartForm(body: Data(body.readableBytesView), contentType: request.headers[.contentType])
            // Decoding and searching a large photo takes seconds of CPU: on a thread of its own,
            // so the shared pool (two threads on two cores) goes on answering other pages.
            let message = await withCheckedContinuation { continuation in
                Thread { [self] in continuation.resume(returning: importPicture(form)) }.start()
            }
            return html(renderPrescriptions(formToken: formToken, message: message), status: message.isWarning ? .unprocessableContent : .ok)
        }
        router.get("/hearing/prescriptions/:id") { [self] _, context in
            html(renderDetails(id: context.parameters.get("id") ?? "", formToken: formToken).0)
        }
        router.post("/hearing/prescriptions/:id/use") { [self] _, context in
            let message = use(context.parameters.get("id") ?? "")
            return html(renderPrescriptions(formToken: formToken, message: message), status: message.isWarning ? .unprocessableContent : .ok)
        }
        router.get("/hearing/prescriptions/:id/delete") { [self] _, context in
            html(renderDeleteConfirmation(id: context.parameters.get("id") ?? "", formToken: formToken))
        }
        router.post("/hearing/prescriptions/:id/delete") { [self] request, context in
            let form = try await WebApp.form(request)
            let message = delete(context.parameters.get("id") ?? "", confirmed: form["confirm"] == "yes")
            return html(renderPrescriptions(formToken: formToken, message: message), status: message.isWarning ? .unprocessableContent : .ok)
        }

        router.get("/hearing/debug") { [self] _, _ in
            let (page, refused) = renderDebug(formToken: formToken)
            return html(page, status: refused ? .forbidden : .ok)
        }
        router.get("/hearing/debug/events") { [self] _, _ in
            guard case .success = debugAuthorisation() else {
                return plain(PrescriptionError.debuggingModeLocked.userMessage, status: .forbidden)
            }
            guard let aid = session else { return plain(noAidSentence, status: .conflict) }
            let frames = AsyncStream<String> { continuation in
                let task = Task {
                    // About ten a second: what the eye follows, and no more than the monitors change.
                    while !Task.isCancelled {
                        continuation.yield(DebugFrame(monitors: aid.control.monitors).event)
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            return Self.eventStream(frames)
        }
        router.post("/hearing/debug/threshold") { [self] request, _ in
            let form = try await WebApp.form(request)
            guard case .success = debugAuthorisation() else {
                let (page, _) = renderDebug(formToken: formToken)
                return html(page, status: .forbidden)
            }
            let message = changeThreshold(form: form)
            return html(renderDebug(formToken: formToken, message: message).page, status: message.isWarning ? .unprocessableContent : .ok)
        }

        router.get("/hearing/audiologist") { [self] _, _ in html(renderAudiologist(formToken: formToken)) }
        router.post("/hearing/audiologist") { [self] request, _ in
            let form = try await WebApp.form(request)
            switch sign(form: form) {
            case .signed(let id):
                return html(renderAudiologist(formToken: formToken, signedID: id,
                                              message: PageMessage(text: "Signed. The QR code is below, with its PNG and SVG files.", isWarning: false)))
            case .refused(let message):
                return html(renderAudiologist(formToken: formToken, form: AudiologistForm(fields: form), message: message), status: .unprocessableContent)
            }
        }
        router.get("/hearing/audiologist/:file") { [self] _, context in
            let file = context.parameters.get("file") ?? ""
            let parts = file.split(separator: ".")
            guard parts.count == 2, let code = signedCode(String(parts[0])), ["png", "svg"].contains(parts[1]) else {
                return plain("There is no such signed code; sign the prescription again.", status: .notFound)
            }
            let isPNG = parts[1] == "png"
            var headers = HTTPFields()
            headers[.contentType] = isPNG ? "image/png" : "image/svg+xml"
            headers[.contentDisposition] = "attachment; filename=\"\(code.fileStem).\(parts[1])\""
            headers[.cacheControl] = "no-store"
            let bytes = isPNG ? code.signed.code.pngData() : Data(code.signed.code.svg().utf8)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    func render(_ page: WebPage, formToken: String, message: PageMessage?) -> String {
        switch page {
        case .prescriptions: return renderPrescriptions(formToken: formToken, message: message)
        case .debug: return renderDebug(formToken: formToken, message: message).page
        default: return renderHome(formToken: formToken, message: message)
        }
    }

    /// A server-sent event stream that ends when the server stops.
    static func eventStream(_ events: AsyncStream<String>) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": open\n\n"))
            for await event in events.cancelOnGracefulShutdown() {
                try await writer.write(ByteBuffer(string: event))
            }
            try await writer.finish(nil)
        })
    }

    // MARK: Actions on the store

    /// `assist rx import` for an uploaded picture: the same reading, checks and sentences. A
    /// question the command line would ask is answered by the form's check boxes.
    func importPicture(_ form: MultipartForm?) -> PageMessage {
        guard let store = unlocked else { return PageMessage(text: "Open your prescriptions with the passphrase first.", isWarning: true) }
        guard let form, let picture = form.file("picture") else {
            return PageMessage(text: "Choose the picture of the QR code to import.", isWarning: true, fieldID: "picture", fieldName: "the picture")
        }
        var told: [String] = []
        do {
            let text = try PrescriptionImport.text(pictureBytes: picture.bytes, name: picture.fileName ?? "the picture")
            let importing = PrescriptionImport(store: store, allowsAnotherPatient: form.field("another") == "yes", makesActive: form.field("use") == "yes")
            let wasInUse = try? store.activePrescription()
            try importing.run(text: text, ask: { _ in nil }, tell: { told.append($0) })
            if (try? store.activePrescription()) != wasInUse { startAid() }
            return PageMessage(text: told.joined(separator: " ").replacingOccurrences(of: "Run `assist rx use ", with: "Choose Use in the list, or run `assist rx use "), isWarning: false)
        } catch PrescriptionError.differentPatient(let imported, let stored) {
            return PageMessage(text: PrescriptionError.differentPatientSentence(imported: imported, stored: stored, confirm: Self.anotherPatientConfirmation),
                               isWarning: true, fieldID: "another-patient", fieldName: "the check box")
        } catch {
            return PageMessage(text: userMessage(for: error), isWarning: true, fieldID: "picture", fieldName: "the picture")
        }
    }

    /// How the Prescriptions page confirms another patient's prescription: its check box.
    static let anotherPatientLabel = "Import it even if it names another patient"
    static let anotherPatientConfirmation = "tick “\(anotherPatientLabel)” and send the picture again"

    func use(_ id: String) -> PageMessage {
        guard let store = unlocked else { return PageMessage(text: "Open your prescriptions with the passphrase first.", isWarning: true) }
        do {
            try store.use(id)
            startAid()
            return PageMessage(text: "Now using \(id).", isWarning: false)
        } catch {
            return PageMessage(text: userMessage(for: error), isWarning: true)
        }
    }

    /// Deletes only when the confirmation page's button sent `confirm=yes`.
    func delete(_ id: String, confirmed: Bool) -> PageMessage {
        guard let store = unlocked else { return PageMessage(text: "Open your prescriptions with the passphrase first.", isWarning: true) }
        guard confirmed else {
            return PageMessage(text: "Nothing was deleted: deleting a prescription needs the confirmation on its Delete page.", isWarning: true)
        }
        do {
            let wasInUse = (try? store.profiles().first { $0.id == id })?.isActive ?? false
            try store.delete(id)
            if wasInUse { stopAid() }
            return PageMessage(text: "Deleted \(id)." + (wasInUse ? " It was the prescription in use, so none is in use now." : ""), isWarning: false)
        } catch {
            return PageMessage(text: userMessage(for: error), isWarning: true)
        }
    }
}
