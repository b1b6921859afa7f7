import AssistCore
import Foundation
import Synchronization
import Testing
@testable import VoiceInput

/// ONNX Runtime at the end of a process. `exit()` runs the C++ runtime's static destructors on
/// the exiting thread while other threads go on; a recognition still running on another thread
/// (the live session's voice listener when the video ends or the user says "exit") then met
/// ONNX Runtime half torn down: "GetElementType is not implemented" from the node it was running,
/// or a crash (issue 35: the reason the neural recogniser was not the default).
@Suite("ONNX Runtime at the end of a process")
struct RuntimeLifetimeTests {
    /// What the exiting process and its transcribing thread tell each other.
    enum Probe {
        /// Set by the last exit handler, once ONNX Runtime's statics have been destroyed.
        static let tornDown = Atomic(false)
        /// Signalled by the transcribing thread after it tried once more after that.
        static let triedAgain = DispatchSemaphore(value: 0)
    }

    @Test("a process that exits while another thread is transcribing exits cleanly: the transcription is turned away, never run on a torn-down runtime")
    func exitDuringTranscription() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            // Registered before ONNX Runtime is first used, so run by exit() after everything
            // ONNX Runtime made has been destroyed: it lets the transcribing thread try once more
            // then, and waits for it (no clock: the thread's next step is the event).
            atexit {
                Probe.tornDown.store(true, ordering: .sequentiallyConsistent)
                Probe.triedAgain.wait()
            }
            let running = DispatchSemaphore(value: 0)
            let worker = Thread {
                do {
                    // Made and used on this thread only, as the live listener does.
                    let transcriber = try MoonshineTranscriber(files: try SpeechModelFiles.installed())
                    var generator = SplitMix64(seed: 35)
                    let noise = (0..<16_000).map { _ in Float.random(in: -0.1...0.1, using: &generator) }
                    var first = true
                    while true {
                        let afterTeardown = Probe.tornDown.load(ordering: .sequentiallyConsistent)
                        _ = try transcriber.transcribe(noise)
                        if first { first = false; running.signal() }
                        if afterTeardown { break }
                    }
                } catch SpeechRecognitionError.model(.processEnding) {
                    // Turned away: the process is ending.
                } catch {
                    FileHandle.standardError.write(Data("transcription failed: \(error)\n".utf8))
                    _exit(70)
                }
                Probe.triedAgain.signal()
            }
            worker.start()
            running.wait()
            exit(0)
        }
        // ONNX Runtime logs a node's failure on standard error.
        let said = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(!said.contains("onnxruntime") && !said.contains("transcription failed"), "\(said)")
    }
}
