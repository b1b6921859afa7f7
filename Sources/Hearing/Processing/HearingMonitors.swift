import Foundation
import Synchronization

/// Read-only monitor values of the running chain (openMHA's monitor variables): per ear and
/// band the smoothed input level, the applied insertion gain and the noise estimate, plus the
/// limiter's gain. The audio thread stores them with relaxed atomics once per hop — wait-free,
/// no locks — and any thread may read them while it runs.
public final class HearingMonitors: Sendable {
    public enum Quantity: Int, CaseIterable, Sendable {
        /// Smoothed band input level, dB SPL.
        case inputLevelSPL
        /// Insertion gain applied in the band (compression, program, volume, noise reduction), dB.
        case appliedGainDecibels
        /// Noise-reduction estimate of the band's noise level, dB SPL.
        case noiseLevelSPL
        /// How far the howling detector has lowered the band's gain, dB (0 when it never rang).
        case howlGainReductionDecibels
    }

    public static var bandFrequenciesHz: [Double] { BandLayout.centreFrequenciesHz }
    static let perEar = Quantity.allCases.count * BandLayout.bandCount + 1

    private nonisolated(unsafe) let values: UnsafeMutablePointer<Atomic<UInt32>>
    private let count: Int
    private let damaged = Atomic<Int>(0)

    public init() {
        count = 2 * Self.perEar
        values = .allocate(capacity: count)
        for i in 0..<count { (values + i).initialize(to: Atomic(Float(0).bitPattern)) }
    }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
    }

    @inline(__always)
    private func index(_ ear: Ear, _ quantity: Quantity, _ band: Int) -> Int {
        ear.channelIndex * Self.perEar + quantity.rawValue * BandLayout.bandCount + band
    }

    @inline(__always)
    func store(_ value: Float, _ ear: Ear, _ quantity: Quantity, band: Int) {
        values[index(ear, quantity, band)].store(value.bitPattern, ordering: .relaxed)
    }

    @inline(__always)
    func storeLimiterGain(_ value: Float, _ ear: Ear) {
        values[ear.channelIndex * Self.perEar + Self.perEar - 1].store(value.bitPattern, ordering: .relaxed)
    }

    @inline(__always)
    func addDamagedInputSamples(_ count: Int) {
        damaged.add(count, ordering: .relaxed)
    }

    /// Input samples the `InputGuard` replaced by silence since the start.
    public var damagedInputSamples: Int { damaged.load(ordering: .relaxed) }

    public func value(_ quantity: Quantity, ear: Ear, band: Int) -> Float {
        Float(bitPattern: values[index(ear, quantity, band)].load(ordering: .relaxed))
    }

    /// One quantity for all bands, in the order of `bandFrequenciesHz`.
    public func values(_ quantity: Quantity, ear: Ear) -> [Float] {
        (0..<BandLayout.bandCount).map { value(quantity, ear: ear, band: $0) }
    }

    /// Limiter gain in dB (0 when it is not limiting).
    public func limiterGainDecibels(ear: Ear) -> Float {
        let g = Float(bitPattern: values[ear.channelIndex * Self.perEar + Self.perEar - 1].load(ordering: .relaxed))
        return 20 * log10f(max(g, 1e-6))
    }
}

/// A snapshot of the monitors at one moment, for a JSON time series.
public struct MonitorSnapshot: Codable, Sendable, Equatable {
    public let timeSeconds: Double
    public let left: EarSnapshot
    public let right: EarSnapshot

    public struct EarSnapshot: Codable, Sendable, Equatable {
        public let inputLevelSPL: [Float]
        public let appliedGainDecibels: [Float]
        public let noiseLevelSPL: [Float]
        public let limiterGainDecibels: Float
    }

    public init(timeSeconds: Double, monitors: HearingMonitors) {
        self.timeSeconds = timeSeconds
        func ear(_ e: Ear) -> EarSnapshot {
            EarSnapshot(inputLevelSPL: monitors.values(.inputLevelSPL, ear: e),
                        appliedGainDecibels: monitors.values(.appliedGainDecibels, ear: e),
                        noiseLevelSPL: monitors.values(.noiseLevelSPL, ear: e),
                        limiterGainDecibels: monitors.limiterGainDecibels(ear: e))
        }
        left = ear(.left)
        right = ear(.right)
    }
}

/// The JSON document written by `assist hear --monitor`: band frequencies once, then snapshots.
public struct MonitorTimeSeries: Codable, Sendable {
    public var bandFrequenciesHz: [Double] = HearingMonitors.bandFrequenciesHz
    public var snapshots: [MonitorSnapshot] = []
    public init() {}
}

/// Samples the monitors of a running chain into a time series on its own thread (for live
/// mode; file mode snapshots between blocks instead). Reading the monitors is wait-free, so
/// the audio thread never waits for the recorder.
public final class MonitorRecorder: Sendable {
    private let monitors: HearingMonitors
    private let intervalSeconds: Double
    private let running = Atomic<Bool>(false)
    private let series = Mutex(MonitorTimeSeries())
    private let started = Mutex<Date?>(nil)

    public init(monitors: HearingMonitors, intervalSeconds: Double = 0.1) {
        self.monitors = monitors
        self.intervalSeconds = intervalSeconds
    }

    /// Takes the first snapshot at once, then one every interval on a thread of its own.
    public func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let start = Date()
        started.withLock { $0 = start }
        takeSnapshot()
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: intervalSeconds)
                guard running.load(ordering: .acquiring) else { break }
                takeSnapshot()
            }
        }
        thread.start()
    }

    /// Stops sampling and returns what was recorded, ending with the state at this moment: a
    /// series always has its start and its end, however seldom a busy machine ran the thread.
    public func stop() -> MonitorTimeSeries {
        if running.exchange(false, ordering: .acquiringAndReleasing) { takeSnapshot() }
        return series.withLock { $0 }
    }

    private func takeSnapshot() {
        guard let start = started.withLock({ $0 }) else { return }
        let snapshot = MonitorSnapshot(timeSeconds: Date().timeIntervalSince(start), monitors: monitors)
        series.withLock { $0.snapshots.append(snapshot) }
    }
}
