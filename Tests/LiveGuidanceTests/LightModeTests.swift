import AssistCore
import Foundation
@testable import LiveGuidance
import Media
import Speech
import TestSupport
import Testing

/// The light detector in a session (`--mode light`, "light detector"): a continuous tone whose pitch
/// follows the brightness of the view, measured in the audio the session rendered.
@Suite("light mode in a live session")
struct LightModeTests {
    /// The tone's frequency in each window of the left channel, from upward zero crossings.
    static func frequenciesHz(of stereo: [Float], sampleRateHz: Double, from start: Double, to end: Double,
                              windowSeconds: Double) -> [Double] {
        let left = stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }
        var result: [Double] = []
        var windowStart = start
        while windowStart + windowSeconds <= end {
            let a = Int(windowStart * sampleRateHz), b = min(left.count, Int((windowStart + windowSeconds) * sampleRateHz))
            guard b > a + 1 else { break }
            var crossings = 0
            for i in (a + 1)..<b where left[i - 1] < 0 && left[i] >= 0 { crossings += 1 }
            result.append(Double(crossings) / windowSeconds)
            windowStart += windowSeconds
        }
        return result
    }

    @Test("on a video fading from dark to bright, the tone's pitch rises steadily from low to high")
    func toneFollowsFade() async throws {
        let folder = try TemporaryFolder.make("light-mode")
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("fade.mp4")
        // 6 s from black to white (ffmpeg's fade filter: brightness rises linearly with time).
        try Program.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=160x120:r=10:d=6", "-vf", "fade=t=in:st=0:d=6",
                         "-c:v", "mpeg4", "-q:v", "2", video.path])
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 0) }
        harness.configuration.input = FrameInput(name: "fade.mp4", kind: .recording) { width in
            try VideoFrameSource(.file(video), maximumWidthPixels: width)
        }
        let (session, ending) = try await harness.run(mode: .light)
        #expect(ending == .inputEnded)
        #expect(session.policy.mode == .light)
        // No object detection in light mode: the detector saw no frame.
        #expect(harness.analyzer.analysedFrameTimes.isEmpty)
        // From 1 s (after "Assistive Vision activated.") to 5.5 s (before "End of video."), in half seconds.
        let pitches = Self.frequenciesHz(of: harness.audio.samples, sampleRateHz: harness.queue.sampleRateHz,
                                         from: 1, to: 5.5, windowSeconds: 0.5)
        try #require(pitches.count == 9)
        #expect(zip(pitches, pitches.dropFirst()).allSatisfy { $1 > $0 }, "the pitch rises in every half second: \(pitches)")
        #expect(pitches.first! < 400, "low in the dark: \(pitches)")
        #expect(pitches.last! > 1000, "high in the light: \(pitches)")
        // The tone stops with the session: nothing sounds after "End of video." has been said.
        #expect(harness.queue.continuousTonePitchHz == nil)
    }

    @Test("leaving light mode silences the tone at once")
    func leavingStopsTone() async throws {
        let grey = RGBImage(width: 64, height: 48, filledWith: (128, 128, 128))
        let harness = SessionHarness { ScriptedFrameSource(frameCount: 40, picture: grey) }
        harness.configuration.scheduledRequests = [ScheduledRequest(atSeconds: 2, request: .setMode(.onDemand))]
        _ = try await harness.run(mode: .light)
        let rate = harness.queue.sampleRateHz
        let toneBefore = Self.frequenciesHz(of: harness.audio.samples, sampleRateHz: rate, from: 1, to: 2, windowSeconds: 0.5)
        // Mid-grey: brightness 0.5, 200 · 8^0.5 ≈ 566 Hz.
        #expect(toneBefore.allSatisfy { abs($0 - 566) < 30 }, "\(toneBefore)")
        // After the confirmation ("On-demand scanning. Say scan now.", 0.6 s with the test voice): silence.
        let after = harness.audio.samples[(Int(3.2 * rate) * 2)..<(Int(3.9 * rate) * 2)]
        #expect(after.allSatisfy { $0 == 0 }, "no tone after light mode ended")
    }
}
