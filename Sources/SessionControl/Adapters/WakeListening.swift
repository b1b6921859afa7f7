import AssistCore
import Commands
import Foundation
import VoiceInput

/// `assist wake`: listens for "Assistive Vision" alone (one listener per user) and, each time it is
/// heard, starts guidance as a child process and waits for it to end before listening again.
public struct WakeListening {
    /// A recording to listen to instead of the microphone.
    public var file: String?
    /// Part of the microphone's name.
    public var microphone: String?
    /// What to start when woken: assist's own arguments, split at spaces.
    public var then: String
    /// Only print that the phrase was heard; start nothing.
    public var printsOnly: Bool

    public init(file: String?, microphone: String?, then: String, printsOnly: Bool) {
        self.file = file
        self.microphone = microphone
        self.then = then
        self.printsOnly = printsOnly
    }

    public func run() throws {
        let lock: WakeListenerLock
        lock = try WakeListenerLock.acquire()
        defer { lock.release() }
        let spotter: WakePhraseSpotter
        if let files = try? SpeechModelFiles.installed(), files.needsPreparing,
           let language = try? CommandLanguage(categories: []) {
            FileHandle.standardError.write(Data("\(language.sentence(.preparingSpeechRecognition))\n".utf8))
        }
        do { spotter = try WakePhraseSpotter(files: try SpeechModelFiles.installed()) } catch {
            throw WakeListenerLock.Failure.cannotListen(reason: userMessage(for: error))
        }
        let source: SpeechAudioSource = try file.map { try AudioFileSpeechSource(url: URL(fileURLWithPath: $0)) }
            ?? MicrophoneSpeechSource(deviceName: microphone)
        if file == nil { FileHandle.standardError.write(Data("Listening for “Assistive Vision”. Ctrl-C stops.\n".utf8)) }
        try spotter.listen(to: source) { seconds in
            // Written at once (not buffered), so whoever reads the output hears of it now.
            FileHandle.standardOutput.write(Data(String(format: "[%.1f s] Assistive Vision activated.\n", seconds).utf8))
            guard !printsOnly else { return true }
            let guidance = Process()
            guidance.executableURL = Bundle.main.executableURL
            guidance.arguments = then.split(separator: " ").map(String.init)
            do {
                try guidance.run()
                guidance.waitUntilExit()
            } catch {
                FileHandle.standardError.write(Data("Guidance could not start: \(error.localizedDescription)\n".utf8))
            }
            return true
        }
    }
}
