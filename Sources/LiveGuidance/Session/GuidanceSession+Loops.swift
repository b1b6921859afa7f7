import AssistCore
import Foundation
import Guidance
import Media
import Perception
import Speech

extension GuidanceSession {
    // MARK: Offline: the input's own clock

    /// Each frame is taken at the moment a camera would have offered it after the previous
    /// frame's processing; before it, the speech is rendered up to that moment, so t seconds into
    /// the input is t seconds into the audio.
    func runOffline() async {
        var advanceSeconds = 0.0
        while ending == nil {
            guard let pacer = feed.offlinePacer else { break }
            let frame: Frame?
            let captureStart = wallClock.seconds
            do {
                frame = try pacer.nextFrame(afterProcessingFor: advanceSeconds)
            } catch {
                advanceSeconds = 0
                await inputFailed(error)
                continue
            }
            let captureMilliseconds = (wallClock.seconds - captureStart) * 1000
            let now = pacer.nowSeconds
            deliverRequests(upTo: now)
            renderAudio(upTo: now)
            guard ending == nil else { break }
            guard let frame else {
                endOfInput()
                break
            }
            feed.lastFrameWidthPixels = feed.lastFrameWidthPixels ?? frame.image.width
            noticeUnreadableFrames()
            checkBattery()
            checkAfterUse()
            // A frame not wanted, or let pass by the schedule, costs no time: the next one is taken as it comes.
            guard wantsFrameAnalysed, let planned = plannedAnalysis(of: frame, atSeconds: now) else {
                advanceSeconds = 0
                continue
            }
            let measured = await analyseAndGuide(frame, captureSeconds: frame.timestampSeconds,
                                                 captureMilliseconds: captureMilliseconds, planned: planned) { [self] workSeconds in
                if case .input(_, let fixed) = configuration.clock, let fixed { return fixed }
                return workSeconds
            }
            guard let cost = measured else { continue }
            // Rest as the pacing asks (an interval, the battery saver), but wake for a command due sooner.
            var advance = cost + pacing.waitSeconds(sinceLastFrame: cost, consumerWorkedSeconds: cost)
            if let next = inbox.nextScheduledSeconds, next > now { advance = max(cost, min(advance, next - now)) }
            advanceSeconds = advance
        }
    }

    /// Renders the speech track up to `seconds` of input time (offline only).
    func renderAudio(upTo seconds: Double) {
        guard case .input(let audio, _) = configuration.clock else { return }
        let queue = feedback.queue
        let target = Int((seconds * queue.sampleRateHz).rounded())
        var failed = false
        while renderedAudioFrames < target && !failed {
            let count = min(4096, target - renderedAudioFrames)
            do { try audio.consume(queue.renderBlock(frameCount: count)) } catch {
                failed = true
                feedback.alert(userMessage(for: error))
            }
            renderedAudioFrames += count
            collectPlayback()
        }
    }

    // MARK: A folder of pictures: one scene each

    /// Each picture in turn, none skipped: a fresh scene (no tracks carried over from the last
    /// picture), answered as "scan now" (or "explore" in exploration), and the next picture is
    /// taken once that has been heard. Commands are taken meanwhile ("stop", "exit").
    func runPictures() async {
        while ending == nil {
            deliverRequests(upTo: nowSeconds)
            guard ending == nil, let skipper = feed.skipper else { break }
            let captureStart = wallClock.seconds
            let frame: Frame?
            do {
                frame = try skipper.nextFrame()
            } catch {
                await inputFailed(error)
                continue
            }
            let captureMilliseconds = (wallClock.seconds - captureStart) * 1000
            guard let frame else {
                endOfInput()
                break
            }
            feed.lastFrameWidthPixels = frame.image.width
            noticeUnreadableFrames()
            guard !paused else { continue }
            tracker = ObjectTracker()
            switch policy.mode {
            case .explore: _ = policy.handle(.explore, atSeconds: nowSeconds)
            case .find, .light: break
            case .continuous, .onDemand, .navigate: _ = policy.handle(.scanNow, atSeconds: nowSeconds)
            }
            requestPending = true
            var scene = frame
            scene.timestampSeconds = nowSeconds
            _ = await analyseAndGuide(scene, captureSeconds: nowSeconds, captureMilliseconds: captureMilliseconds) { [self] workSeconds in
                if case .input(_, let fixed) = configuration.clock, let fixed { return fixed }
                return workSeconds
            }
            await waitUntilHeard()
        }
    }

