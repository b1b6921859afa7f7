import AssistCore
import Foundation
import Guidance
import Media
import Perception
import Speech

extension GuidanceSession {
    // MARK: Commands and settings

    /// Acts on everything due by `seconds` (`RequestInbox.deliver`): offline, the speech is
    /// rendered up to each scheduled item's own moment first.
    func deliverRequests(upTo seconds: Double) {
        inbox.deliver(upTo: seconds, ended: { ending != nil }, moment: { [self] due in
            renderAudio(upTo: due)
            return configuration.isOffline ? due : nowSeconds
        }, act: act(on:at:))
    }

    private func act(on arrival: RequestInbox.Arrival, at time: Double) {
        switch arrival {
        case .request(let command, let answer):
            // An "exit" sent meanwhile: nothing else is carried out (see `SessionControls.send`).
            if ending != nil || (analysis.quitting.isAbandoned && command != .quit) {
                answer?(.notCarriedOut(closingSentence?.utterance.text ?? sentences.goodbye))
                return
            }
            requestFailure = nil
            handle(command, at: time)
            answer?(requestFailure.map { .failed($0) } ?? .carriedOut)
        case .settings(let update):
            if ending == nil { apply(update) }
        }
    }

    func handle(_ command: SessionRequest, at time: Double) {
        lastRequestSeconds = time
        lastCommandSeconds = time
        switch command {
        case .scanNow: request(.scanNow, at: time)
        case .explore: request(.explore, at: time)
        case .checkObstacles: request(.checkObstacles, at: time)
        case .ask(.readText):
            wakeFromAfterUse(at: time)
            startShortText(at: time)
        case .ask(let question):
            wakeFromAfterUse(at: time)
            if question == .readPage { endShortText(sayingAt: nil) }
            pendingQuestions.append(question)
        case .setMode(let mode):
            wakeFromAfterUse(at: time)
            endShortText(sayingAt: nil)
            sayAll(policy.setMode(mode, atSeconds: time), at: time)
        case .find(let target):
            wakeFromAfterUse(at: time)
            endShortText(sayingAt: nil)
            do {
                sayAll(policy.setMode(.find(try resolved(target)), atSeconds: time), at: time)
            } catch {
                requestFailure = userMessage(for: error)
                say(Utterance(userMessage(for: error), priority: .answer, contentKey: "session:find-refused"), at: time)
            }
        case .pause:
            if paused {
                say(Utterance(sentences.alreadyPaused, priority: .answer, contentKey: "session:paused"), at: time)
            } else {
                paused = true
                say(Utterance(sentences.paused, priority: .answer, contentKey: "session:paused", earcon: .stopped), at: time)
            }
        case .resume:
            wakeFromAfterUse(at: time)
            paused = false
            say(Utterance(sentences.resumed, priority: .answer, contentKey: "session:resumed", earcon: .started), at: time)
        case .switchCamera: switchCamera(at: time)
        case .setBatterySaver(let on):
            batterySaving.byUser = on
            applyBatterySaving(announceAt: time, lowBattery: false)
        case .repeatLast:
            if feedback.queue.repeatLast() == nil {
                say(Utterance(sentences.nothingToRepeat, priority: .answer, contentKey: "session:repeat"), at: time)
            }
        case .stopTalking:
            // Already silenced when it was sent (see `SessionControls.send`); this also notes what was dropped.
            speechTimeline.noteSuperseded(feedback.queue.stop())
            endShortText(sayingAt: time)
        case .more:
            if !feedback.queue.more() {
                say(Utterance(sentences.nothingMore, priority: .answer, contentKey: "session:more@\(time)"), at: time)
            }
        case .say(let sentence):
            // Keyed by time and text: the same answer asked for again later ("help") is said again.
            say(Utterance(sentence, priority: .answer, contentKey: "command@\(time):\(sentence)"), at: time)
        case .quit:
            speechTimeline.noteSuperseded(feedback.queue.stop())
            // No tone before it: "exit" ends within a second, and the words alone say it.
            end(.userQuit, saying: Utterance(sentences.goodbye, priority: .answer, contentKey: "session:goodbye"),
                event: "goodbye")
        }
        silenceLightToneOutsideLightMode()
        publishSnapshot()
    }

