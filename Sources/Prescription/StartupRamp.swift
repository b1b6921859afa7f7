import Crypto
import Foundation
import Hearing

/// The gentle ramp-in happens on the first start after a *new* prescription, not every start.
/// Which fitting last started is about the patient, so it is kept in the sealed store state
/// (`StoreState.lastStartedFitting`), never in a file of its own; `eraseAll` removes it with
/// everything else.
extension UnlockedPatientStore {
    /// The full ramp for a fitting this store has not started before, a short fade otherwise
    /// (a fade, so that even a known fitting never starts with a pop).
    public func startupRampSeconds(for fitting: Hearing.Prescription, fullRampSeconds: Double = 2) -> Double {
        guard let digest = try? Self.digest(fitting), let state = try? readState(), state.lastStartedFitting == digest else {
            return fullRampSeconds
        }
        return 0.05
    }

    /// Records that listening started with `fitting`.
    public func recordStarted(_ fitting: Hearing.Prescription) throws {
        let digest = try Self.digest(fitting)
        try StoreFiles.withLock(folder) {
            var state = try readState()
            guard state.lastStartedFitting != digest else { return }
            state.lastStartedFitting = digest
            try writeState(state)
        }
    }

    static func digest(_ fitting: Hearing.Prescription) throws -> Data {
        Data(SHA256.hash(data: try JSONEncoder.sorted.encode(fitting)))
    }
}