    /// Lets what is queued be heard (rendered offline, played live), taking commands meanwhile.
    private func waitUntilHeard() async {
        let queue = feedback.queue
        while ending == nil && !queue.isIdle {
            if configuration.isOffline {
                renderAudio(upTo: nowSeconds + 0.05)
            } else {
                collectPlayback()
                await wallClock.rest(seconds: 0.01)
            }
            deliverRequests(upTo: nowSeconds)
        }
        collectPlayback()
    }

    // MARK: Live: the wall clock

    func runLive() async {
        var lastTakeSeconds: Double?
        var lastWorkSeconds = 0.0
        // A camera takes a moment to send its first frame: the detector is compiled for the
        // format's size meanwhile (0.2–0.3 s for a 4:3 shape from a warm cache here), so that
        // frame costs inference alone, while "activated" waits for nothing more.
        if let size = input.expectedFrameSize, size.width > 0, size.height > 0 {
            let stand = Frame(image: RGBImage(width: size.width, height: size.height, filledWith: (0, 0, 0)), sourceName: input.name)
            _ = await preparedAnalyzer(for: stand)
        }
        while ending == nil {
            deliverRequests(upTo: nowSeconds)
            guard ending == nil else { break }
            collectPlayback()
            flushReports(all: false)
            checkBattery()
            checkAfterUse()
            guard wantsFrameAnalysed, let frames = feed.live else {
                // Nothing to analyse (on demand, paused), but a recording still plays to its end.
                if let frames = feed.live, frames.hasEnded {
                    await takeRemainingFrames(of: frames)
                } else {
                    await wallClock.rest(seconds: 0.02)
                }
                continue
            }
            // Newest frame wins: wait out the pacing (an interval, the battery saver), but a
            // request or a command cuts the wait short.
            if !requestPending && pendingQuestions.isEmpty {
                let wait = pacing.waitSeconds(sinceLastFrame: lastTakeSeconds.map { nowSeconds - $0 },
                                              consumerWorkedSeconds: lastWorkSeconds)
                if wait > 0 {
                    let due = nowSeconds + wait
                    while nowSeconds < due && !inbox.hasArrivals(by: nowSeconds) {
                        await wallClock.rest(seconds: min(0.02, max(0.001, due - nowSeconds)))
                    }
                    if nowSeconds < due { continue }
                }
            }
            let captureStart = wallClock.seconds
            let frame: Frame?
            do {
                frame = try await frames.nextFrame()
            } catch {
                await inputFailed(error)
                continue
            }
            let captureMilliseconds = (wallClock.seconds - captureStart) * 1000
            guard let frame else {
                if ending == nil && feed.live === frames { endOfInput() }
                continue
            }
            let handedOut = nowSeconds
            feed.lastFrameWidthPixels = frame.image.width
            noticeUnreadableFrames()
            // Let pass by the schedule: the next frame is waited for, the pacing keeps counting from the last analysed one.
            guard let planned = plannedAnalysis(of: frame, atSeconds: handedOut) else { continue }
            lastTakeSeconds = handedOut
            // A recording plays on its own clock from when reading started: its capture moment is
            // known exactly; a camera's frame was captured at the latest when it was handed out.
            let capture = input.kind == .recording ? min(handedOut, feed.liveStartSeconds + frame.timestampSeconds) : handedOut
            let work = await analyseAndGuide(frame, captureSeconds: capture, captureMilliseconds: captureMilliseconds,
                                             planned: planned) { $0 }
            lastWorkSeconds = work ?? 0
        }
    }

    /// The input ended while no frame was wanted: what it still holds is passed over, and its end
    /// (or its error) ends the run as it would have while analysing.
    private func takeRemainingFrames(of frames: LatestFrameBuffer) async {
        do {
            while try await frames.nextFrame() != nil {}
        } catch {
            await inputFailed(error)
            return
        }
        if ending == nil && feed.live === frames { endOfInput() }
    }

