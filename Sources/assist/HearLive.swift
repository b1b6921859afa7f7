import AssistCore
import Foundation
import Hearing
import Media
import Prescription

/// Live mode: microphone → hearing chain → headphones through PortAudio, with keyboard
/// controls on standard input (one command per line).
struct LiveHearing {
    let settings: HearingAidSettings
    /// The programs the user may switch to, from the prescription.
    let prescribed: PrescribedHearing
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
        let programs = prescribed.programs.enumerated().map { "\($0.offset + 1) \($0.element.rawValue)" }.joined(separator: ", ")
        print("Program \(control.settings.program.rawValue). Type a program's number or name to switch (\(programs)); "
              + "+ louder, - softer, m mute, s status, q quit.")
        while let line = readLine() {
            do {
                switch LiveHearingCommand(line) {
                case .quit: audio.stop(); return
                case .louder: print(String(format: "Volume %+.0f dB", try control.volumeUp()))
                case .softer: print(String(format: "Volume %+.0f dB", try control.volumeDown()))
                case .toggleMute: try control.setMuted(!control.settings.muted); print(control.settings.muted ? "Muted" : "Unmuted")
                case .status:
                    let gains = control.monitors.values(.appliedGainDecibels, ear: .left).map { String(format: "%.0f", $0) }
                    print("Program \(control.settings.program.rawValue), volume \(control.settings.volumeDecibels) dB; left gains (dB) per band: \(gains.joined(separator: " "))")
                case .program(let name):
                    try control.select(try prescribed.program(named: name))
                    print("Program \(control.settings.program.rawValue).")
                }
            } catch {
                print(userMessage(for: error))
            }
        }
        audio.stop()
    }
}

/// One line typed while listening live.
enum LiveHearingCommand: Equatable {
    case quit, louder, softer, toggleMute, status
    /// A program's name or number, with or without the word "program" before it.
    case program(String)

    init(_ typed: String) {
        let line = typed.trimmingCharacters(in: .whitespaces).lowercased()
        switch line {
        case "q", "quit": self = .quit
        case "+": self = .louder
        case "-": self = .softer
        case "m", "mute": self = .toggleMute
        case "s", "status", "": self = .status
        default:
            let name = line.hasPrefix("program ") ? String(line.dropFirst("program ".count)) : line
            self = .program(name.trimmingCharacters(in: .whitespaces))
        }
    }
}
