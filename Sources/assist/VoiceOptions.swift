import ArgumentParser
import AssistCore
import Commands
import Foundation
import SessionControl
import LiveGuidance
import VoiceInput

/// `assist see`/`assist console` options for spoken commands.
struct VoiceOptions: ParsableArguments, Sendable {
    @Flag(help: "Listen for spoken commands on the microphone (\"scan now\", \"find a chair\", …), recognised offline. Speech that cannot be made out over loud noise is not acted on (you hear that it is too noisy); type commands with assist console or assist ctl there.")
    var listen = false

    @Option(help: ArgumentHelp("Take spoken commands from this recording instead of the microphone, played as if spoken live (for demonstrations and tests). With --speak-to it is heard on the input's clock: its start is the input's start, and each command is carried out when it was said, however fast the render runs.", valueName: "audio"))
    var listenFile: String?

    @Option(help: "With --listen: act only on commands that start with this phrase, e.g. assistant.")
    var wakePhrase: String?

    @Option(help: "With --listen: part of the microphone's name (see assist devices).")
    var microphone: String?

    @Option(help: ArgumentHelp("With --listen: how speech is decoded: \(ListeningDecoding.choicesHelp) (the only choice).", valueName: "neural"))
    var decode = ListeningDecoding.standard.rawValue

    @Option(help: ArgumentHelp("Take commands from a headset's or keyboard's media keys on this evdev device (or a recording of its events): play/pause scans, next explores, previous repeats, holding play/pause silences.", valueName: "device"))
    var keys: String?

    @Option(help: ArgumentHelp("With --keys: what each key does, e.g. \"playPause=scanNow, next=exploreScene, previous=repeatLast, long playPause=stopTalking\".", valueName: "mapping"))
    var keyMap: String?

    var isWanted: Bool { listen || listenFile != nil }

    var sources: VoiceCommandSources {
        VoiceCommandSources(listen: listen, listenFile: listenFile, wakePhrase: wakePhrase, microphone: microphone, keys: keys,
                            decoding: ListeningDecoding(choice: decode) ?? .standard, keyMap: (try? keyMap.map { try MediaKeyMap(setting: $0) }) ?? .standard)
    }

    func validate() throws {
        guard ListeningDecoding(choice: decode) != nil else { throw ValidationError("--decode \(decode)" + ListeningDecoding.problem(withChoice: decode)) }
        if listen && listenFile != nil { throw ValidationError("Use either --listen (the microphone) or --listen-file, not both.") }
        if let keyMap { do { _ = try MediaKeyMap(setting: keyMap) } catch { throw ValidationError(error.userMessage) } }
        if keyMap != nil && keys == nil { throw ValidationError("--key-map goes with --keys.") }
        if !isWanted && (wakePhrase != nil || microphone != nil) {
            throw ValidationError("--wake-phrase and --microphone go with --listen.")
        }
    }
}
