import AssistCore
import ColourAndLight
import Foundation
import Media
import Perception

extension GuidanceSession {
    // MARK: The light detector

    /// Light mode: the frame's brightness sets the pitch the tone glides to (`LightMeter`: equal
    /// steps of brightness are equal musical intervals, 200 Hz in the dark to 1600 Hz in full light).
    /// Heard once the frame's processing is done, as speech would be. Returns the processing seconds.
    func followLight(in frame: Frame, cost: (Double) -> Double) -> Double {
        let workStart = wallClock.seconds
        let meter = LightMeter()
        let pitchHz = meter.pitchHz(forBrightness: meter.brightness(of: frame.image))
        let processing = cost(wallClock.seconds - workStart)
        renderAudio(upTo: configuration.isOffline ? nowSeconds + processing : nowSeconds)
        feedback.queue.setContinuousTone(pitchHz: pitchHz)
        framesAnalysed += 1
        publishSnapshot()
        return processing
    }

    /// The tone sounds only in light mode and not while paused: leaving the mode, pausing or
    /// ending silences it at once.
    func silenceLightToneOutsideLightMode() {
        if policy.mode != .light || paused || ending != nil { feedback.queue.setContinuousTone(pitchHz: nil) }
    }
}
