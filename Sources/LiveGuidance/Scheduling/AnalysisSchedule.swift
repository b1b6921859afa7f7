import AssistCore
import Guidance
import Perception

/// Which frames the live loop runs the detector on (issue 20 §2): inference is most of the cost
/// of guidance, so on a battery it runs when it matters — a few times a second in a still scene,
/// every frame when something approaches, a new object has to be confirmed, the picture changed
/// or the user asked. Between analyses the tracker carries the objects forward unchanged.
///
/// "Never later": whatever can make a warning is watched every frame — a new object (confirmed
/// in as many frames as analysing every frame takes), a track the distance filter sees closing
/// in even below the speed at which it is announced as approaching, a hazard (vehicle, bicycle)
/// at any distance until it has been seen standing — and, but for a new object, for
/// `watchCloselySeconds` after the last such sign (unless the sign was hazards now seen
/// standing, which took a second of every frame already). A standing hazard (a parked car) is watched
/// every frame again as soon as the picture under it changes, the tracker sees it move, or it
/// could come within a distance that would be warned of before the next analysis.
/// An ordinary object closing in where only a closer distance band would be news (continuous
/// guidance) is watched every frame once it could reach that band before the next analysis.
/// The change measure catches what the tracker cannot know of yet: something stepping in. It
/// passes over the picture around the objects already followed, whose own moves are the tracker's
/// to judge: otherwise people walking about on a street would keep the detector at every frame
/// however little there was to say.
///
/// Time is the session clock, passed in with every call: the input's own clock offline, a test's
/// own clock in tests, seconds since start live. Nothing here reads the wall clock.
public struct AnalysisSchedule: Sendable {
    public enum Policy: String, Sendable, Equatable, CaseIterable {
        /// Analyse when it matters (the default).
        case adaptive
        /// Analyse every frame the machine can take (`--analyse-every-frame`).
        case everyFrame = "every frame"
    }

    /// Why a frame was analysed, in `--json` ("analysedBecause").
    public enum Reason: String, Sendable, Equatable, Encodable {
        case everyFrame = "every frame"
        case firstFrame = "first frame"
        /// The user asked (a command), or did a moment ago.
        case request
        /// A track not yet confirmed: it is confirmed as soon as with every frame.
        case newObject = "new object"
        /// A track closing in (or, a moment ago, was).
        case approaching
        /// A hazard (vehicle, bicycle, …) in view that is not known to be standing, or that
        /// could come within a distance that is warned of before the next analysis.
        case hazardInView = "hazard in view"
        /// The picture under a standing hazard (a parked car) changed: it may be pulling out.
        case hazardMoved = "hazard moved"
        /// The picture changed where a hazard was lost from view a moment ago (people walking
        /// past in front of a parked car): it may be coming back into view.
        case hiddenHazard = "hidden hazard"
        /// The picture changed since the last analysed frame.
        case sceneChanged = "scene changed"
        /// Nothing happened, and the still scene's interval has passed.
        case due
        /// Object announcements were held back while the speech channel was busy, and it is
        /// free now: they are planned from this frame (`SessionConfiguration.speechLeadSeconds`).
        case heldBackAnnouncement = "held-back announcement"
    }

