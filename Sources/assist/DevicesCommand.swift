import ArgumentParser
import AssistCore
import Foundation
import Media
import Speech

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Lists the audio output devices (by index and name) and the vibration devices.",
        discussion: """
        Give a device to a speaking command with --audio-device, by its index or part of its name:
          assist say "Hello." --audio-device 3
          assist say "Hello." --audio-device USB
        """)

    func run() async throws {
        let outputs: [AudioDevice]
        do { outputs = try SoundCardPlayback.outputDevices() } catch {
            throw CommandFailure(userMessage(for: error), status: .failed)
        }
        if outputs.isEmpty {
            print("No audio output device was found; speech can still be rendered into a file with --speak-to FILE.wav.")
        } else {
            print("Audio outputs:")
            for device in outputs {
                let channels = device.outputChannels == 1 ? "mono" : "\(device.outputChannels) channels"
                print("  \(device.index)  \(device.name)  (\(device.hostAPI), \(channels), \(Int(device.defaultSampleRate)) Hz)")
            }
        }
        if let vibration = ForceFeedbackVibration.findDevice() {
            print("Vibration: \(vibration.path)  \(vibration.name)")
        } else {
            print("Vibration: none (\(HapticError.notAvailable.userMessage.dropLast()), or the input devices may not be opened by this user).")
        }
    }
}
