import Foundation
import Media
import Perception
import Speech

/// How a `GuidanceSession` runs: its input, its clock, pacing and the limits of its safe states.
public struct SessionConfiguration {
    public enum Clock {
        /// Offline rendering: the input's own clock. Frames are processed as fast as the machine
        /// allows, frames that would have arrived meanwhile are skipped (`VideoClockPacer`), and the
        /// speech is rendered into `audio` aligned with input time. `frameCostSeconds` replaces the
        /// measured processing time of each analysed frame, for reproducible renders; nil measures.
        case input(audio: any AudioOutput, frameCostSeconds: Double?)
        /// Live: seconds since start. A device pulls the queue's audio itself (`SpeakerOutput`,
        /// `PacedNullPlayback`); `outputLatencySeconds` is its delay from render to ear.
        case realTime(outputLatencySeconds: Double)
    }

    public var input: FrameInput
    public var clock: Clock
    /// What stands for the wall clock: read for the session's time live, for the time work takes
    /// (a frame's analysis, a question's answer) and for every wait (pacing, the watchdog, a
    /// camera's retry, speech playing out). The system's `ContinuousClock` in production; a test's
    /// `ManualClock`, so live-mode tests run with no sleep and no wall-clock bound.
    public var wallClock: any Swift.Clock<Duration> = ContinuousClock()
    /// Where the session's own helper tasks run (the watchdog's timer, the command feed, the frame
    /// reader's waits): nil for Swift's global pool, as in the product. A host whose other code
    /// blocks that pool's threads gives threads of its own, or those timers would wait for it: a
    /// test process does (`OwnThreads`), as its synchronous tests wait for child processes.
    public var taskExecutor: (any TaskExecutor)?
    /// At most one analysed frame every so many seconds; nil for as fast as possible.
    public var intervalSeconds: Double?
    /// Battery saver from the start (by option or setting).
    public var batterySaver: Bool
    /// Which frames are analysed: every frame the machine can take, or when it matters
    /// (`AnalysisSchedule`; the command line's default).
    public var analysisSchedule = AnalysisSchedule.Policy.everyFrame
    /// Offline, decode the next frame while the current one is analysed (`ReadAheadFrameSource`,
    /// `--read-ahead`), instead of after it. Live input is read on a thread of its own anyway
    /// (`LatestFrameBuffer`).
    public var readsFrameAhead = SessionConfiguration.readsFrameAheadByDefault
    /// Off: on the 2-core machines we measured, reading ahead took the decoding (about 1.5 ms a
    /// frame) out of the loop's wait but slowed inference by about as much, since OpenVINO already
    /// keeps both cores busy; the rate did not rise (BENCHMARKS.md, "Decoding ahead", issue 20 §3).
    public static let readsFrameAheadByDefault = false
    /// Read every `batteryCheckSeconds` to turn the saver on below 15 %; nil never.
    public var battery: BatteryMonitor?
    public var batteryCheckSeconds = 30.0
    /// One analysis taking longer than this stops the run with "Detection failed.".
    public var watchdogSeconds = 4.0
    /// Answers "read the text", "what colour is this" and the like; nil: such questions are
    /// answered with `SessionSentences.questionUnavailable`.
    public var pictureQuestions: (any PictureQuestions)?
    /// A question about the picture taking longer than this is given up (a page is read in about
    /// 2 s; a big photo on a busy machine may take several times that), and the session goes on.
    public var questionWatchdogSeconds = 20.0
    /// In on-demand and explore modes, camera and model are released after this long without a
    /// request; nil never.
    public var afterUseSeconds: Double? = 300
    /// Announcements still waiting to be heard this long after they were made are dropped when a
    /// newer frame has something to say (the queue has fallen behind the scene).
    public var staleSpeechSeconds = 2.5
    /// An object announcement is queued only when the speech channel is free within this long
    /// (audio seconds, `UtteranceQueue.secondsUntilHeard`); otherwise it is held back and planned
    /// again from the frame analysed when the channel frees. A sentence queued behind 2 s of
    /// speech describes a picture 2 s old when it is heard; planned this close to the channel's
    /// end, it is heard about this long after its frame at most (the target is 200 ms).
    /// Hazards, answers and notices are not held back.
    public var speechLeadSeconds = 0.15
    /// Commands delivered at moments of the session clock (`--at`).
    public var scheduledRequests: [ScheduledRequest] = []
    /// Typed lines delivered at moments of the session clock (`--at "3:ignore people"`), carried
    /// out by `GuidanceSession.carryOutLine` (the command language) when they are due.
    public var scheduledLines: [ScheduledLine] = []
    /// Where the class-free obstacle cues look (camera height, tilt, lens; corridor width).
    public var corridor = WalkingCorridor()
    /// Unreadable frames in a row before the user is told (and the state is Degraded) …
    public var unreadableFramesBeforeNotice = 3
    /// … and before the input counts as unreadable and the run ends.
    public var unreadableFramesBeforeStop = 25
    /// Detections failing with an error (not hanging) in a row before the run ends.
    public var failedDetectionsBeforeStop = 5
    /// A camera that stops is opened again this many times, this far apart, before giving up.
    public var cameraRetries = 3
    public var cameraRetryDelaySeconds = 1.0
    /// The detector's class names: a find target naming something else ("find doors") is looked
    /// up among them (plurals, the phrasebook's words), and refused with the closest supported
    /// names when the model cannot detect it. nil takes targets as they come.
    public var classNames: [String]?
    /// The cameras "switch camera" cycles through (device paths), and how to open one.
    public var availableCameras: @Sendable () -> [String] = {
        CameraList().cameras.filter(\.isFirstNodeOfDevice).map(\.devicePath)
    }
    public var cameraInput: @Sendable (String) -> FrameInput = {
        FrameInput.video(.camera(devicePath: $0, format: .standard))
    }

    public init(input: FrameInput, clock: Clock, intervalSeconds: Double? = nil, batterySaver: Bool = false,
                battery: BatteryMonitor? = nil) {
        self.input = input
        self.clock = clock
        self.intervalSeconds = intervalSeconds
        self.batterySaver = batterySaver
        self.battery = battery
    }

    var isOffline: Bool {
        if case .input = clock { return true }
        return false
    }
}