    public struct Settings: Sendable, Equatable {
        /// A still scene in continuous guidance: three analyses a second keep a new object's first
        /// mention within a third of a second of the change measure missing it.
        public var stillIntervalSeconds = 1.0 / 3
        /// Navigation and find: five a second, as the user is walking towards what is in front.
        public var walkingIntervalSeconds = 0.2
        /// With the battery saver, a still scene is looked at once a second.
        public var batterySaverIntervalSeconds = 1.0
        /// Every frame for this long after a command: the user is waiting for an answer or about
        /// to act on one.
        public var afterRequestSeconds = 3.0
        /// Every frame for this long after the last sign of risk, so one noisy frame does not drop
        /// the rate in the middle of an approach.
        public var watchCloselySeconds = 1.0
        /// A closing speed this high (m/s) is watched every frame: half the tracker's
        /// `minimumApproachSpeedMetersPerSecond` (0.25), so the approach is declared no later.
        public var suspectedApproachMetersPerSecond = 0.125
        /// A cell counts as changed when its mean brightness moved by more than this (0–255):
        /// well above sensor noise on a 100-pixel mean (under 1 level), below an object's contrast.
        public var changedCellLevels = 12
        /// The picture counts as changed when this share of cells changed: about a person's
        /// width at 6 m in a 640×480 frame with a 70° lens.
        public var changedAreaFraction = 0.02
        /// The change measure passes over each followed object's box grown by this many box widths
        /// on either side: a walker crossing at 1.5 m/s covers about their own width (0.5 m) in a
        /// third of a second at any distance, so until the still scene's next analysis the
        /// picture's changes around them are their own.
        public var followedWidthMargin: Float = 1
        /// … and this share of its height above and below: room for it to grow as it comes
        /// closer, which the tracker's distances judge.
        public var followedHeightMargin: Float = 0.25
        /// … unless this share of the whole picture changed, followed objects included: the camera
        /// turned, the view was cut to another, or people crossed close in front (a street
        /// camera's passers-by changed a quarter of the picture in a third of a second at the
        /// median, over two thirds at the most), which is worth a look as well.
        public var turnedAreaFraction = 0.5
        /// A hazard watched every frame for this long, with no closing speed seen by the distance
        /// filter and its box where it was, is standing (a parked car, a bicycle against a wall):
        /// a street lined with parked cars would otherwise keep the detector at every frame.
        public var hazardStandingAfterSeconds = 1.0
        /// A hazard's box counts as where it was while its centre stays within this share of its
        /// size and its width and height within this share of theirs (detection jitter is a few
        /// per cent; a car pulling out turns or grows by more).
        public var hazardStandingBoxTolerance: Float = 0.1
        /// How hard a standing hazard may speed up towards the camera before the next analysis
        /// (m/s²): a car pulling out hard, about 4 m/s², covers 0.22 m in its first third of a
        /// second. The user stepping towards it is not counted here: a moving camera changes the
        /// whole picture, which the change measure analyses at once.
        public var hazardStartingAcceleration = 4.0
        /// A standing hazard's cells: its box grown by this share of its width on either side
        /// and of its height above and below, where the picture changes first when it moves.
        public var hazardCellMargin: Float = 0.25
        /// A hazard lost from view (hidden behind people walking past, or missed by the detector)
        /// is watched where it was last seen for this long, as a standing one is: its cells are
        /// usually among a followed passer-by's, which the change measure passes over, so it
        /// would otherwise be seen again only at the next due analysis. People walking past hid
        /// a parked car for about a second on a street clip.
        public var hiddenHazardWatchSeconds = 3.0

        public init() {}
    }

    /// What the schedule needs from the session at each frame.
    public struct Situation: Sendable {
        public var mode: GuidanceMode
        public var batterySaving: Bool
        /// When the user last gave a command, on the session clock (nil: never).
        public var lastRequestSeconds: Double?
        /// The categories that get a hazard alert.
        public var hazardLabels: Set<String>

        public init(mode: GuidanceMode, batterySaving: Bool, lastRequestSeconds: Double?, hazardLabels: Set<String>) {
            self.mode = mode
            self.batterySaving = batterySaving
            self.lastRequestSeconds = lastRequestSeconds
            self.hazardLabels = hazardLabels
        }
    }

    public let policy: Policy
    public var settings: Settings
    private var lastAnalysedSeconds: Double?
    private var lastAnalysedThumbnail: FrameThumbnail?
    /// The cells of `lastAnalysedThumbnail` around the objects followed then.
    private var followedCells: [Bool] = []
    private var tracks: [TrackedObject] = []
    private var watchCloselyUntilSeconds = -Double.infinity
    private var watchCloselyBecause = Reason.approaching
    /// The hazards not yet known to be standing when the hold was last set for them: once all
    /// of them are seen standing the hold ends, since standing took a second of every frame.
    private var watchCloselyHazards: Set<TrackID> = []
    /// Hazards in view with no sign of moving: since when, and their box then.
    private var hazardsStill: [TrackID: (sinceSeconds: Double, box: BoundingBox)] = [:]
    /// The hazards seen standing at the last analysed frame, and the cells around them.
    private var standingHazards: Set<TrackID> = []
    private var standingHazardCells: [Bool] = []
    /// Hazards in view at an analysed frame and not at a later one: when they were lost, and
    /// their last box; and the cells around those boxes.
    private var hiddenHazards: [TrackID: (lostSeconds: Double, box: BoundingBox, label: String)] = [:]
    private var hiddenHazardCells: [Bool] = []

