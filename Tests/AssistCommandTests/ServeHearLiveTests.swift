import Foundation
import TestSupport
import Testing

/// `assist serve --hear-live` against a JACK server of the test's own (dummy backend): the
/// patient opens the store on the page, and the page's forms reach the hearing aid that runs on
/// the sound server. Every step waits for what the server says or answers, never for a time.
@Suite("assist serve --hear-live: the Patient home controls the live hearing aid", .serialized)
struct ServeHearLiveTests {
    /// A running `assist serve`, spoken to as a browser does (curl: the access cookie, the page's
    /// form token, the page's own origin).
    final class Server {
        let process = Process()
        let errorLines: PrintedLines
        let address: String
        let token: String
        private(set) var formToken = ""

        init(_ arguments: [String], environment: [String: String]) throws {
            process.executableURL = AssistBinary.url
            process.arguments = ["serve", "--port", "0"] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = FileHandle.nullDevice
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            errorLines = PrintedLines(errors.fileHandleForReading)
            try process.run()
            // The first line names the address and token; reading it waits for the server to listen.
            var printed = ""
            while !printed.contains("\n"), case let data = output.fileHandleForReading.availableData, !data.isEmpty {
                printed += String(decoding: data, as: UTF8.self)
            }
            guard let open = printed.range(of: "http://"), let query = printed.range(of: "/?token="),
                  let end = printed[query.upperBound...].firstIndex(of: " ") else {
                throw JackServer.Failed(description: "assist serve printed no address: \(printed)")
            }
            address = String(printed[open.lowerBound..<query.lowerBound])
            token = String(printed[query.upperBound..<end])
            formToken = try Self.formToken(in: get("/hearing"))
        }

        static func formToken(in page: String) throws -> String {
            guard let field = page.range(of: "name=\"form_token\" value=\""),
                  let end = page[field.upperBound...].firstIndex(of: "\"") else {
                throw JackServer.Failed(description: "no form token in the page")
            }
            return String(page[field.upperBound..<end])
        }

        private func curl(_ path: String, _ extra: [String]) throws -> String {
            // --max-time only catches a hang (10 minutes); a store opened with the standard scrypt
            // cost takes seconds on a loaded machine.
            let result = try Program.run(URL(fileURLWithPath: "/usr/bin/curl"),
                                         ["-s", "--max-time", "600", "-H", "Cookie: assist_access=\(token)"] + extra + [address + path])
            guard result.status == 0 else { throw JackServer.Failed(description: "curl \(path) failed: \(result.standardError)") }
            return result.standardOutput
        }

        func get(_ path: String) throws -> String { try curl(path, []) }

        func post(_ path: String, _ form: [String: String]) throws -> String {
            let fields = form.merging(["form_token": formToken]) { $1 }.flatMap { ["--data-urlencode", "\($0.key)=\($0.value)"] }
            return try curl(path, ["-H", "Origin: \(address)"] + fields)
        }

