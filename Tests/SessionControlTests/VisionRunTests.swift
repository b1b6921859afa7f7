import AssistCore
import Foundation
import TestSupport
import Guidance
import LiveGuidance
import Media
import Perception
import SessionControl
import Storage
import Testing

@Suite("Running the vision assistant in process: choices over stored settings, exit statuses, the wake lock")
struct VisionRunTests {
    @Test("a wording option wins over the stored setting, which wins over the default")
    func choiceOverStored() throws {
        var stored = Settings.defaults
        stored.detection.confidenceThreshold = 0.7
        stored.units = .imperial
        let fromStore = try DescriptionChoice().settings(stored: stored)
        #expect(fromStore.minimumConfidence == 0.7)
        #expect(fromStore.unit == .feet)
        let given = try DescriptionChoice(minimumConfidence: 0.3, unit: .meters).settings(stored: stored)
        #expect(given.minimumConfidence == 0.3)
        #expect(given.unit == .meters)
        #expect(try DescriptionChoice().settings(stored: nil).minimumConfidence == DescriptionSettings.defaultMinimumConfidence)
        #expect(DescriptionChoice(iouThreshold: 0.6).iouThreshold(stored: stored) == 0.6)
        #expect(DescriptionChoice().iouThreshold(stored: nil) == DescriptionChoice.defaultIoUThreshold)
    }

    @Test("the stored mode's name is the guidance mode of the same name")
    func storedModeNames() {
        for mode in Mode.startable {
            #expect(GuidanceMode(starting: mode)?.name == mode.name)
        }
    }

    @Test("pictures: done when all are described, input unavailable when none could be read, failed otherwise")
    func pictureStatus() {
        let described = PictureResult(source: "bus.jpg", report: nil, error: nil)
        let unreadable = PictureResult(source: "notes.jpg", report: nil, error: "not a picture", pictureUnreadable: true)
        let failed = PictureResult(source: "room.jpg", report: nil, error: "depth file of another size")
        #expect(PictureDescription.status(of: [described]) == .done)
        #expect(PictureDescription.status(of: [unreadable, unreadable]) == .inputUnavailable)
        #expect(PictureDescription.status(of: [unreadable, described]) == .failed)
        #expect(PictureDescription.status(of: [failed]) == .failed)
    }

    @Test("describing pictures with a missing model fails with the model's status, 3, as a live run does")
    func missingModelStatus() throws {
        let pictures = PictureDescription(detector: DetectorChoice(modelPath: "/nonexistent/m.xml"))
        var spokenMade = false
        do {
            _ = try pictures.describe(["bus.jpg"], spokenOutput: { spokenMade = true; return nil }, onResult: { _ in })
            Issue.record("a missing model was not refused")
        } catch let failure as CommandFailure {
            #expect(failure.status == .modelUnavailable)
            #expect(failure.exitCode == SessionStartupError.Kind.model.exitStatus)
            #expect(failure.message == "The model file /nonexistent/m.xml does not exist.")
        }
        #expect(!spokenMade)
    }

    @Test("each start-up failure kind of a live run has the status every command uses")
    func startupKinds() {
        #expect(SessionStartupError.Kind.model.status == .modelUnavailable)
        #expect(SessionStartupError.Kind.input.status == .inputUnavailable)
        #expect(SessionStartupError.Kind.audio.status == .audioUnavailable)
        #expect(SessionEnding.inputEnded.exitStatus == ExitStatus.done.rawValue)
        #expect(SessionEnding.detectionFailed.exitStatus == ExitStatus.failed.rawValue)
        #expect(Set(ExitStatus.allCases.map(\.rawValue)).count == ExitStatus.allCases.count)
    }

    @Test("a second wake listener is refused with the already-running status, and may start once the first ends")
    func wakeLock() throws {
        let folder = TemporaryFolder.path("wake")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try WakeListenerLock.acquire(in: folder)
        do {
            _ = try WakeListenerLock.acquire(in: folder)
            Issue.record("a second listener was let in")
        } catch {
            #expect(error == .alreadyListening(owner: "\(getpid())"))
            #expect(error.status == .alreadyRunning)
            #expect(error.status.rawValue == 75)
        }
        first.release()
        try WakeListenerLock.acquire(in: folder).release()
    }

    @Test("live inputs are told from pictures: camera:N, a video by its extension, a picture is not live")
    func liveInputs() {
        #expect(LiveInputArgument.classify("camera:2", storedCamera: nil, cameraFormat: .standard, folderRate: 1)
                == .camera(devicePath: "/dev/video2", format: .standard))
        #expect(LiveInputArgument.classify("walk.MP4", storedCamera: nil, cameraFormat: .standard, folderRate: 1)
                == .file(URL(fileURLWithPath: "walk.MP4")))
        #expect(LiveInputArgument.classify("photo.jpg", storedCamera: nil, cameraFormat: .standard, folderRate: 1) == nil)
        #expect(LiveInputArgument.classify("camera", storedCamera: "/dev/video5", cameraFormat: .standard, folderRate: 1)
                == .camera(devicePath: "/dev/video5", format: .standard))
    }
}
