import Foundation
import TestSupport
import Testing

/// What an audiologist hands out, made once for these tests with the built binary: a signing key,
/// a fitting prescription (programs quiet, conversation in noise, TV) and a debug prescription,
/// as PNG QR codes, plus a 2 kHz tone and videos standing in for a camera.
enum RxClinic {
    static let keyPassphrase = "clinic passphrase"
    static let patientPassphrase = "4821 tulip"

    static let folder: Result<URL, any Error> = Result {
        let folder = try TemporaryFolder.make("rx-clinic")
        try Data("frequency,left,right\n250,20,25\n500,30,30\n1000,40,45\n2000,55,60\n4000,70,70\n".utf8)
            .write(to: folder.appendingPathComponent("audiogram.csv"))
        let environment = ["ASSIST_RX_KEY_PASSPHRASE": keyPassphrase]
        let prefix = folder.appendingPathComponent("ruiz").path
        try check(AssistBinary.run(["rx", "keygen", "--name", "Dr. Ana Ruiz", "--id", "AUD-12345", "--output", prefix], environment: environment))
        for (name, extra) in [("fitting", [String]()), ("debug", ["--debug"])] {
            try check(AssistBinary.run(["rx", "create", "--key", prefix + ".key", "--patient", "Margarethe Quellenhof",
                                        "--audiogram", folder.appendingPathComponent("audiogram.csv").path, "--rule", "nal-r",
                                        "--programs", "quiet,conversation-in-noise,tv", "--quiet",
                                        "--output", folder.appendingPathComponent(name).path] + extra, environment: environment))
        }
        try tool("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", folder.appendingPathComponent("tone.wav").path,
                                  "synth", "1", "sine", "2000", "vol", "0.05"])
        // About 63 dB SPL: soft enough that the output limit does not hide a change of gain.
        try tool("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", folder.appendingPathComponent("soft-tone.wav").path,
                                  "synth", "1", "sine", "2000", "vol", "0.005"])
        // The camera: 1 s of an empty scene, 1 s of the code out of focus, then the code turned 8°,
        // with sensor noise, as MJPEG at 10 frames a second.
        let angle = "8*PI/180"
        try tool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=white:s=640x480:r=10:d=8",
                                     "-loop", "1", "-framerate", "10", "-i", folder.appendingPathComponent("fitting.png").path,
                                     "-filter_complex", "[1:v]scale=360:360,split=2[a][b];[a]boxblur=10:2[blur];"
                                        + "[b]rotate=\(angle):c=white:ow=rotw(\(angle)):oh=roth(\(angle))[turned];"
                                        + "[0:v][blur]overlay=(W-w)/2:(H-h)/2:enable='between(t,1,2)':shortest=1[v1];"
                                        + "[v1][turned]overlay=(W-w)/2:(H-h)/2:enable='gte(t,2)':shortest=1,noise=alls=10:allf=t,format=yuvj420p",
                                     "-t", "8", "-c:v", "mjpeg", "-q:v", "3", folder.appendingPathComponent("camera.avi").path])
        try tool("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0xd8d0c0:s=640x480:r=10:d=20",
                                     "-vf", "noise=alls=12:allf=t,format=yuvj420p", "-c:v", "mjpeg", "-q:v", "3",
                                     folder.appendingPathComponent("no-code.avi").path])
        return folder
    }

    struct Failed: Error, CustomStringConvertible { let description: String }

    private static func check(_ output: AssistBinary.Output) throws {
        guard output.status == 0 else { throw Failed(description: output.standardError) }
    }

    private static func tool(_ path: String, _ arguments: [String]) throws {
        let result = try Program.run(URL(fileURLWithPath: path), arguments)
        guard result.status == 0 else { throw Failed(description: "\(path) \(arguments) failed: \(result.standardError)") }
    }
}

/// One patient's installation: their own data folder, their passphrase in the environment.
struct RxPatient {
    let clinic: URL
    let environment: [String: String]
    let remove: () -> Void

    init() throws {
        clinic = try RxClinic.folder.get()
        let folders = AssistBinary.userFolders()
        environment = folders.environment.merging(["ASSIST_RX_PASSPHRASE": RxClinic.patientPassphrase]) { $1 }
        remove = folders.remove
    }

    func path(_ name: String) -> String { clinic.appendingPathComponent(name).path }

    var store: URL { URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("assistivekit/prescriptions") }

    func run(_ arguments: [String]) throws -> AssistBinary.Output { try AssistBinary.run(arguments, environment: environment) }
}