    // MARK: One analysed frame

    /// The analyzer, prepared for frames of this size (`AnalysisRunner.prepare`); nil when there is
    /// none, or preparing failed (handled as a failed analysis) or hung (detection failed).
    private func preparedAnalyzer(for frame: Frame) async -> (any SceneAnalyzing)? {
        switch await analysis.prepare(for: frame) {
        case .ready(let analyzer): return analyzer
        case .failed(let error, let analyzer): analysisFailed(error, analyzer: analyzer)
        case .hung: detectionFailed()
        case .abandoned, .unloaded: break
        }
        return nil
    }

    /// Analyses `frame` under the watchdog, tracks, asks the policy, speaks. Returns the
    /// processing seconds (as `cost` maps the measured ones) or nil when the frame gave nothing.
    func analyseAndGuide(_ frame: Frame, captureSeconds: Double, captureMilliseconds: Double,
                         planned: PlannedAnalysis? = nil, cost: (Double) -> Double) async -> Double? {
        var answered: AnsweredQuestions?
        if !pendingQuestions.isEmpty {
            answered = await answerQuestions(about: frame, cost: cost)
            // Only the question was asked (on demand, paused): the frame needs nothing more.
            guard requestPending || (!paused && analysesContinuously), ending == nil else { return answered?.processing }
        }
        // Short-text mode reads the frame instead of describing it (a sign read between object
        // announcements would be lost among them); "scan now" meanwhile still gets a description.
        if readingShortText && !requestPending { return await readShortText(in: frame, cost: cost) }
        // The light detector needs no detector; "scan now" meanwhile still gets a description.
        if policy.mode == .light && !requestPending { return followLight(in: frame, cost: cost) }
        guard analysis.isLoaded else { return answered?.processing }
        // "How many faces" may have analysed this very frame already: its report is used, not made again.
        let analysedForQuestion = answered?.report
        let report: SceneReport
        let corridor: CorridorReading?
        let workSeconds: Double
        switch await analysis.analyse(frame, corridor: policy.wantsCorridor ? self.corridor : nil, reusing: analysedForQuestion) {
        case .hung:
            detectionFailed()
            return nil
        case .abandoned, .unloaded:
            return nil
        case .failed(let error, let analyzer, let seconds):
            analysisFailed(error, analyzer: analyzer)
            return cost(seconds)
        case .analysed(let made, let reading, let seconds):
            (report, corridor, workSeconds) = (made, reading, seconds)
        }
        // A report made for the question took its time there, before this cycle's own work.
        let analysisSeconds = workSeconds + (analysedForQuestion == nil ? 0 : answered?.workSeconds ?? 0)
        framesAnalysed += 1
        let processing = cost(analysisSeconds)
        let guidanceStart = wallClock.seconds
        let tracking = tracker.update(with: report.objects, atSeconds: frame.timestampSeconds)
        if let planned { noteAnalysed(planned, tracks: tracking.tracks) }
        let observation = SceneObservation(timeSeconds: nowSeconds, report: report, tracking: tracking, corridor: corridor)
        let announcements = policy.announcements(for: observation)
        requestPending = false
        let guidanceMilliseconds = (wallClock.seconds - guidanceStart) * 1000
        // Offline, what the frame makes us say is heard after its processing, on the input clock.
        let spokenAt = configuration.isOffline ? nowSeconds + processing : nowSeconds
        renderAudio(upTo: spokenAt)
        for ended in tracking.ended {
            feedback.queue.objectLeftView(contentKey: "\(ended.label)#\(ended.id.rawValue)")
        }
        dropStaleBacklog(at: spokenAt)
        let records = sayOrHoldBack(announcements, at: spokenAt)
        let heard = zip(announcements, records).filter { $1.contains { $0.outcome == "queued" } }
        var timings = CycleTimings()
        timings.captureMilliseconds = captureMilliseconds
        timings.analysisMilliseconds = analysisSeconds * 1000
        timings.inferenceMilliseconds = report.timings.inferenceMilliseconds
        timings.guidanceMilliseconds = guidanceMilliseconds
        let cycle = CycleReport(time: captureSeconds, state: state, mode: policy.mode.name, paused: paused,
                                event: nil, objects: report.objects, tracks: tracking.tracks.map(TrackSummary.init),
                                corridor: corridor.map(CorridorSummary.init), quality: report.quality,
                                announcements: records.flatMap { $0 }, timings: timings,
                                mentioned: heard.flatMap { $0.0.mentions }, analysedBecause: planned?.reason)
        pending(cycle, captureSeconds: captureSeconds)
        controls.publish(AnalysedFrame(sequenceNumber: framesAnalysed, timeSeconds: captureSeconds, image: frame.image,
                                       objects: report.objects, description: report.sentences,
                                       distanceUnit: policy.describer.settings.unit))
        publishSnapshot()
        return processing
    }