    public init(policy: Policy, settings: Settings = Settings()) {
        self.policy = policy
        self.settings = settings
    }

    /// Whether the change measure is needed at all (not when every frame is analysed anyway).
    public var comparesFrames: Bool { policy == .adaptive }

    /// The seconds between analyses of a still scene in this situation.
    public func stillIntervalSeconds(in situation: Situation) -> Double {
        if situation.batterySaving { return settings.batterySaverIntervalSeconds }
        switch situation.mode {
        case .navigate, .find: return settings.walkingIntervalSeconds
        case .continuous, .onDemand, .explore, .light: return settings.stillIntervalSeconds
        }
    }

    /// Why the frame seen at `now` should be analysed, or nil to let it pass (the tracker
    /// carries the scene forward). `thumbnail` is the frame's `FrameThumbnail`, needed only
    /// when `comparesFrames`.
    public func reason(toAnalyse thumbnail: FrameThumbnail?, atSeconds now: Double, in situation: Situation) -> Reason? {
        guard policy == .adaptive else { return .everyFrame }
        guard let last = lastAnalysedSeconds else { return .firstFrame }
        if let asked = situation.lastRequestSeconds, now - asked < settings.afterRequestSeconds, now >= asked {
            return .request
        }
        if let risk = risk(in: situation) { return risk }
        if now < watchCloselyUntilSeconds { return watchCloselyBecause }
        if let thumbnail, let before = lastAnalysedThumbnail {
            if !standingHazards.isEmpty,
               thumbnail.changedCells(since: before, thresholdLevels: settings.changedCellLevels, within: standingHazardCells) > 0 {
                return .hazardMoved
            }
            if hiddenHazards.values.contains(where: { now - $0.lostSeconds < settings.hiddenHazardWatchSeconds }),
               thumbnail.changedCells(since: before, thresholdLevels: settings.changedCellLevels, within: hiddenHazardCells) > 0 {
                return .hiddenHazard
            }
            let changed = thumbnail.changedFractions(since: before, thresholdLevels: settings.changedCellLevels,
                                                     passingOver: followedCells)
            if changed.elsewhere >= settings.changedAreaFraction || changed.everywhere >= settings.turnedAreaFraction {
                return .sceneChanged
            }
        }
        return now - last >= stillIntervalSeconds(in: situation) - 1e-9 ? .due : nil
    }

    /// Notes an analysed frame: its thumbnail (what later frames are compared with) and what the
    /// tracker made of it.
    public mutating func analysed(_ thumbnail: FrameThumbnail?, atSeconds now: Double, tracks: [TrackedObject],
                                  in situation: Situation) {
        lastAnalysedSeconds = now
        noteHiddenHazards(atSeconds: now, before: self.tracks, now: tracks, in: situation)
        self.tracks = tracks
        noteStandingHazards(atSeconds: now, in: situation)
        if let thumbnail {
            lastAnalysedThumbnail = thumbnail
            followedCells = thumbnail.cells(covering: tracks.filter(\.isVisible).map(\.object.detection.box),
                                            widthMargin: settings.followedWidthMargin, heightMargin: settings.followedHeightMargin)
            standingHazardCells = thumbnail.cells(
                covering: tracks.filter { standingHazards.contains($0.id) }.map(\.object.detection.box),
                widthMargin: settings.hazardCellMargin, heightMargin: settings.hazardCellMargin)
            hiddenHazardCells = thumbnail.cells(covering: hiddenHazards.values.map(\.box),
                                                widthMargin: settings.hazardCellMargin, heightMargin: settings.hazardCellMargin)
        } else {
            // Without a picture to watch them by, standing hazards are watched every frame.
            standingHazards = []
        }
        // A new object needs no hold: it is watched every frame for as long as it is unconfirmed
        // and in view; a flicker that is not seen again drops out of view by itself.
        if let risk = risk(in: situation), risk != .newObject {
            watchCloselyUntilSeconds = now + settings.watchCloselySeconds
            watchCloselyBecause = risk
            // Ended early only when every hazard that set it was one not yet known to be standing.
            let watched = tracks.filter { $0.isVisible && watchesEveryFrame(hazard: $0, in: situation) }
            watchCloselyHazards = risk == .hazardInView && watched.allSatisfy({ !standingHazards.contains($0.id) })
                ? Set(watched.map(\.id)) : []
        } else if watchCloselyBecause == .hazardInView, !watchCloselyHazards.isEmpty,
                  watchCloselyHazards.isSubset(of: standingHazards) {
            // The hold is for a hazard lost for a frame or two in the middle of its approach; one
            // seen standing has already been watched every frame for `hazardStandingAfterSeconds`.
            watchCloselyUntilSeconds = -.infinity
        }
    }

