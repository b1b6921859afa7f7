import AssistCore
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Inference
@testable import Perception

/// OpenVINO at the end of a process (issue 36). `exit()` runs the C++ runtime's static
/// destructors on the exiting thread while other threads go on; a model still compiling or
/// running on another thread (the command understanding's sentence model, loaded beside the
/// detector; an analysis the watchdog gave up on) then met OpenVINO's CPU plugin torn down, and
/// `assist see` ended with SIGSEGV after "Goodbye." in 6 of 16 exits measured.
@Suite("OpenVINO at the end of a process")
struct InferenceLifetimeTests {
    /// What the exiting process and its inferring thread tell each other.
    enum Probe {
        /// Set by the last exit handler, once OpenVINO's statics have been destroyed.
        static let tornDown = Atomic(false)
        /// Signalled by the inferring thread after it tried once more after that.
        static let triedAgain = DispatchSemaphore(value: 0)
    }

    @Test("a process that exits while another thread runs a model ends with its own status: a later inference is turned away, never run on a torn-down OpenVINO")
    func exitDuringInference() async {
        await #expect(processExitsWith: .exitCode(3)) {
            // Registered before OpenVINO is first used, so run by exit() after everything OpenVINO
            // made has been destroyed: it lets the inferring thread try once more then, and waits
            // for it (no clock: the thread's next step is the event).
            atexit {
                Probe.tornDown.store(true, ordering: .sequentiallyConsistent)
                Probe.triedAgain.wait()
            }
            let running = DispatchSemaphore(value: 0)
            let image = try decodeTestImage(SharedFiles.image("bus.jpg"))
            Thread {
                do {
                    // Made and used on this thread only, as the session's analysis does.
                    let detector = try ObjectDetector(modelURL: SharedFiles.irModel, options: InferenceOptions(cacheDirectory: nil),
                                                      inputShape: .square)
                    var first = true
                    while true {
                        let afterTeardown = Probe.tornDown.load(ordering: .sequentiallyConsistent)
                        _ = try detector.detect(image)
                        if first { first = false; running.signal() }
                        if afterTeardown { break }
                    }
                } catch let error as InferenceError where error == .processEnding {
                    // Turned away: the process is ending.
                } catch {
                    FileHandle.standardError.write(Data("inference failed: \(error)\n".utf8))
                    _exit(70)
                }
                Probe.triedAgain.signal()
            }.start()
            running.wait()
            exit(3)
        }
    }

    @Test("once closed, a call is turned away and a release skipped; close waits for a call in flight, at most as long as it is told")
    func closing() {
        let use = LibraryUse()
        let entered = DispatchSemaphore(value: 0), finish = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        Thread {
            try? use.call(ifEnding: CancellationError()) { () throws(CancellationError) in
                entered.signal()
                finish.wait()
            }
            returned.signal()
        }.start()
        entered.wait()
        // The call goes on: close gives up after its bound rather than wait for it.
        #expect(!use.close(waitingAtMostSeconds: 0.05))
        #expect(throws: CancellationError.self) { try use.call(ifEnding: CancellationError()) { () throws(CancellationError) in } }
        var released = false
        use.release { released = true }
        #expect(!released)
        finish.signal()
        returned.wait()
        #expect(use.close(waitingAtMostSeconds: 0), "nothing in flight any more")
    }
}
