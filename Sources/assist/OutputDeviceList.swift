import AssistCore
import Foundation
import Media
import Speech

/// What `assist devices` lists: the audio outputs by index and name (the index or part of the
/// name is what `--audio-device` takes), and the vibration device, or why there is none.
enum OutputDeviceList {
    static func lines() throws -> [String] {
        let outputs = try SoundCardPlayback.outputDevices()
        var lines: [String] = []
        if outputs.isEmpty {
            lines.append("No audio output device was found; speech can still be rendered into a file with --speak-to FILE.wav.")
        } else {
            lines.append("Audio outputs:")
            for device in outputs {
                let channels = device.outputChannels == 1 ? "mono" : "\(device.outputChannels) channels"
                lines.append("  \(device.index)  \(device.name)  (\(device.hostAPI), \(channels), \(Int(device.defaultSampleRate)) Hz)")
            }
        }
        if let vibration = ForceFeedbackVibration.findDevice() {
            lines.append("Vibration: \(vibration.path)  \(vibration.name)")
        } else {
            lines.append("Vibration: none (\(HapticError.notAvailable.userMessage.dropLast()), or the input devices may not be opened by this user).")
        }
        return lines
    }
}
