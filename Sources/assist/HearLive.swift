import AssistCore
import Foundation
import Hearing
import Media

/// Live mode: microphone → hearing chain → headphones through PortAudio, with keyboard
/// controls on standard input (one command per line).
struct LiveHearing {
    let settings: HearingAidSettings
    let inputDevice: String?
    let outputDevice: String?
    let sampleRate: Double
    let bufferSize: Int
    let monitorFile: String?

    static func listDevices() throws {
        let audio = try AudioDuplexStream()
        let devices = audio.devices()
        guard !devices.isEmpty else { throw AudioDeviceError.noAudioDevice }
        for d in devices {
            print("\(d.name) [\(d.hostAPI)]: \(d.inputChannels) in, \(d.outputChannels) out, \(Int(d.defaultSampleRate)) Hz"
                  + (d.isProbablyBluetooth ? " (probably Bluetooth: too much delay for a hearing aid)" : ""))
        }
    }

    /// `onStarted` runs once the sound is flowing.
    func run(onStarted: () -> Void) throws {
        let audio = try AudioDuplexStream()
        let input = try audio.device(named: inputDevice, forInput: true)
        let output = try audio.device(named: outputDevice, forInput: false)
        for device in [input, output] where device.isProbablyBluetooth {
            FileHandle.standardError.write(Data(("Warning: \(device.name) looks like a Bluetooth device; Bluetooth adds 100–200 ms of delay, "
                + "well over the 50 ms a hearing aid may add, so speech and lip movements will drift apart. Use a wired headset.\n").utf8))
        }
        let inputChannels = min(2, input.inputChannels)
        let control = try HearingAidControl(settings: settings)
        let processor = HearingAidProcessor(control: control)
        try processor.prepare(try ProcessingFormat(sampleRate: sampleRate, blockSize: bufferSize, inputChannels: inputChannels))
        // The processor is used only on PortAudio's callback thread from here on.
        nonisolated(unsafe) let audioThreadProcessor = processor
        _ = try audio.start(input: input, output: output, sampleRate: sampleRate, framesPerBuffer: bufferSize) { inBuffer, outBuffer, frames in
            audioThreadProcessor.process(input: inBuffer, output: outBuffer, frames: frames)
        }
        onStarted()
        let total = (Double(processor.latencyFrames + bufferSize) / sampleRate + audio.inputLatencySeconds + audio.outputLatencySeconds) * 1000
        print("Listening: \(input.name) → \(output.name), \(Int(sampleRate)) Hz, \(bufferSize)-frame buffers; "
              + String(format: "latency about %.1f ms (chain %.1f ms + devices).", total, Double(processor.latencyFrames) / sampleRate * 1000))
        let recorder = MonitorRecorder(monitors: control.monitors)
        if monitorFile != nil { recorder.start() }
        defer {
            let series = recorder.stop()
            if let monitorFile {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                if (try? encoder.encode(series).write(to: URL(fileURLWithPath: monitorFile))) == nil {
                    print(OutputFileError(path: monitorFile).userMessage)
                }
            }
        }
        print("Commands: + (louder), - (softer), m (mute/unmute), a program name (quiet, restaurant, music, outdoors, tv), s (status), q (quit).")
        while let line = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() {
            do {
                switch line {
                case "q", "quit": audio.stop(); return
                case "+": print(String(format: "Volume %+.0f dB", try control.volumeUp()))
                case "-": print(String(format: "Volume %+.0f dB", try control.volumeDown()))
                case "m": try control.setMuted(!control.settings.muted); print(control.settings.muted ? "Muted" : "Unmuted")
                case "s", "":
                    let gains = control.monitors.values(.appliedGainDecibels, ear: .left).map { String(format: "%.0f", $0) }
                    print("Program \(control.settings.program.rawValue), volume \(control.settings.volumeDecibels) dB; left gains (dB) per band: \(gains.joined(separator: " "))")
                default:
                    try control.select(try ListeningProgram(named: line)); print("Program \(control.settings.program.rawValue)")
                }
            } catch {
                print(userMessage(for: error))
            }
        }
        audio.stop()
    }
}
