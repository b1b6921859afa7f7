import AssistCore
import Foundation
import Media
import Speech

// How the commands speak what they print: these say on standard error why nothing was heard and
// which option avoids it, so they belong to the command line, not to the Speech library.

extension SpokenOutput {
    /// Speaks a report the user asked for, in full; with no audio device the report is still
    /// printed by the caller and standard error says once why it was not heard.
    /// With `json`, the report is spoken only when a file or device was asked for.
    static func speakReport(_ sentence: String, options: SpeechChoice, json: Bool = false) throws {
        guard !options.quiet, !json || options.speakTo != nil || options.audioDevice != nil else { return }
        let output: SpokenOutput
        do {
            output = try SpokenOutput(options, maximumSpeechSeconds: 600)
        } catch let error as AudioDeviceError where options.audioDevice == nil {
            FileHandle.standardError.write(Data("The report could not be spoken: \(error.userMessage) Use --speak-to FILE.wav to render it, or --quiet.\n".utf8))
            return
        }
        output.say(Utterance(sentence, priority: .answer, contentKey: "report"))
        try output.finish()
    }
}

extension SpokenOutput {
    /// Where a description of pictures (`see`, `read`) is spoken; nil when it is not (--quiet, --json,
    /// or no audio device, which is said once on standard error: the printed description must not fail for it).
    static func forDescription(_ speech: SpeechChoice, json: Bool) throws -> SpokenOutput? {
        if speech.quiet || (json && speech.speakTo == nil && speech.audioDevice == nil) { return nil }
        do {
            return try SpokenOutput(speech)
        } catch let error as AudioDeviceError where speech.audioDevice == nil {
            SpokenOutput.alertWithoutSound(nil)
            let sentence = error.userMessage.dropLast()
            let reason = error == .noAudioDevice || error == .noOutputDevice
                ? "no audio device was found" : sentence.prefix(1).lowercased() + sentence.dropFirst()
            FileHandle.standardError.write(Data("The description could not be spoken because \(reason); use --speak-to FILE.wav to render it, or --quiet.\n".utf8))
            return nil
        } catch let error as AudioFileError {
            throw error
        } catch {
            throw CommandFailure(userMessage(for: error), status: .startupFailed)
        }
    }
}

extension SpokenOutput {
    /// Where a short prompt (such as "Show the code to the camera.") is spoken; nil under --quiet, or
    /// when no output can be opened, which is said once on standard error: the prompt is printed anyway.
    static func forPrompt(_ speech: SpeechChoice, maximumSpeechSeconds: Double = 10) -> SpokenOutput? {
        guard !speech.quiet else { return nil }
        do { return try SpokenOutput(speech, maximumSpeechSeconds: maximumSpeechSeconds) } catch {
            FileHandle.standardError.write(Data("The prompt could not be spoken: \(userMessage(for: error))\n".utf8))
            return nil
        }
    }
}
