import Foundation
import Testing

/// Phone photos made by tests: a JPEG given an EXIF Orientation tag, as a camera writes it.
public enum ExifPhoto {
    public enum ByteOrder: CustomTestStringConvertible, Sendable {
        case littleEndian, bigEndian
        public var testDescription: String { self == .littleEndian ? "II (little-endian)" : "MM (big-endian)" }
    }

    /// The JPEG with an APP1 "Exif" segment holding one IFD with one entry, Orientation (0x0112,
    /// SHORT), placed right after the start-of-image marker as cameras do.
    public static func insertingExifOrientation(_ orientation: Int, byteOrder: ByteOrder, into jpeg: Data) -> Data {
        func u16(_ value: Int) -> [UInt8] {
            byteOrder == .littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        func u32(_ value: Int) -> [UInt8] {
            byteOrder == .littleEndian ? u16(value & 0xFFFF) + u16(value >> 16) : u16(value >> 16) + u16(value & 0xFFFF)
        }
        var tiff: [UInt8] = byteOrder == .littleEndian ? Array("II".utf8) : Array("MM".utf8)
        tiff += u16(42) + u32(8)                                 // TIFF magic, first IFD at offset 8
        tiff += u16(1)                                           // one entry
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]   // Orientation, SHORT, count 1, value
        tiff += u32(0)                                           // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2                           // the length field counts itself
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        precondition(jpeg.prefix(2) == Data([0xFF, 0xD8]), "not a JPEG")
        return Data(jpeg.prefix(2) + segment + jpeg.dropFirst(2))
    }
}