@Suite("assist rx import --camera and assist hear through the prescription, as a patient runs them", .serialized)
struct RxPatientCommandTests {
    // Every command that opens the patient store derives its key with the standard scrypt cost
    // (128 MiB; seconds in a debug build), so the patient's path is walked once, in order, and
    // the library tests cover each case on its own.
    @Test("""
        a patient with no prescription is told what to do; imports the code from the camera after being asked aloud; \
        hears through it and only its programs, switching live; changes a reference threshold only once a debug \
        prescription is stored; and an edited prescription is refused
        """)
    func patientWalkthrough() throws {
        let patient = try RxPatient()
        defer { patient.remove() }
        let scratch = try TemporaryFolder.make("rx-patient")
        defer { try? FileManager.default.removeItem(at: scratch) }
        func file(_ name: String) -> String { scratch.appendingPathComponent(name).path }

        let nothing = try patient.run(["hear", patient.path("soft-tone.wav"), "-o", file("none.wav")])
        #expect(nothing.status == 1)
        #expect(nothing.standardError == "There is no prescription to hear through: import the QR code from your audiologist with `assist rx import PICTURE` (or `--camera`), or give an audiogram file with --audiogram.\n")

        // The camera: the code is read from the video, as from a photo; the prompt is spoken.
        #expect(try patient.run(["rx", "trust", patient.path("ruiz.pub"), "--yes"]).status == 0)
        let imported = try patient.run(["rx", "import", "--camera", patient.path("camera.avi"), "--speak-to", file("prompt.wav")])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.hasPrefix("Hold the prescription's QR code in front of the camera, about 20 centimetres away.\n"))
        #expect(imported.standardOutput.contains("fitting for Margarethe Quellenhof by Dr. Ana Ruiz"))
        #expect(imported.standardOutput.contains("now the prescription in use"))
        // Over a second of 22 050 Hz stereo 16-bit speech.
        #expect(((try FileManager.default.attributesOfItem(atPath: file("prompt.wav"))[.size] as? Int) ?? 0) > 22_050 * 4)
        // No frame was kept: the store holds only its own files.
        let stored = FileManager.default.enumerator(atPath: patient.store.path)?.allObjects.compactMap { $0 as? String } ?? []
        let kinds = Set(stored.map { URL(fileURLWithPath: $0).pathExtension })
        #expect(kinds.isSubset(of: ["", "rx", "sealed", "log", "json", "lock"]), "\(stored)")

        // Hearing through it: its programs only.
        let heard = try patient.run(["hear", patient.path("soft-tone.wav"), "-o", file("plain.wav")])
        #expect(heard.status == 0, "\(heard.standardError)")
        #expect(heard.standardOutput.contains("Hearing through prescription ") && heard.standardOutput.contains("by Dr. Ana Ruiz, issued"))
        #expect(heard.standardOutput.contains("nal-r prescription, quiet program"))
        let music = try patient.run(["hear", patient.path("soft-tone.wav"), "-o", file("music.wav"), "--program", "music"])
        #expect(music.status == 1)
        #expect(music.standardError == "Your prescription has no music program; it has quiet, conversation-in-noise, tv.\n")
        let rule = try patient.run(["hear", patient.path("soft-tone.wav"), "-o", file("rule.wav"), "--rule", "fig6"])
        #expect(rule.status != 0 && rule.standardError.contains("a prescription's rule is fixed"))
        try switchesProgramsLive(patient)

        // The debugging mode: locked without a debug prescription, then the sound follows the change.
        let locked = try patient.run(["hear", patient.path("soft-tone.wav"), "-o", file("locked.wav"), "--debug-threshold", "left:2000=80"])
        #expect(locked.status == 1)
        #expect(locked.standardError == "Changing reference thresholds needs the debugging mode, which only a signed debug prescription from your audiologist or developer unlocks; import one with `assist rx import`.\n")
        #expect(!FileManager.default.fileExists(atPath: file("locked.wav")))
        let debug = try patient.run(["rx", "import", patient.path("debug.png")])
        #expect(debug.status == 0 && debug.standardOutput.contains("debug (unlocks debugging mode)"))
        let unlocked = try patient.run(["hear", patient.path("soft-tone.wav"), "-o", file("changed.wav"),
                                        "--debug-threshold", "left:2000=80", "--debug-threshold", "right:2000=85"])
        #expect(unlocked.status == 0, "\(unlocked.standardError)")
        #expect(unlocked.standardOutput.contains("Debugging mode, unlocked by the debug prescription of Dr. Ana Ruiz: left 2000 Hz → 80 dB HL, right 2000 Hz → 85 dB HL."))
        // 55/60 → 80/85 dB HL at 2 kHz: NAL-R gives the 2 kHz tone more gain (measured: 2.8 times the amplitude).
        #expect(try SoxLevel.rms(file("changed.wav")) > 1.5 * SoxLevel.rms(file("plain.wav")))

