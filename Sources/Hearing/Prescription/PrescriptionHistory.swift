import Foundation

/// Remembers the prescription the hearing assistant last started with, so the gentle gain
/// ramp-in happens on the first start after a *new* prescription, not on every start.
/// Stored as JSON in the user's data folder (`~/.local/share/assistivekit/hearing`).
public struct PrescriptionHistory: Sendable {
    public let file: URL

    public init(directory: URL) {
        file = directory.appendingPathComponent("last-started-prescription.json")
    }

    /// True when `prescription` differs from the last one recorded (or none was).
    public func isNew(_ prescription: Prescription) -> Bool {
        guard let data = try? Data(contentsOf: file),
              let last = try? JSONDecoder().decode(Prescription.self, from: data) else { return true }
        return last != prescription
    }

    public func record(_ prescription: Prescription) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try JSONEncoder().encode(prescription).write(to: file, options: .atomic)
    }

    /// The start-up ramp to use: the full one for a new prescription, a short fade otherwise
    /// (a fade, so that even a known prescription never starts with a pop).
    public func startupRampSeconds(for prescription: Prescription, fullRampSeconds: Double = 2) -> Double {
        isNew(prescription) ? fullRampSeconds : 0.05
    }
}
