import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A yes/no question put to the user at the terminal; only an answer starting with y is yes.
public enum TerminalQuestion {
    /// nil when standard input is not a terminal, so nobody can answer (scripts confirm with a flag instead).
    public static func yesOrNo(_ question: String) -> Bool? {
        guard isatty(STDIN_FILENO) != 0 else { return nil }
        print(question + " [y/N] ", terminator: "")
        return readLine()?.lowercased().hasPrefix("y") == true
    }
}
