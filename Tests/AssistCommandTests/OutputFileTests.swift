import Foundation
import TestSupport
import Testing

/// Issue 16: files the user asks for are written whole and readable by the user alone, or not at
/// all, and the user is told what was not saved (never Foundation's "Error Domain=…", never exit 0).
@Suite("Output files: all or nothing, 0600, failures said")
struct OutputFileTests {
    private func scratch() throws -> URL {
        let folder = try TemporaryFolder.make("output-files")
        return folder
    }

    private func mode(_ url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? -1
    }

    @Test("rx create: a missing folder is said in words; the PNG and SVG it writes are 0600; a non-UTF-8 CSV is named as such")
    func prescriptionPictures() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pass = folder.appendingPathComponent("key-pass")
        try Data("clinic passphrase\n".utf8).write(to: pass)
        let csv = folder.appendingPathComponent("audiogram.csv")
        try Data("frequency,left,right\n500,30,30\n1000,40,45\n2000,55,60\n".utf8).write(to: csv)
        let key = folder.appendingPathComponent("clinic")
        let keygen = try AssistBinary.run(["rx", "keygen", "--name", "Dr. Ana Ruiz", "--id", "AUD-1", "--output", key.path, "--passphrase-file", pass.path])
        #expect(keygen.status == 0, "\(keygen.standardError)")
        func create(_ output: URL, audiogram: URL = csv) throws -> AssistBinary.Output {
            try AssistBinary.run(["rx", "create", "--key", key.path + ".key", "--passphrase-file", pass.path, "--patient", "Margarethe Quellenhof",
                                  "--audiogram", audiogram.path, "--output", output.path, "--quiet"])
        }
        let missing = folder.appendingPathComponent("missing/dir/rx")
        let refused = try create(missing)
        #expect(refused.status == 1)
        #expect(refused.standardError == "The folder \(missing.deletingLastPathComponent().path) does not exist, so \(missing.path).png was not saved.\n")

        let written = try create(folder.appendingPathComponent("rx"))
        #expect(written.status == 0, "\(written.standardError)")
        #expect(try mode(folder.appendingPathComponent("rx.png")) == 0o600)
        #expect(try mode(folder.appendingPathComponent("rx.svg")) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains("partial") })

        let latin1 = folder.appendingPathComponent("latin1.csv")
        try Data("frequency,left,right\n# Patient: M\u{FC}ller\n500,30,30\n".utf8.map { $0 }).write(to: latin1)
        var bytes = try Data(contentsOf: latin1)
        if let index = bytes.firstIndex(of: 0xC3) { bytes.replaceSubrange(index...index + 1, with: [0xFC]) }
        try bytes.write(to: latin1)
        let notUTF8 = try create(folder.appendingPathComponent("rx2"), audiogram: latin1)
        #expect(notUTF8.status == 1)
        #expect(notUTF8.standardError.contains("is not UTF-8 text"), "\(notUTF8.standardError)")
    }

    @Test("backup export to a missing folder says the folder is missing, not that something cannot be read")
    func backupToMissingFolder() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = AssistBinary.userFolders()
        defer { user.remove() }
        var environment = user.environment
        environment["ASSIST_BACKUP_PASSPHRASE"] = "correct horse battery staple"
        let target = folder.appendingPathComponent("missing/b.akb")
        let output = try AssistBinary.run(["backup", "export", target.path], environment: environment)
        #expect(output.status == 1)
        #expect(output.standardError == "The folder \(target.deletingLastPathComponent().path) does not exist, so \(target.path) was not saved.\n")
    }

    /// Runs `assist ARGUMENTS` with writes limited to `blocks` 512-byte blocks per file:
    /// RLIMIT_FSIZE makes every write past the limit fail with EFBIG, as a full disk fails with
    /// ENOSPC; SIGXFSZ is ignored so the write fails instead of killing the process. Returns the
    /// exit status and standard error.
    private func withFileSizeLimit(blocks: Int, _ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, errors: String) {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" \"$@\"", AssistBinary.url.path] + arguments
        if let environment { shell.environment = environment.merging(ProcessInfo.processInfo.environment) { mine, _ in mine } }
        let errors = Pipe()
        shell.standardError = errors
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        return (shell.terminationStatus, message)
    }

    @Test("say --speak-to on a full disk (a file-size limit) leaves no file behind and says it was not saved")
    func fullDiskWAV() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("speech.wav")
        let (status, message) = try withFileSizeLimit(blocks: 1, ["say", "Chair, 2 meters, left. Bus, 4 meters, ahead.", "--speak-to", wav.path])
        #expect(status == 1, "\(message)")
        #expect(!FileManager.default.fileExists(atPath: wav.path), "a partial WAV was left behind")
        #expect(message.contains("speech.wav") && message.contains("was not saved"), "\(message)")
    }

    @Test("hear -o on a full disk (no byte may be written) leaves no file, not even a temporary one, and says so once")
    func fullDiskHear() throws {
        let folder = try HearCommandTests().workspace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("aided.wav")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        let (status, message) = try withFileSizeLimit(blocks: 0, ["hear", folder.appendingPathComponent("tone.wav").path, "-o", output.path,
                                                                  "--audiogram", folder.appendingPathComponent("me.json").path],
                                                      environment: AssistBinary.environment(scratch: folder.appendingPathComponent("user")))
        #expect(status != 0, "\(message)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "a 0-byte WAV was left behind")
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)).subtracting(before).subtracting(["user"])
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(message.contains("aided.wav") && message.contains("not saved"), "\(message)")
        #expect(message.split(separator: "\n").count == 1, "\(message)")
    }

    @Test("a transcript that cannot be written is said, and the run does not end with exit status 0")
    func transcriptNotSaved() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try AssistBinary.busVideo(seconds: 1, in: folder)
        let output = try AssistBinary.run(["see", video.path, "--speak-to", folder.appendingPathComponent("o.wav").path,
                                           "--frame-cost", "0.1", "--transcript", folder.appendingPathComponent("missing/t.srt").path])
        #expect(output.status == 1)
        #expect(output.standardError.contains("The transcript was not saved: The folder"), "\(output.standardError)")
    }
}