    /// Forgets the scene (a new input, a camera switched): the next frame is analysed.
    public mutating func restart() {
        lastAnalysedSeconds = nil
        lastAnalysedThumbnail = nil
        followedCells = []
        tracks = []
        watchCloselyUntilSeconds = -.infinity
        watchCloselyHazards = []
        hazardsStill = [:]
        standingHazards = []
        standingHazardCells = []
        hiddenHazards = [:]
        hiddenHazardCells = []
    }

    /// Keeps `hiddenHazards` up to date: a hazard in view at the last analysed frame and not at
    /// this one is hidden from now; one seen again, or found again as a new track, or lost for
    /// longer than `hiddenHazardWatchSeconds`, is not any more.
    private mutating func noteHiddenHazards(atSeconds now: Double, before: [TrackedObject], now current: [TrackedObject],
                                            in situation: Situation) {
        let visible = current.filter { $0.isVisible && situation.hazardLabels.contains($0.label) }
        let visibleIDs = Set(visible.map(\.id))
        for track in before where track.isVisible && situation.hazardLabels.contains(track.label)
            && !visibleIDs.contains(track.id) {
            hiddenHazards[track.id] = (now, track.object.detection.box, track.label)
        }
        // Came back as a new track: a hazard of its kind where it was, overlapping as much as the
        // tracker asks of one object's boxes in two frames (a car parked against it overlaps less).
        let sameObjectOverlap = TrackerSettings.standard.firstPassMinimumIoU
        hiddenHazards = hiddenHazards.filter { id, hidden in
            let cameBack = visible.contains {
                $0.label == hidden.label && $0.object.detection.box.intersectionOverUnion(with: hidden.box) >= sameObjectOverlap
            }
            return now - hidden.lostSeconds < settings.hiddenHazardWatchSeconds && !visibleIDs.contains(id) && !cameBack
        }
    }

    /// Which hazards in view are standing: watched every frame for `hazardStandingAfterSeconds`
    /// (every hazard not standing is) without a sign of moving.
    private mutating func noteStandingHazards(atSeconds now: Double, in situation: Situation) {
        var still: [TrackID: (sinceSeconds: Double, box: BoundingBox)] = [:]
        for track in tracks where track.isVisible && situation.hazardLabels.contains(track.label) {
            let box = track.object.detection.box
            let moving = !track.isConfirmed || track.distanceMeters == nil || seemsClosingIn(track)
            if !moving, let before = hazardsStill[track.id],
               Self.sameBox(before.box, box, tolerance: settings.hazardStandingBoxTolerance) {
                still[track.id] = before
            } else {
                still[track.id] = (now, box)
            }
        }
        hazardsStill = still
        standingHazards = Set(still.filter { now - $0.value.sinceSeconds >= settings.hazardStandingAfterSeconds - 1e-9 }.keys)
    }

    /// Whether two boxes of one object are where they were, within `tolerance` of its size.
    static func sameBox(_ a: BoundingBox, _ b: BoundingBox, tolerance: Float) -> Bool {
        let size = max(a.width, a.height, 1)
        return abs(a.centerX - b.centerX) <= tolerance * size && abs(a.centerY - b.centerY) <= tolerance * size
            && abs(a.width - b.width) <= tolerance * max(a.width, 1) && abs(a.height - b.height) <= tolerance * max(a.height, 1)
    }

