import ArgumentParser
import AssistCore
import Foundation
import Media
import SessionControl

/// `assist see` on a live input: the options handed to a `LiveGuidanceRun`, its end mapped to the exit status.
extension See {
    func runLive(_ videoInput: VideoInput) async throws {
        try live.check()
        var run = LiveGuidanceRun(input: videoInput, detector: detector.choice, depth: depth.modelChoice,
                                  camera: camera.choice, description: wording.choice)
        run.speakTo = speech.speakTo
        run.quiet = speech.quiet
        run.audioDevice = speech.audioDevice
        run.voice = speech.voiceSettings
        run.mono = speech.mono
        run.mode = try live.guidanceMode()
        run.find = live.find
        run.transcriptPath = live.transcript
        run.scheduledLines = try live.scheduledLines()
        run.intervalSeconds = live.interval
        run.batterySaver = live.batterySaver
        run.analysisSchedule = live.analysisSchedule
        run.watchdogSeconds = live.watchdog
        run.afterUseMinutes = live.afterUse
        run.frameCostSeconds = live.frameCost
        run.readsFrameAhead = live.readAhead
        try run.checkNumbers()
        run.json = json
        run.keepsHistory = !noHistory
        run.voiceCommands = voiceCommands.sources
        let result = try await run.run()
        // An output the user asked for that was not saved is a failure, not a success (issue 16).
        let status = result.transcriptSaved ? FailureReport.status(of: result.ending) : .failed
        if status != .done { throw ExitCode(status.rawValue) }
    }
}
