import Synchronization

/// Hands a new `RuntimeConfiguration` from the control thread to the audio thread without a
/// lock: one atomic word holds a retained pointer to the newest unpicked configuration.
/// `post` replaces it (releasing a never-picked one on the control thread); `take`, called by
/// the audio thread at the start of a block, exchanges it for nothing, which costs one atomic
/// exchange and never allocates.
///
/// The configuration the audio thread replaces must not be freed there (free may lock), so it
/// goes back through a second slot, `retired`, that the control thread empties (and frees) on
/// its next change.
final class ConfigurationMailbox: Sendable {
    private let pending = Atomic<UInt>(0)
    private let retired = Atomic<UInt>(0)

    func post(_ configuration: RuntimeConfiguration) {
        let raw = UInt(bitPattern: Unmanaged.passRetained(configuration).toOpaque())
        let previous = pending.exchange(raw, ordering: .acquiringAndReleasing)
        if let pointer = UnsafeRawPointer(bitPattern: previous) {
            Unmanaged<RuntimeConfiguration>.fromOpaque(pointer).release()
        }
    }

    func take() -> RuntimeConfiguration? {
        let raw = pending.exchange(0, ordering: .acquiringAndReleasing)
        guard let pointer = UnsafeRawPointer(bitPattern: raw) else { return nil }
        return Unmanaged<RuntimeConfiguration>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Audio thread: hands back a replaced configuration if the slot is free; false if it is
    /// still occupied (the caller keeps the configuration and tries again next block).
    func retire(_ configuration: RuntimeConfiguration) -> Bool {
        let raw = UInt(bitPattern: Unmanaged.passRetained(configuration).toOpaque())
        if retired.compareExchange(expected: 0, desired: raw, ordering: .acquiringAndReleasing).exchanged { return true }
        Unmanaged<RuntimeConfiguration>.fromOpaque(UnsafeRawPointer(bitPattern: raw)!).release()
        return false
    }

    /// Control thread: frees the configuration the audio thread handed back, if any.
    func collectRetired() {
        let raw = retired.exchange(0, ordering: .acquiringAndReleasing)
        if let pointer = UnsafeRawPointer(bitPattern: raw) {
            Unmanaged<RuntimeConfiguration>.fromOpaque(pointer).release()
        }
    }

    deinit {
        _ = take()
        collectRetired()
    }
}
