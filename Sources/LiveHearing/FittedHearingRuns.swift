import AssistCore
import Foundation
import Hearing
import Prescription
import Speech

/// What `assist hear` does with a fitting: a file processed through it, or live sound heard through it.
extension HearingFitting.Fitted {
    /// Processes `input` into the stereo WAV `output` at the user's volume (2 dB steps), showing progress
    /// and warnings on standard error; returns the sentence that says what was written.
    public func processFile(_ input: String, into output: String, volumeSteps: Int, monitorFile: String?) throws -> String {
        var settings = settings
        settings.volumeSteps = volumeSteps
        let outputURL = URL(fileURLWithPath: output)
        let result = try AidedRecording(settings: settings, monitorFile: monitorFile).process(
            URL(fileURLWithPath: input), into: outputURL,
            progress: { step in
                FileHandle.standardError.write(Data((step.isFinished ? "\n" : String(
                    format: "\rprocessing: %3d %% (%.0f of %.0f s)", step.percent, step.doneSeconds, step.totalSeconds)).utf8))
            },
            warn: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
        return "Wrote \(outputURL.path): \(String(format: "%.1f", result.seconds)) s, "
            + "\(settings.prescription.options.rule.rawValue) prescription, \(settings.program.rawValue) program, "
            + "latency \(String(format: "%.1f", result.latencyMilliseconds)) ms."
    }

    /// Hears live sound through the fitting until stopped (by typed commands, or by `commands`'
    /// remote); the prescription's start is recorded in the patient store it came from.
    public func hearLive(volumeSteps: Int, devices: LiveSoundDevices, monitorFile: String?, durationSeconds: Double?,
                         announcementVoice: SpeechVoiceSettings, commands: LiveHearingCommandSource = .standardInput,
                         show: @escaping @Sendable (String) -> Void) throws -> LiveHearingSummary {
        let settings = liveSettings(volumeSteps: volumeSteps)
        return try LiveHearingAid(
            settings: settings, prescribed: hearing, debugging: liveDebugging, inputDevice: devices.inputDevice,
            outputDevice: devices.outputDevice, sampleRate: devices.sampleRate, bufferSize: devices.bufferSize, monitorFile: monitorFile,
            durationSeconds: durationSeconds, announcementVoice: announcementVoice, show: show
        ).run(commands: commands) { try? store?.recordStarted(settings.prescription) }
    }
}

extension LiveHearingSummary {
    /// Where a live run's messages go: standard output, or standard error when standard output carries the JSON summary.
    public static func printer(json: Bool) -> @Sendable (String) -> Void {
        { line in
            if json { FileHandle.standardError.write(Data((line + "\n").utf8)) } else { print(line) }
        }
    }

    /// The closing line of a live run without --json.
    public var sentence: String {
        String(format: "Listened for %.1f s: %d blocks, %d dropouts.", seconds, blocks, dropouts)
    }
}
