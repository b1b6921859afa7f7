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

    @Test("pictures: all described, none readable, or some not described")
    func pictureOutcome() {
        let described = PictureResult(source: "bus.jpg", report: nil, error: nil)
        let unreadable = PictureResult(source: "notes.jpg", report: nil, error: "not a picture", pictureUnreadable: true)
        let failed = PictureResult(source: "room.jpg", report: nil, error: "depth file of another size")
        #expect(PictureDescription.outcome(of: [described]) == .allDescribed)
        #expect(PictureDescription.outcome(of: [unreadable, unreadable]) == .noneReadable)
        #expect(PictureDescription.outcome(of: [unreadable, described]) == .someNotDescribed)
        #expect(PictureDescription.outcome(of: [failed]) == .someNotDescribed)
    }

    @Test("describing pictures with a missing model fails as the model's kind of failure, before any speech output is made")
    func missingModelStatus() throws {
        let pictures = PictureDescription(detector: DetectorChoice(modelPath: "/nonexistent/m.xml"))
        var spokenMade = false
        do {
            _ = try pictures.describe(["bus.jpg"], spokenOutput: { spokenMade = true; return nil }, onResult: { _ in })
            Issue.record("a missing model was not refused")
        } catch let failure as PictureDescriptionError {
            #expect(failure == .modelUnavailable(reason: "The model file /nonexistent/m.xml does not exist."))
        }
        #expect(!spokenMade)
    }

    @Test("a second wake listener is refused as already listening, and may start once the first ends")
    func wakeLock() throws {
        let folder = TemporaryFolder.path("wake")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try WakeListenerLock.acquire(in: folder)
        do {
            _ = try WakeListenerLock.acquire(in: folder)
            Issue.record("a second listener was let in")
        } catch {
            #expect(error == .alreadyListening(owner: "\(getpid())"))
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
