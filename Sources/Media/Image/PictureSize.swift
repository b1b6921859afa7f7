import Foundation

/// The size a picture file declares in its header, read before any decoding, so that a picture
/// too large to decode safely is refused at once (issue 16: a 746-kB PNG of 16000×16000 took
/// 1.67 GB and 12.7 s; one of 60000×60000 was called "damaged"). PNG and JPEG, the formats
/// cameras and phones write, are read here; other formats are capped by FFmpeg's `max_pixels`.
public struct PictureSize: Sendable, Equatable {
    public let width: Int
    public let height: Int

    /// Saturating: a header may declare 4 billion by 4 billion (the fuzzer's first find), and
    /// `width * height` would then trap.
    public var pixels: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    /// 50 megapixels: a 48-megapixel phone photo (8000×6000) is read; an RGB copy of the cap is
    /// 150 MB, which the perception steps (that scale to 640 pixels anyway) can afford.
    public static let maximumPixels = 50_000_000

    /// The narrowest side read: 8 pixels. Smaller pictures (an icon, a 1×1 tracking pixel) show
    /// nothing the detector, the reader or a QR search could find.
    public static let minimumSide = 8

    /// The declared size of a PNG (IHDR) or JPEG (first SOF marker) in `header`, the first bytes
    /// of a file; nil for other formats or a header too short to tell.
    public static func declared(in header: Data) -> PictureSize? {
        let bytes = [UInt8](header)
        if bytes.count >= 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] {
            func big32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return PictureSize(width: big32(16), height: big32(20))
        }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }   // fill bytes
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { index += 2; continue }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            // Start of frame: baseline, progressive, lossless and arithmetic variants (not DHT C4, JPG C8, DAC CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return PictureSize(width: width, height: height)
            }
            if marker == 0xDA || length < 2 { return nil }   // scan data: no frame header before it
            index += 2 + length
        }
        return nil
    }

    /// The declared size of the picture file at `path` (its first 256 kB are read: EXIF blocks
    /// come before a JPEG's frame header), or nil.
    public static func declared(atPath path: String) -> PictureSize? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 256 * 1024) else { return nil }
        return declared(in: header)
    }
}