    /// The tracker's reason to look at every frame, from the tracks of the last analysed frame.
    private func risk(in situation: Situation) -> Reason? {
        var reason: Reason?
        for track in tracks where track.isVisible {
            let speed = track.approachSpeedMetersPerSecond ?? 0
            if seemsClosingIn(track) {
                if situation.hazardLabels.contains(track.label) || !Self.saysApproachOnlyByBands(situation.mode)
                    || mayComeIntoCloserBand(track, closingAt: speed, within: stillIntervalSeconds(in: situation)) {
                    return .approaching
                }
            }
            if !track.isConfirmed { reason = reason ?? .newObject }
            if watchesEveryFrame(hazard: track, in: situation) { reason = .hazardInView }
        }
        return reason
    }

    /// Whether the distance filter sees `track` closing in, even below the speed at which it is
    /// announced as approaching (`suspectedApproachMetersPerSecond`), or gives it a time to collision.
    private func seemsClosingIn(_ track: TrackedObject) -> Bool {
        (track.approachSpeedMetersPerSecond ?? 0) >= settings.suspectedApproachMetersPerSecond || track.timeToCollisionSeconds != nil
    }

    /// Whether `track` is a hazard watched every frame: at any distance, as a hazard's approach is
    /// announced as soon as the distance filter is sure of it, and the filter is sure sooner the
    /// more measurements it has. A standing one is left to the change measure on its cells,
    /// unless it could come within a distance that is warned of before the next analysis.
    private func watchesEveryFrame(hazard track: TrackedObject, in situation: Situation) -> Bool {
        guard situation.hazardLabels.contains(track.label) else { return false }
        return !standingHazards.contains(track.id)
            || mayComeWithinWarning(track, startingAt: track.approachSpeedMetersPerSecond ?? 0,
                                    within: stillIntervalSeconds(in: situation))
    }

    /// Modes where an ordinary object (not a hazard) coming closer is only ever news when it
    /// comes into a closer `DistanceBands.approach` band: continuous guidance says it again
    /// then, and on-demand, explore and the light detector say nothing of it unasked. Navigation
    /// warns by time to collision and find guides to its target, so there every frame is watched.
    static func saysApproachOnlyByBands(_ mode: GuidanceMode) -> Bool {
        switch mode {
        case .continuous, .onDemand, .explore, .light: return true
        case .navigate, .find: return false
        }
    }

    /// How much faster than the tracker's estimate an ordinary object may close in before the
    /// next analysis: twice the estimate (the filter lags a speeding-up walker) and a further
    /// metre a second (someone breaking into a run, the user stepping forward).
    static func worstClosingSpeed(estimated: Double) -> Double { 2 * estimated + 1 }

    /// Whether the track could come into a closer band — where continuous guidance would say it
    /// again — before the next analysis `interval` from now, closing at the worst speed. When it
    /// could, every frame is analysed, so that the sentence comes on the frame it would with every
    /// frame analysed; until then the scene's own rate is enough, as nothing about it would be said.
    /// An unknown distance is always watched.
    func mayComeIntoCloserBand(_ track: TrackedObject, closingAt speed: Double, within interval: Double) -> Bool {
        guard let meters = track.distanceMeters, meters.isFinite, meters > 0 else { return true }
        guard let nextEdge = DistanceBands.approach.closerBandTakenAtMeters.last(where: { $0 < meters }) else {
            return false  // already in the closest band: there is no closer one to announce
        }
        return meters - nextEdge <= Self.worstClosingSpeed(estimated: speed) * interval
    }

    /// Whether a standing hazard could come within a distance that `HazardPolicy` warns of —
    /// `HazardPolicy.nearMeters`, or a closer band — before the next analysis, closing at twice
    /// the filter's estimate and speeding up as a car pulling out hard. An unknown distance is
    /// always watched.
    func mayComeWithinWarning(_ track: TrackedObject, startingAt speed: Double, within interval: Double) -> Bool {
        guard let meters = track.distanceMeters, meters.isFinite, meters > 0 else { return true }
        let edges = DistanceBands.approach.closerBandTakenAtMeters + [HazardPolicy.nearMeters]
        guard let nextEdge = edges.filter({ $0 < meters }).max() else { return false }
        return meters - nextEdge <= 2 * max(0, speed) * interval + settings.hazardStartingAcceleration * interval * interval / 2
    }
}
