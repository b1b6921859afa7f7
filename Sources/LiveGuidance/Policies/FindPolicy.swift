import AssistCore
import Foundation
import Guidance
import Perception
import Speech

/// Find mode: "find a chair" guides to the nearest object of the target's categories by
/// direction and distance, says when it was found, or gives up after the timeout. "Is there a
/// person ahead?" answers once, yes or no, about the walking direction.
///
/// Only the target's categories are ever mentioned — except hazards, which `GuidancePolicy`
/// still announces in this mode: a bus closing in matters more than the chair being looked for.
struct FindPolicy: Sendable {
    let target: FindTarget
    let startedSeconds: Double

    /// Close enough to reach out: within 1.5 m (two steps) and not off to the side.
    static let foundWithinMeters = 1.5
    static let foundDirections: Set<HorizontalDirection> = [.slightlyLeft, .ahead, .slightlyRight]

    /// What the find mode is doing after a frame.
    enum Outcome: Sendable, Equatable {
        case searching
        /// Found, given up, or answered: the session returns to the mode before.
        case finished
    }

    private struct Guided: Sendable, Equatable {
        var track: TrackID
        var direction: HorizontalDirection
        var band: Int
    }
    private var lastGuided: Guided?
    /// A new direction is only said once it held for two frames: an object at the edge of a
    /// direction band would otherwise be re-announced at every wobble of the camera.
    private var pendingDirection: (track: TrackID, direction: HorizontalDirection)?
    private var lastSeenSeconds: Double?
    private var answeredAhead = false

    init(target: FindTarget, startedSeconds: Double) {
        self.target = target
        self.startedSeconds = startedSeconds
    }

    mutating func announcements(for observation: SceneObservation, settings: GuidanceSettings,
                                speech: SpokenObjects) -> (announcements: [Announcement], outcome: Outcome) {
        if target.aheadOnly { return (answerAhead(observation, speech: speech), .finished) }

        let time = observation.timeSeconds
        let candidates = observation.tracking.tracks
            .filter { $0.isVisible && $0.isConfirmed && target.categories.contains($0.label) }
            .map { (id: $0.id, object: speech.located($0)) }
        guard let nearest = speech.describer.orderedForSpeech(candidates.map(\.object)).first,
              let id = candidates.first(where: { $0.object == nearest })?.id else {
            if time - (lastSeenSeconds ?? startedSeconds) >= settings.findTimeoutSeconds {
                let sentence = SentenceFiles.fill(speech.phrases.find.notFound, ["target": target.spokenName])
                return ([Announcement(Utterance(SentenceFiles.capitalized(sentence), priority: .answer,
                                                contentKey: "find:not-found@\(time)", earcon: .nothingFound))], .finished)
            }
            return ([], .searching)
        }
        lastSeenSeconds = time
        let meters = nearest.distance.meters
        let direction = nearest.direction.horizontal

        if let meters, meters <= Self.foundWithinMeters, Self.foundDirections.contains(direction) {
            let sentence = SentenceFiles.fill(speech.phrases.find.found, [
                "object": speech.name(of: nearest.label), "distance": speech.distancePhrase(meters: meters),
                "direction": speech.describer.directionPhrase(nearest.direction)])
            return ([Announcement(Utterance(SentenceFiles.capitalized(sentence), priority: .answer,
                                            directionDegrees: nearest.direction.angleDegrees,
                                            contentKey: "find:found@\(time)"), mentions: [nearest])], .finished)
        }

        let previous = lastGuided?.track == id ? lastGuided : nil
        let band = DistanceBands.approach.band(forMeters: meters, previous: previous?.band)
        var spokenDirection = direction
        if let previous, direction != previous.direction {
            if pendingDirection?.track == id, pendingDirection?.direction == direction {
                pendingDirection = nil
            } else {
                pendingDirection = (id, direction)
                spokenDirection = previous.direction
            }
        } else {
            pendingDirection = nil
        }
        let now = Guided(track: id, direction: spokenDirection, band: band)
        guard now != previous, let sentence = speech.sentence(for: nearest) else {
            lastGuided = now
            return ([], .searching)
        }
        // What is said is the object's real direction, which is then the one remembered.
        lastGuided = Guided(track: id, direction: direction, band: band)
        pendingDirection = nil
        // The key holds direction and band: a change either way is news, which the queue's
        // repeat filter (which only lets closer bands through) would otherwise hold back.
        let utterance = Utterance(sentence, priority: .answer, directionDegrees: nearest.direction.angleDegrees,
                                  contentKey: "find\(id):\(direction.rawValue):\(band)", distanceBand: band)
        return ([Announcement(utterance, mentions: [nearest])], .searching)
    }

    /// "Is there a person ahead?" from one frame: yes with the nearest such object in the walking
    /// corridor (or straight ahead), or no.
    private func answerAhead(_ observation: SceneObservation, speech: SpokenObjects) -> [Announcement] {
        let key = "find:ahead@\(observation.timeSeconds)"
        switch observation.report.quality {
        case .tooDark?:
            return [Announcement(Utterance(speech.phrases.view.tooDark, priority: .answer, contentKey: key))]
        case .tooBlurred?:
            return [Announcement(Utterance(speech.phrases.view.tooBlurred, priority: .answer, contentKey: key))]
        case .ok?, nil: break
        }
        let ahead = speech.describer.orderedForSpeech(observation.report.objects).first { object in
            guard target.categories.contains(object.label) else { return false }
            if object.direction.horizontal == .ahead { return true }
            guard let meters = object.distance.meters else { return false }
            return abs(meters * tan(object.direction.angleDegrees * .pi / 180)) <= WalkingCorridor.defaultWidthMeters / 2
        }
        guard let ahead, let sentence = speech.sentence(for: ahead) else {
            let no = SentenceFiles.fill(speech.phrases.find.aheadNo, ["target": target.spokenName])
            return [Announcement(Utterance(SentenceFiles.capitalized(no), priority: .answer, contentKey: key))]
        }
        return [Announcement(Utterance([speech.phrases.find.aheadYes, sentence], priority: .answer,
                                       directionDegrees: ahead.direction.angleDegrees, contentKey: key),
                             mentions: [ahead])]
    }
}
