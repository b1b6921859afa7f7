import Foundation
import Synchronization

/// The control side of the hearing assistant: holds the settings, validates each change into
/// a new `RuntimeConfiguration` and posts it to the audio thread. Safe to call from any thread
/// (a mutex guards the settings here, never on the audio thread).
public final class HearingAidControl: Sendable {
    private struct State {
        var settings: HearingAidSettings
        var generation: Int
        /// Recent configurations kept alive here as well as through the mailbox's retired slot,
        /// so the audio thread never drops the last reference (no deallocation there).
        var recent: [RuntimeConfiguration]
    }

    private let state: Mutex<State>
    let mailbox = ConfigurationMailbox()
    public let monitors = HearingMonitors()

    public init(settings: HearingAidSettings) throws {
        let configuration = try RuntimeConfiguration(settings: settings, prescriptionGeneration: 0)
        state = Mutex(State(settings: settings, generation: 0, recent: [configuration]))
        mailbox.post(configuration)
    }

    public var settings: HearingAidSettings { state.withLock { $0.settings } }

    /// Applies a change; takes effect at the start of the audio thread's next block.
    /// A changed prescription restarts the gentle gain ramp.
    public func update(_ change: (inout HearingAidSettings) -> Void) throws {
        try state.withLock { state in
            var settings = state.settings
            change(&settings)
            settings.volumeSteps = min(max(settings.volumeSteps, settings.minimumVolumeSteps), settings.maximumVolumeSteps)
            let generation = settings.prescription == state.settings.prescription ? state.generation : state.generation + 1
            let configuration = try RuntimeConfiguration(settings: settings, prescriptionGeneration: generation)
            state.settings = settings
            state.generation = generation
            state.recent.append(configuration)
            if state.recent.count > 8 { state.recent.removeFirst() }
            mailbox.collectRetired()
            mailbox.post(configuration)
        }
    }

    /// One step louder, up to the fitter's limit; returns the volume in dB.
    @discardableResult public func volumeUp() throws -> Double {
        try update { $0.volumeSteps += 1 }
        return settings.volumeDecibels
    }

    /// One step softer, down to the fitter's limit; returns the volume in dB.
    @discardableResult public func volumeDown() throws -> Double {
        try update { $0.volumeSteps -= 1 }
        return settings.volumeDecibels
    }

    public func setMuted(_ muted: Bool) throws { try update { $0.muted = muted } }
    public func select(_ program: ListeningProgram) throws { try update { $0.program = program } }
    public func setBypass(_ bypass: ProcessingBypass) throws { try update { $0.bypass = bypass } }
    public func setPrescription(_ prescription: Prescription) throws { try update { $0.prescription = prescription } }
}

/// The audio side: both ears' chains. Mono input feeds both ears; stereo input keeps its
/// sides (channel 0 left, 1 right). Output is always interleaved stereo.
///
/// `prepare` fixes the format; `process` runs per block without allocating or locking (it
/// picks up a new configuration with one atomic exchange); `release` frees the buffers.
/// Use it from one thread at a time (the audio thread).
public final class HearingAidProcessor {
    public let control: HearingAidControl
    private let ears = [EarProcessor(ear: .left), EarProcessor(ear: .right)]
    private var configuration: RuntimeConfiguration?
    /// A replaced configuration waiting for the mailbox's retired slot to be free.
    private var retiring: RuntimeConfiguration?
    public private(set) var format: ProcessingFormat?

    public init(control: HearingAidControl) { self.control = control }

    public var monitors: HearingMonitors { control.monitors }

    /// Algorithmic delay in frames (the filterbank's window minus its hop).
    public var latencyFrames: Int { format?.algorithmicLatencyFrames ?? 0 }

    public func prepare(_ format: ProcessingFormat) throws {
        let settings = control.settings
        _ = try settings.calibration.validated()
        for ear in ears { ear.prepare(format, calibration: settings.calibration) }
        self.format = format
    }

    /// The peak amplitude no output sample exceeds (the fitted maximum output, below full
    /// scale); 0 before the first block. Audio thread only.
    public var outputCeiling: Float { configuration?.limiterPeakAmplitude ?? 0 }

    /// The configuration `process` is using (tests only).
    var currentConfigurationForTesting: RuntimeConfiguration? { configuration }

    public func release() {
        for ear in ears { ear.release() }
        format = nil
    }

    /// `input`: `frames` × `format.inputChannels` interleaved; `output`: `frames` × 2 interleaved.
    /// `frames` must equal the prepared block size. Unprepared, it writes silence.
    public func process(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        guard let format, frames == format.blockSize else {
            output.update(repeating: 0, count: frames * 2)
            return
        }
        if let waiting = retiring, control.mailbox.retire(waiting) { retiring = nil }
        if let next = control.mailbox.take() {
            if let current = configuration {
                if current.prescriptionGeneration != next.prescriptionGeneration {
                    for index in 0..<ears.count { ears[index].restartGainRamp() }
                }
                if !control.mailbox.retire(current), retiring == nil { retiring = current }
            }
            configuration = next
        }
        guard let configuration else {
            output.update(repeating: 0, count: frames * 2)
            return
        }
        let channels = format.inputChannels
        // By index: `for ear in ears` went through the standard library's unspecialised
        // iterator in the debug build, which allocated on the audio thread every block (gdb).
        for index in 0..<ears.count {
            let ear = ears[index]
            let channel = channels == 1 ? 0 : ear.ear.channelIndex
            ear.process(input + channel, inputStride: channels, output + ear.ear.channelIndex, outputStride: 2,
                        frames: frames, configuration: configuration, monitors: control.monitors)
        }
    }
}

extension HearingAidProcessor {
    /// Offline convenience for files and tests: processes a whole interleaved signal block by
    /// block (the last partial block is padded with silence and trimmed) and returns
    /// interleaved stereo. Allocates; not for the audio thread. `onBlock` sees each block's
    /// index after it is processed (progress, monitor snapshots, settings changes).
    public func processAll(_ input: [Float], onBlock: ((Int) -> Void)? = nil) -> [Float] {
        guard let format else { return [] }
        let channels = format.inputChannels, block = format.blockSize
        let frames = input.count / channels
        let blocks = (frames + block - 1) / block
        var padded = input
        padded.append(contentsOf: [Float](repeating: 0, count: blocks * block * channels - input.count))
        var output = [Float](repeating: 0, count: blocks * block * 2)
        padded.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                for j in 0..<blocks {
                    process(input: inBuffer.baseAddress! + j * block * channels,
                            output: outBuffer.baseAddress! + j * block * 2, frames: block)
                    onBlock?(j)
                }
            }
        }
        output.removeLast(output.count - frames * 2)
        return output
    }
}
