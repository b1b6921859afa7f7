import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a passphrase comes from: a file's first line, an environment variable, or the terminal
/// with echo off (getpass), so it never shows on screen. The patient store, the audiologist's
/// signing key and backups all read theirs this way.
public struct PassphraseSource: Sendable {
    /// A file whose first line is the passphrase.
    public var file: String?
    /// The environment variable read when no file is given.
    public var environmentVariable: String

    public init(file: String?, environmentVariable: String) {
        self.file = file
        self.environmentVariable = environmentVariable
    }

    /// Why no passphrase was read, in one sentence.
    public enum Failure: UserFacingError, Equatable {
        case fileUnreadable(String)
        case noneGiven(variable: String)
        /// The two entries typed differ; the sentence says what was left undone.
        case entriesDiffer(String)

        public var userMessage: String {
            switch self {
            case .fileUnreadable(let file): return "The passphrase file \(file) does not exist or is not readable."
            case .noneGiven(let variable): return "No passphrase: give a passphrase file, set \(variable), or run in a terminal."
            case .entriesDiffer(let sentence): return sentence
            }
        }
    }

    /// `repeatPrompt`: ask twice (a new passphrase), and refuse with `mismatch` when they differ.
    public func read(prompt: String, repeatPrompt: String? = nil, mismatch: String = "",
                     environment: [String: String] = ProcessInfo.processInfo.environment) throws(Failure) -> String {
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw .fileUnreadable(file) }
            return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        if let value = environment[environmentVariable], !value.isEmpty { return value }
        guard isatty(STDIN_FILENO) != 0 else { throw .noneGiven(variable: environmentVariable) }
        let first = Self.ask(prompt)
        if let repeatPrompt, Self.ask(repeatPrompt) != first { throw .entriesDiffer(mismatch) }
        return first
    }

    private static func ask(_ text: String) -> String {
        guard let pointer = getpass(text) else { return "" }
        return String(cString: pointer)
    }
}