    /// A target whose categories the detector does not know by those names, looked up by its spoken name.
    func resolved(_ target: FindTarget) throws -> FindTarget {
        guard let classNames = configuration.classNames,
              !target.categories.isSubset(of: Set(classNames)) else { return target }
        return try FindTarget.resolve(name: target.spokenName, classNames: classNames, aheadOnly: target.aheadOnly,
                                      phrasebook: policy.describer.phrasebook, phrases: policy.phrases)
    }

    private func request(_ request: PolicyRequest, at time: Double) {
        // Without the model or the camera back there is nothing to look at: the failure said is the answer.
        guard wakeFromAfterUse(at: time) else { return }
        sayAll(policy.handle(request, atSeconds: time), at: time)
        requestPending = true
    }

    func apply(_ update: SessionSettingsUpdate) {
        feedback.apply(update)
        if let guidance = update.guidance { policy.settings = guidance }
        if let describer = update.describer { policy.describer = describer }
        if let wanted = update.analyzer {
            if wanted.camera != analysis.requirements.camera {
                corridor = WalkingCorridor(camera: wanted.camera, widthMeters: corridor.widthMeters)
            }
            do { try analysis.require(wanted) } catch {
                feedback.alert("The new settings could not be applied: \(userMessage(for: error))")
            }
        }
        if let seconds = update.intervalSeconds {
            // From the next wait on; the battery saver still doubles it.
            pacing.rate = .fixedInterval(seconds: seconds)
        }
        if let camera = update.camera { followCamera(camera) }
        if let saver = update.batterySaver, saver != batterySaving.byUser {
            batterySaving.byUser = saver
            applyBatterySaving(announceAt: nowSeconds, lowBattery: false)
        }
    }

    // MARK: Battery saver

    func checkBattery() {
        guard let battery = configuration.battery else { return }
        let now = nowSeconds
        guard batterySaving.check(battery, atSeconds: now, everySeconds: configuration.batteryCheckSeconds) else { return }
        applyBatterySaving(announceAt: now, lowBattery: batterySaving.byBattery)
    }

    /// Half the rate and a smaller picture while the user or the battery asks for it; said when
    /// it changes.
    func applyBatterySaving(announceAt time: Double, lowBattery: Bool) {
        let saving = batterySaving.isOn
        guard saving != pacing.batterySaving else { return }
        pacing.batterySaving = saving
        let width = feed.lastFrameWidthPixels.flatMap { saving ? pacing.maximumWidthPixels(sourceWidthPixels: $0) : nil }
        if let live = feed.live {
            live.setMaximumWidthPixels(width)
        } else if let scalable = feed.skipper?.source as? any ScalableFrameSource {
            scalable.maximumWidthPixels = width
        }
        let sentence = saving ? (lowBattery ? sentences.batterySaverOnLowBattery : sentences.batterySaverOn) : sentences.batterySaverOff
        // What the user asked for is confirmed as an answer (never dropped); the battery's own doing is a status.
        say(Utterance(sentence, priority: lowBattery ? .status : .answer, contentKey: "session:battery"), at: time)
        publishSnapshot()
    }

    // MARK: Camera

    /// "Switch camera": the next of the cameras connected.
    private func switchCamera(at time: Double) {
        guard case .camera(let current) = input.kind, !configuration.isOffline else {
            requestFailure = sentences.switchNeedsCamera
            say(Utterance(sentences.switchNeedsCamera, priority: .answer, contentKey: "session:switch"), at: time)
            return
        }
        let cameras = configuration.availableCameras()
        guard cameras.count > 1 else {
            requestFailure = sentences.onlyOneCamera
            say(Utterance(sentences.onlyOneCamera, priority: .answer, contentKey: "session:switch"), at: time)
            return
        }
        useCamera(configuration.cameraInput(cameras[((cameras.firstIndex(of: current) ?? -1) + 1) % cameras.count]), at: time)
    }

