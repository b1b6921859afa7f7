import CQREncode
import Foundation

/// A QR code as a plain value: a square of dark and light modules. Made by libqrencode; this is
/// the only file that touches its pointers.
public struct QRCode: Sendable, Equatable {
    /// The QR symbol version (1…40); the code is 17 + 4 · version modules wide.
    public let version: Int
    /// Modules per side, without the quiet zone.
    public let width: Int
    /// Row-major, `true` for a dark module.
    public let modules: [Bool]

    public enum ErrorCorrection: Sendable {
        /// ~7 % of the code may be lost.
        case low
        /// ~15 %: the default; survives a smudge or some glare while keeping the code small.
        case medium
        /// ~25 %.
        case quartile
        /// ~30 %.
        case high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    public init(version: Int, width: Int, modules: [Bool]) {
        precondition(modules.count == width * width)
        self.version = version
        self.width = width
        self.modules = modules
    }

    /// Encodes `text` in the smallest version that holds it; libqrencode chooses the modes
    /// (alphanumeric for a prescription's Base45 text).
    public init(encoding text: String, correction: ErrorCorrection = .medium) throws {
        guard let code = text.withCString({ QRcode_encodeString($0, 0, correction.level, QR_MODE_8, 1) }) else {
            let reason = errno == ERANGE ? "the text is too long for the largest QR code" : "libqrencode failed (errno \(errno))"
            throw PrescriptionError.qrEncodingFailed(reason: reason)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits describe its role.
        let modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
        self.init(version: Int(code.pointee.version), width: width, modules: modules)
    }

    public func isDark(x: Int, y: Int) -> Bool { modules[y * width + x] }
}
