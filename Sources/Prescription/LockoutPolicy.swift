import Foundation

/// How wrong passphrases slow down and then lock the patient store. The first few mistakes are
/// free (a typo is not an attack); then each further attempt has to wait, doubling; from
/// `lockAfterFailures` on the store is locked for `lockSeconds` after every failure. The count is
/// kept on disk, so restarting the program does not reset it.
///
/// This stops guessing through AssistiveKit. Someone who copies the store's files can guess
/// offline without it; against that only the memory-hard KDF and a long passphrase help.
public struct LockoutPolicy: Sendable, Equatable {
    public var freeAttempts: Int
    public var firstDelaySeconds: Int
    public var lockAfterFailures: Int
    public var lockSeconds: Int

    public init(freeAttempts: Int, firstDelaySeconds: Int, lockAfterFailures: Int, lockSeconds: Int) {
        self.freeAttempts = freeAttempts
        self.firstDelaySeconds = firstDelaySeconds
        self.lockAfterFailures = lockAfterFailures
        self.lockSeconds = lockSeconds
    }

    /// 3 free attempts; then 30 s, 60 s, 120 s; from the 6th failure in a row, 15 minutes each.
    public static let standard = LockoutPolicy(freeAttempts: 3, firstDelaySeconds: 30, lockAfterFailures: 6, lockSeconds: 15 * 60)

    /// Seconds to wait after `failures` consecutive wrong passphrases.
    public func waitSeconds(afterFailures failures: Int) -> Int {
        if failures >= lockAfterFailures { return lockSeconds }
        if failures < freeAttempts { return 0 }
        return firstDelaySeconds << min(failures - freeAttempts, 20)
    }

    public func isLock(afterFailures failures: Int) -> Bool { failures >= lockAfterFailures }
}
