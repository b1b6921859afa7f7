import Synchronization

/// Hands a new `RuntimeConfiguration` from the control thread to the audio thread without a
/// lock: one atomic word holds a retained pointer to the newest unpicked configuration.
/// `post` replaces it (releasing a never-picked one on the control thread); `take`, called by
/// the audio thread at the start of a block, exchanges it for nothing, which costs one atomic
/// exchange and never allocates.
final class ConfigurationMailbox: Sendable {
    private let pending = Atomic<UInt>(0)

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

    deinit { _ = take() }
}
