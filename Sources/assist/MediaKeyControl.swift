import SessionControl
import AssistCore
import Commands
import Foundation
import LiveGuidance
import VoiceInput

/// Headset or keyboard media keys for a live session (`--keys /dev/input/eventN`): each press
/// becomes the session command its mapping names. Never silent: a device that cannot be read is
/// said, with the other ways to give commands.
enum MediaKeyControl {
    static func start(device: String, map: MediaKeyMap, session: SessionControls) {
        let thread = Thread {
            do {
                try MediaKeyReader.read(path: device) { press in
                    guard let command = map.command(for: press),
                          let sessionCommand = CommandController.sessionCommand(for: command) else { return }
                    session.send(sessionCommand)
                }
            } catch {
                let reason = userMessage(for: error)
                session.send(.say("Media keys are unavailable. \(reason)"))
                FileHandle.standardError.write(Data("Media keys are unavailable: \(reason)\n".utf8))
            }
        }
        thread.name = "assist media keys"
        thread.start()
    }
}