    /// What answering the questions about a frame did.
    struct AnsweredQuestions {
        /// The processing seconds, as `cost` maps them; nil when nothing was worked out.
        var processing: Double?
        /// The seconds the answering took, as measured.
        var workSeconds: Double
        /// The frame's scene report, when a question needed the people in it ("how many faces"),
        /// so that the cycle analysing the same frame uses it instead of running the detector again.
        var report: SceneReport?
    }

    /// Answers the questions asked about the picture from `frame`, on a thread of its own under the
    /// question watchdog (commands are taken meanwhile; "stop" or "exit" drops the answer). Each
    /// answer is said as one `.answer` utterance, so the queue's 3-s parts, "more" and "stop" apply.
    func answerQuestions(about frame: Frame, cost: (Double) -> Double) async -> AnsweredQuestions {
        let questions = pendingQuestions
        pendingQuestions = []
        let asked = nowSeconds
        guard let answering = configuration.pictureQuestions else {
            for question in questions {
                say(Utterance(sentences.questionUnavailable, priority: .answer,
                              contentKey: "question:\(question.key)@\(asked)"), at: asked)
            }
            return AnsweredQuestions(processing: nil, workSeconds: 0, report: nil)
        }
        let silencedBefore = silenceRequests.value
        let workStart = wallClock.seconds
        // Faces belong on people's heads: "how many faces" first finds the people in this very
        // frame, as `assist see --faces` does (the last analysed frame may be a moment old, and
        // an on-demand session may not have analysed any); a question about the things in view
        // ("what colour is the bus") is answered about this frame's findings likewise.
        let peopleFinder = questions.contains(where: \.needsObjects) ? await preparedAnalyzer(for: frame) : nil
        let outcome = await analysis.answer(questions, about: frame, with: answering, peopleFinder: peopleFinder,
                                            describer: policy.describer)
        let workSeconds = wallClock.seconds - workStart
        let processing = cost(workSeconds)
        // Offline, the answer is heard after its processing, on the input clock.
        let spokenAt = configuration.isOffline ? asked + processing : nowSeconds
        renderAudio(upTo: spokenAt)
        var report: SceneReport?
        switch outcome {
        case .abandoned:
            return AnsweredQuestions(processing: nil, workSeconds: workSeconds, report: nil)
        case .timedOut:
            say(Utterance(sentences.questionTimedOut, priority: .answer, contentKey: "question:timed-out@\(spokenAt)",
                          earcon: .error), at: spokenAt)
        case .finished(.failure(let error)):
            say(Utterance(userMessage(for: error), priority: .answer, contentKey: "question:failed@\(spokenAt)",
                          earcon: .error), at: spokenAt)
        case .finished(.success(let (answers, analysed))):
            report = analysed
            // "Stop" or "exit" while it was being worked out: the user asked for silence.
            guard silenceRequests.value == silencedBefore, ending == nil else { break }
            for (question, answer) in answers {
                let spoken: [String]
                switch answer {
                case .success(let said): spoken = said
                case .failure(let error): spoken = [error.userMessage]
                }
                // Keyed by time: the same question asked again later is answered again.
                say(Utterance(spoken, priority: .answer, contentKey: "question:\(question.key)@\(spokenAt)"),
                    at: spokenAt)
            }
        }
        publishSnapshot()
        return AnsweredQuestions(processing: processing, workSeconds: workSeconds, report: report)
    }
}