    /// The camera setting changed while a camera is read: that camera from now on. A file or a
    /// stream is read on; the setting is for the next start.
    private func followCamera(_ camera: FrameInput) {
        guard case .camera = input.kind, !configuration.isOffline, camera.name != input.name else { return }
        useCamera(camera, at: nowSeconds)
    }

    /// Reads `camera` from now on, said; when it cannot be opened, the camera before stays on, said.
    private func useCamera(_ camera: FrameInput, at time: Double) {
        let previous = input, device = camera.name
        input = camera
        do {
            try openInput()
            tracker = ObjectTracker()
            say(Utterance(SentenceFiles.fill(sentences.cameraSwitched, ["camera": device]), priority: .answer,
                          contentKey: "session:switch@\(time)"), at: time)
        } catch {
            input = previous
            requestFailure = SentenceFiles.fill(sentences.cameraSwitchFailed, ["camera": device])
            say(Utterance(SentenceFiles.fill(sentences.cameraSwitchFailed, ["camera": device]), priority: .answer,
                          contentKey: "session:switch@\(time)"), at: time)
            try? openInput()
        }
    }

    // MARK: After-use

    /// On demand, with no request for a while: the camera (a live input) and the model are given back.
    func checkAfterUse() {
        guard let limit = configuration.afterUseSeconds, state != .afterUse, ending == nil, !requestPending,
              pendingQuestions.isEmpty, !readingShortText,
              !analysesContinuously, nowSeconds - lastRequestSeconds >= limit else { return }
        analysis.release()
        let closesInput = input.kind != .recording && !configuration.isOffline
        if closesInput {
            feed.stopLive()
        }
        tracker = ObjectTracker()
        say(Utterance(closesInput ? sentences.afterUse : sentences.afterUseFileInput, priority: .status,
                      contentKey: "session:after-use", earcon: .stopped), at: nowSeconds)
        enter(.afterUse)
    }

    /// A request after after-use: model and camera are taken again before it is answered.
    /// False when camera or model could not be taken again (said, and noted as the command's failure).
    @discardableResult
    func wakeFromAfterUse(at time: Double) -> Bool {
        guard state == .afterUse else { return true }
        do {
            try analysis.load()
            if feed.live == nil && !configuration.isOffline { try openInput() }
            enter(degradedReasons.isEmpty ? .active : .degraded)
            say(Utterance(sentences.reactivated, priority: .answer, contentKey: "session:activated", earcon: .started), at: time)
            return true
        } catch {
            requestFailure = SentenceFiles.fill(sentences.reactivationFailed, ["reason": userMessage(for: error)])
            say(Utterance(SentenceFiles.fill(sentences.reactivationFailed, ["reason": userMessage(for: error)]),
                          priority: .answer, contentKey: "session:reactivation", earcon: .error), at: time)
            return false
        }
    }

    // MARK: Faults

    func degrade(_ reason: String, saying sentence: String) {
        guard !degradedReasons.contains(reason) else { return }
        degradedReasons.insert(reason)
        say(Utterance(sentence, priority: .answer, contentKey: "session:degraded:\(reason)", earcon: .error), at: nowSeconds)
        enter(.degraded)
    }

