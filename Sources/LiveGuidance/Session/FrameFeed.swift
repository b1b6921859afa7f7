import Media

/// The session's frames: its input opened (again, after after-use gave the camera back or the
/// battery saver narrowed the frames) and read the way the session's clock wants them — paced
/// by the video's own clock offline, newest frame first live, one picture at a time for a
/// folder of scenes — with unreadable frames skipped and counted.
final class FrameFeed {
    /// How frames are taken.
    enum Reading {
        /// On the input's own clock: each frame when a camera would have offered it (`VideoClockPacer`).
        case offline
        /// The newest frame wins (`LatestFrameBuffer`, reading on a thread of its own).
        case live
        /// One picture at a time, each a scene of its own (`GuidanceSession.runPictures`).
        case pictures
    }

    let reading: Reading
    private let configuration: SessionConfiguration
    private(set) var skipper: UnreadableFrameSkipper?
    private(set) var offlinePacer: VideoClockPacer?
    private(set) var live: LatestFrameBuffer?
    /// The session's seconds when live reading (re)started: a recording's frame times count from there.
    private(set) var liveStartSeconds = 0.0
    /// The width of the last frame taken: the battery saver's narrower frames are a share of it.
    var lastFrameWidthPixels: Int?
    /// Damaged frames have been told about (once: a notice, or the closing sentence).
    var toldUnreadableFrames = false

    init(reading: Reading, configuration: SessionConfiguration) {
        self.reading = reading
        self.configuration = configuration
    }

    /// Opens `input` (again), its frames at most `maximumWidthPixels` wide when given.
    func open(_ input: FrameInput, maximumWidthPixels: Int?, atSeconds now: Double) throws {
        let opened = try input.open(maximumWidthPixels)
        // Offline only: live, `LatestFrameBuffer` reads on a thread of its own already.
        let readsAhead = configuration.readsFrameAhead && reading == .offline
        let skipper = UnreadableFrameSkipper(readsAhead ? ReadAheadFrameSource(opened) : opened,
                                             maximumInARow: configuration.unreadableFramesBeforeStop)
        stopReadingAhead()
        self.skipper = skipper
        switch reading {
        case .pictures:
            return
        case .offline:
            offlinePacer = VideoClockPacer(source: skipper)
        case .live:
            live?.stop()
            live = LatestFrameBuffer(source: skipper,
                                     pace: input.kind == .recording ? .sourceClockInRealTime : .asFastAsTheSourceGives,
                                     clock: configuration.wallClock, executor: configuration.taskExecutor)
            liveStartSeconds = now
        }
    }

    /// Live reading ends (the camera is given back, or the session ends).
    func stopLive() {
        live?.stop()
        live = nil
    }

    /// The frame being read ahead is let go at once (the reading thread ends after its read).
    func stopReadingAhead() {
        (skipper?.source as? ReadAheadFrameSource)?.stop()
    }
}