        // Edited on disk: refused with its reason, nothing heard.
        let profiles = patient.store.appendingPathComponent("profiles")
        for name in try FileManager.default.contentsOfDirectory(atPath: profiles.path) {
            let profile = profiles.appendingPathComponent(name)
            var bytes = try Data(contentsOf: profile)
            bytes[bytes.count / 2] ^= 0x04
            try bytes.write(to: profile)
        }
        let edited = try patient.run(["hear", patient.path("soft-tone.wav"), "-o", file("edited.wav")])
        #expect(edited.status == 1)
        #expect(edited.standardError.contains("was refused: The patient store file profiles/") && edited.standardError.contains("was changed outside AssistiveKit"))
        #expect(!FileManager.default.fileExists(atPath: file("edited.wav")))
    }

    /// `hear --live` starts in the program asked for; typed names and numbers switch and are
    /// confirmed; a program the prescription lacks is refused. No sound card here: ALSA's file
    /// plugin stands in for a headset, its microphone reading silence from a file and its
    /// headphones writing to another.
    func switchesProgramsLive(_ patient: RxPatient) throws {
        let home = try TemporaryFolder.make("hear-live")
        defer { try? FileManager.default.removeItem(at: home) }
        let microphone = home.appendingPathComponent("microphone.raw"), headphones = home.appendingPathComponent("headphones.raw")
        try Data(count: 48_000 * 2 * 4 * 10).write(to: microphone)
        try """
        pcm.!default { type asym
          playback.pcm { type file slave.pcm "null" file "\(headphones.path)" format "raw" }
          capture.pcm { type file slave.pcm "null" file "/dev/null" infile "\(microphone.path)" format "raw" } }
        """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let live = try AssistBinary.run(["hear", "--live", "--program", "restaurant"],
                                        environment: patient.environment.merging(["HOME": home.path]) { $1 },
                                        input: .typed("program tv\n2\nmusic\n1\ns\nq\n"))
        #expect(live.status == 0, "\(live.standardError)")
        let lines = live.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("Program conversation-in-noise. Type a program's number or name to switch (1 quiet, 2 conversation-in-noise, 3 tv)") })
        let confirmations = Array(lines.filter { $0.hasPrefix("Program ") || $0.hasPrefix("Your prescription") }.dropFirst())
        #expect(confirmations.prefix(4) == [
            "Program tv.", "Program conversation-in-noise.",
            "Your prescription has no music program; it has quiet, conversation-in-noise, tv.", "Program quiet.",
        ])
        #expect(confirmations.count == 5 && confirmations.last?.hasPrefix("Program quiet, volume 0.0 dB") == true)
        // Sound went through: the headphones file grew.
        #expect(((try? FileManager.default.attributesOfItem(atPath: headphones.path)[.size] as? Int) ?? 0) > 0)
    }

    @Test("import --camera without a code stops at the timeout with one sentence; a missing camera gets the camera's sentence")
    func cameraFailures() throws {
        let patient = try RxPatient()
        defer { patient.remove() }
        let timedOut = try patient.run(["rx", "import", "--camera", patient.path("no-code.avi"), "--timeout", "2", "--quiet"])
        #expect(timedOut.status == 1)
        #expect(timedOut.standardError.hasSuffix("No readable QR code was seen in 2 seconds; hold the code flat, about 20 cm from the camera, in good light without glare, and try again.\n"))
        let missing = try patient.run(["rx", "import", "--camera", "/dev/video97", "--quiet"])
        #expect(missing.status == 1)
        #expect(missing.standardError.hasSuffix("No camera was found at /dev/video97; check that it is plugged in, or run assist cameras to list them.\n"))
        // Nothing was stored by either.
        #expect(!FileManager.default.fileExists(atPath: patient.store.path))
    }
}

/// RMS amplitude as sox measures it.
enum SoxLevel {
    static func rms(_ path: String) throws -> Double {
        // sox prints its statistics on standard error.
        let text = try Program.run(Program.named("sox"), [path, "-n", "stat"]).standardError
        let line = text.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude") } ?? ""
        return Double(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
    }
}
