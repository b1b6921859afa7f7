import Foundation
import Hearing
import Prescription
import TestSupport
import Testing
@testable import LiveHearing

/// The live hearing aid's command channel for the web app, without a sound device: commands go
/// through the session's rules, refusals are thrown to the sender, the state is told in words.
@Suite("The live hearing aid's remote: commands in, state out")
struct LiveHearingRemoteTests {
    @Test("before the sound starts a command is refused in one sentence; once attached, commands change the running chain and the state says so")
    func commandsAndState() throws {
        let remote = LiveHearingRemote()
        #expect(throws: LiveHearingRemoteError.notRunning) { try remote.perform(.program("tv")) }
        #expect(remote.state.sentence == "The live hearing aid is starting.")
        let clock = ManualClock(LiveHearingSessionTests.issued.addingTimeInterval(3600)), transcript = Transcript()
        let hearing = PrescribedHearing(audiogram: try LiveHearingSessionTests.audiogram(), options: FittingOptions(rule: .nalR),
                                        programs: [.quiet, .conversationInNoise, .tv], origin: "test")
        let session = try LiveHearingSessionTests.session(hearing, debugging: nil, clock: clock, transcript: transcript)
        remote.attach(session, connection: "system → system [JACK], 48000 Hz, 64-frame buffers")
        remote.waitUntilStartedOrEnded()
        try remote.perform(.program("tv"))
        try remote.perform(.softer)
        #expect(session.control.settings.program == .tv)
        #expect(transcript.said == ["Program tv."])
        #expect(throws: PrescriptionError.programNotPrescribed(program: "music", prescribed: ["quiet", "conversation-in-noise", "tv"])) {
            try remote.perform(.program("music"))
        }
        remote.report(phase: .running, blocks: 750, dropouts: 1)
        #expect(remote.state.sentence == "The live hearing aid is running through system → system [JACK], 48000 Hz, 64-frame buffers, "
                + "in program tv, volume −2 dB; 750 blocks, 1 dropouts.")
        remote.report(phase: .deviceLost, blocks: 750, dropouts: 1)
        #expect(remote.state.sentence == LiveHearingAid.deviceGoneSentence)
        // `quit` from the page stops the aid as `q` stops the terminal's.
        try remote.perform(.quit)
        #expect(remote.isStopping)
        remote.ended(problem: nil)
        remote.waitUntilEnded()
        #expect(remote.session == nil)
        #expect(remote.state.sentence == "The live hearing aid has stopped.")
        #expect(throws: LiveHearingRemoteError.notRunning) { try remote.perform(.louder) }
    }

    @Test("an aid that could not start reports its one sentence")
    func failed() {
        let remote = LiveHearingRemote()
        remote.ended(problem: "No audio device was found; connect a microphone and headphones (and check that the sound system sees them), then try again.")
        remote.waitUntilStartedOrEnded()
        #expect(remote.state.phase == .failed("No audio device was found; connect a microphone and headphones (and check that the sound system sees them), then try again."))
        #expect(remote.session == nil)
    }
}