        /// What the page says about the hearing aid (the `aid-state` paragraph's text).
        static func aidState(in page: String) -> String? {
            guard let start = page.range(of: "id=\"aid-state\">"), let end = page[start.upperBound...].range(of: "</p>") else { return nil }
            return String(page[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }

        /// Ctrl-C, as the user stops it; waits for it to end. A server still running minutes
        /// later fails the test and is killed, so that it cannot hang the test run.
        func stop() {
            guard process.isRunning else { return }
            process.interrupt()
            guard ServeHostileTests.waitForExit(process) else {
                Issue.record("assist serve was still running 180 s after Ctrl-C; killed")
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return
            }
        }
    }

    /// A patient whose store holds the clinic's fitting prescription (programs quiet,
    /// conversation in noise, TV), in use.
    static func patientWithPrescription() throws -> RxPatient {
        let patient = try RxPatient()
        #expect(try patient.run(["rx", "trust", patient.path("ruiz.pub"), "--yes"]).status == 0)
        let imported = try patient.run(["rx", "import", patient.path("fitting.png")])
        try #require(imported.status == 0, "\(imported.standardError)")
        return patient
    }

    /// Processes whose command line or environment names `server` (jackd and its clients).
    static func processes(naming server: String) -> [String] {
        let own = ProcessInfo.processInfo.processIdentifier
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap(Int32.init) ?? []
        return ids.filter { $0 != own }.compactMap { id in
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(id)/cmdline"))) ?? Data()
            let environment = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(id)/environ"))) ?? Data()
            let text = String(decoding: command + environment, as: UTF8.self)
            return text.contains(server) ? "\(id): \(String(decoding: command, as: UTF8.self))" : nil
        }
    }

    @Test("""
        the Patient home's program switch and Softer/Louder reach the hearing aid running on the JACK server; the page says \
        when the server goes away and when the sound is back; stopping the server closes its JACK client and leaves no process
        """)
    func pageControlsLiveAid() throws {
        let patient = try Self.patientWithPrescription()
        defer { patient.remove() }
        let jack = try JackServer()
        defer { jack.stop() }
        let server = try Server(["--hear-live"], environment: patient.environment.merging(jack.environment) { $1 })
        defer { server.stop() }

        let before = try server.get("/hearing")
        #expect(Server.aidState(in: before) == "The live hearing aid starts once the prescriptions are opened with the passphrase.")
        // Opening the store starts the aid; the page that answers knows it runs.
        let opened = try server.post("/hearing/unlock", ["passphrase": RxClinic.patientPassphrase, "return": "hearing"])
        let running = try #require(Server.aidState(in: opened))
        #expect(running.hasPrefix("The live hearing aid is running through system → system [JACK], 48000 Hz, 64-frame buffers, in program quiet"), "\(running)")
        #expect(try jack.waitForPort("assist-hear:out_1"))
        #expect(opened.contains("<select id=\"program\" name=\"program\">") && opened.contains("value=\"louder\">Louder</button>"))

        let tv = try server.post("/hearing/program", ["program": "tv"])
        #expect(tv.contains("Now in program tv."))
        #expect(Server.aidState(in: tv)?.contains("in program tv, volume as prescribed (0 dB)") == true, "\(Server.aidState(in: tv) ?? tv)")
        // Said by the running aid itself (in the ear and on the server's standard error).
        #expect(server.errorLines.wait(for: "Program tv."))
        let music = try server.post("/hearing/program", ["program": "music"])
        #expect(music.contains("Your prescription has no music program; it has quiet, conversation-in-noise, tv."))
        let louder = try server.post("/hearing/volume", ["change": "louder"])
        #expect(Server.aidState(in: louder)?.contains("in program tv, volume +2 dB") == true, "\(Server.aidState(in: louder) ?? louder)")
        let softer = try server.post("/hearing/volume", ["change": "softer"])
        #expect(Server.aidState(in: softer)?.contains("volume as prescribed (0 dB)") == true)

        // The sound server goes away and comes back: the page says so in words.
        jack.stop()
        try #require(server.errorLines.wait(for: "The sound device went away; trying again."))
        #expect(Server.aidState(in: try server.get("/hearing")) == "The sound device went away; trying again.")
        try jack.start()
        try #require(server.errorLines.wait(for: "The sound is back."))
        #expect(try jack.waitForPort("assist-hear:out_1"))
        let back = try #require(Server.aidState(in: try server.get("/hearing")))
        #expect(back.contains("in program tv"), "\(back)")

        // Ctrl-C: the server ends, its JACK client with it.
        server.stop()
        #expect(server.process.terminationReason == .exit)
        #expect(try !jack.run("jack_lsp", []).output.contains("assist-hear"))
        jack.stop()
        #expect(Self.processes(naming: jack.name).isEmpty, "\(Self.processes(naming: jack.name))")
    }

    @Test("--hear-live and --hear-input together are refused as bad usage, in one sentence")
    func oneHearingInput() throws {
        let both = try AssistBinary.run(["serve", "--port", "0", "--hear-live", "--hear-input", "talk.wav"], input: .nothing)
        #expect(both.status == 64)
        #expect(both.standardError.contains("Give either --hear-input or --hear-live, not both."), "\(both.standardError)")
    }

    @Test("without the sound device it names, the page and the server's standard error say so in one sentence, and the server goes on")
    func noSoundDevice() throws {
        let patient = try Self.patientWithPrescription()
        defer { patient.remove() }
        // No JACK server by that name, and a device PortAudio does not have.
        let server = try Server(["--hear-live", "--input-device", "no-such-microphone"],
                                environment: patient.environment.merging(["JACK_DEFAULT_SERVER": "assist-test-none-\(UUID().uuidString.prefix(8))",
                                                                          "JACK_NO_START_SERVER": "1"]) { $1 })
        defer { server.stop() }
        let opened = try server.post("/hearing/unlock", ["passphrase": RxClinic.patientPassphrase, "return": "hearing"])
        let sentence = try #require(Server.aidState(in: opened))
        #expect(sentence.hasPrefix("There is no audio device named “no-such-microphone”") || sentence.hasPrefix("No audio device was found"), "\(sentence)")
        #expect(server.errorLines.wait(for: sentence))
        let refused = try server.post("/hearing/program", ["program": "tv"])
        #expect(Server.aidState(in: refused) == sentence)
        #expect(try server.get("/hearing").contains("Prescriptions"))
        server.stop()
        #expect(server.process.terminationReason == .exit)
    }
}