    func noticeUnreadableFrames() {
        // Pictures the decoder found damaged are said as damage (issue 16), in place of the notice
        // that some pictures are skipped: one sentence, at the first damaged picture.
        if let skipper = feed.skipper, !feed.toldUnreadableFrames, skipper.skipCounter.sawDamage {
            feed.toldUnreadableFrames = true
            degrade("unreadable frames", saying: VideoInputError.damagedPictures(name: skipper.name).userMessage)
        }
        guard let skipper = feed.skipper, !feed.toldUnreadableFrames,
              skipper.skipCounter.longestRun >= configuration.unreadableFramesBeforeNotice else { return }
        feed.toldUnreadableFrames = true
        degrade("unreadable frames", saying: sentences.unreadableFrames)
    }

    /// The watchdog fired (or detection keeps failing): guidance stops, and says so.
    func detectionFailed() {
        end(.detectionFailed, saying: Utterance(sentences.detectionFailed, priority: .hazard,
                                                contentKey: "session:detection-failed", earcon: .error),
            event: "detection failed")
    }

    func analysisFailed(_ error: any Error, analyzer failed: any SceneAnalyzing) {
        switch analysis.noteFailure(of: failed) {
        case .withoutDepthModel: degrade("depth model", saying: sentences.depthModelFailed)
        case .failedAgain: degrade("detection errors", saying: sentences.detectionError)
        case .tooManyInARow: detectionFailed()
        }
    }

    /// The source threw: a lost camera is tried again; anything else ends the run.
    func inputFailed(_ error: any Error) async {
        if let fault = error as? SessionFault, case .unreadableInput = fault {
            // A damaged video is said to be damaged even when the damage ends the run before it
            // could be told: one phrase, so the 3-s cut by phrases cannot drop either half.
            var closing = sentences.unreadableInput
            if let skipper = feed.skipper, skipper.skipCounter.sawDamage, !feed.toldUnreadableFrames {
                closing = VideoInputError.damagedPictures(name: skipper.name).userMessage + " " + closing
            }
            end(.unreadableInput, saying: Utterance(closing, priority: .hazard, contentKey: "session:unreadable",
                                                    earcon: .error),
                event: "unreadable input")
            return
        }
        cameraRetries.failed(atSeconds: nowSeconds, retries: configuration.cameraRetries)
        if case .camera = input.kind, !configuration.isOffline, cameraRetries.left > 0 {
            say(Utterance(sentences.cameraRetrying, priority: .answer, contentKey: "session:retry", earcon: .error), at: nowSeconds)
            while cameraRetries.take() {
                await wallClock.rest(seconds: configuration.cameraRetryDelaySeconds)
                if (try? openInput()) != nil { return }
            }
        }
        var phrases = [sentences.streamStopped]
        if case .camera = input.kind { phrases.append(userMessage(for: error)) }
        // A file cut short is said as such, not as a stream that stopped.
        if case .endedEarly? = error as? VideoInputError { phrases = [userMessage(for: error)] }
        end(.streamStopped(reason: userMessage(for: error)),
            saying: Utterance(phrases, priority: .hazard, contentKey: "session:stream-stopped", earcon: .stopped),
            event: "stream stopped")
    }

    func endOfInput() {
        if input.picturesAreScenes {
            end(.inputEnded, saying: Utterance(sentences.endOfPictures, priority: .status, contentKey: "session:end", earcon: .stopped),
                event: "end of pictures")
        } else if input.kind == .recording {
            end(.inputEnded, saying: Utterance(sentences.endOfVideo, priority: .status, contentKey: "session:end", earcon: .stopped),
                event: "end of video")
        } else {
            // A camera or stream that ends without an error still ended unexpectedly.
            end(.streamStopped(reason: sentences.streamStopped),
                saying: Utterance(sentences.streamStopped, priority: .hazard, contentKey: "session:stream-stopped", earcon: .stopped),
                event: "stream stopped")
        }
    }

    /// Ends the run; `closing` is said last, when the session finishes (after the sentence being
    /// heard, instead of anything still waiting: see `finish`).
    func end(_ why: SessionEnding, saying closing: Utterance, event: String) {
        guard ending == nil else { return }
        ending = why
        closingSentence = (closing, event)
        enter(.stopped)
    }
}
