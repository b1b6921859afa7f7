import AssistCore
import Foundation

/// The voices a user can choose, by name: the fast voice (espeak-ng, any of its languages) and the
/// natural voice (Piper's en_US-joe-medium, English only). One place knows the names, what each
/// voice is, its licence, and how to start it with the fast voice taking over when it cannot.
public enum VoiceCatalog {
    /// Names that choose the natural voice ("use the natural voice" stores the first).
    public static let naturalNames = ["natural", "joe", NaturalVoice.name]
    /// The name that chooses espeak-ng's English ("use the fast voice" stores it).
    public static let fastName = "fast"
    /// The espeak-ng voice `fast` stands for, and the one that speaks when the natural voice cannot.
    public static let fastEspeakVoice = "en-us"

    public static func isNatural(_ voice: String) -> Bool {
        naturalNames.contains { $0.caseInsensitiveCompare(voice) == .orderedSame }
    }

    /// One line per voice for `assist say --list-voices`, with what the user must know before choosing it.
    public struct Listing: Sendable, Equatable, Codable {
        public var name: String
        public var description: String
        public var licence: String
        public var installed: Bool
    }

    public static let naturalLicenceNote = "voice data CC0 (NabuCasa voice-datasets); fine-tuned from Piper's lessac voice, "
        + "whose training data has a more restrictive licence: check it before commercial use"

    /// The natural voice, then `fast`, then every espeak-ng language.
    public static func listing(environment: [String: String] = ProcessInfo.processInfo.environment) -> [Listing] {
        let naturalFolder = naturalVoiceFolder(environment: environment)
        var lines = [
            Listing(name: "natural", description: "Piper \(NaturalVoice.name), a natural US English man's voice (also: joe); "
                        + "slower to start than the fast voice; no pitch control",
                    licence: naturalLicenceNote,
                    installed: FileManager.default.fileExists(atPath: naturalFolder.appendingPathComponent(NaturalVoice.modelFileName).path)),
            Listing(name: fastName, description: "espeak-ng US English: immediate, clear at high rates", licence: "GPL-3.0 (espeak-ng)",
                    installed: true),
        ]
        for voice in (try? SpeechSynthesizer.availableVoices()) ?? [] {
            lines.append(Listing(name: voice, description: "espeak-ng \(voice)", licence: "GPL-3.0 (espeak-ng)", installed: true))
        }
        return lines
    }

    /// Where the natural voice's files are: `$ASSIST_VOICES/en_US-joe-medium`, else `.deps/voices/…`
    /// in the working directory (where scripts/setup puts it), else in the checkout the binary was
    /// built in. The first that holds the model; the last tried when none does (for the error).
    public static func naturalVoiceFolder(environment: [String: String] = ProcessInfo.processInfo.environment,
                                          workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                                          executableURL: URL? = Bundle.main.executableURL) -> URL {
        if let named = environment["ASSIST_VOICES"], !named.isEmpty {
            return URL(fileURLWithPath: named).appendingPathComponent(NaturalVoice.name)
        }
        var candidates = [workingDirectory.appendingPathComponent(".deps/voices/\(NaturalVoice.name)")]
        // The binary lives in <checkout>/.build/<config>/assist.
        if var folder = executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() {
            for _ in 0..<5 {
                folder = folder.deletingLastPathComponent()
                candidates.append(folder.appendingPathComponent(".deps/voices/\(NaturalVoice.name)"))
            }
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(NaturalVoice.modelFileName).path) }
            ?? candidates[0]
    }

    /// A voice ready to speak, and, when the chosen one could not start, the sentence that says so.
    public struct ChosenVoice: Sendable {
        public let voice: any TextToSpeech
        /// "The natural voice … ; the fast voice speaks instead." — to be printed and spoken.
        public let fallbackNotice: String?
    }

    /// Starts the voice `settings.voice` names. The natural voice that cannot start (missing or
    /// damaged files) gives way to the fast voice with one sentence; an unknown espeak-ng voice or
    /// a setting out of range is thrown, as before.
    public static func start(_ settings: SpeechVoiceSettings, naturalFolder: URL? = nil) throws(SpeechError) -> ChosenVoice {
        var espeak = settings
        if settings.voice.caseInsensitiveCompare(fastName) == .orderedSame { espeak.voice = fastEspeakVoice }
        guard isNatural(settings.voice) else {
            return ChosenVoice(voice: try SpeechSynthesizer(settings: espeak), fallbackNotice: nil)
        }
        espeak.voice = fastEspeakVoice
        do {
            return ChosenVoice(voice: try NaturalVoice(folder: naturalFolder ?? naturalVoiceFolder(), settings: settings,
                                                       runtime: try NaturalVoiceRuntime.chosen()), fallbackNotice: nil)
        } catch let error as SpeechError {
            throw error
        } catch {
            let reason = (error as? any UserFacingError)?.userMessage ?? "The natural voice could not start."
            let notice = NaturalVoice.clause(reason).prefix(1).uppercased() + NaturalVoice.clause(reason).dropFirst()
                + "; the fast voice speaks instead."
            return ChosenVoice(voice: try SpeechSynthesizer(settings: espeak), fallbackNotice: notice)
        }
    }
}
