import Foundation

/// A binary PGM (P5) read by hand rather than by FFmpeg, for two reasons: FFmpeg's pnm decoder
/// rescales 16-bit samples whose maxval is below 65535 to the full range (which would turn
/// millimetres into nonsense), and it always reads 16-bit samples big-endian, while the NYU raw
/// Kinect dump stores little-endian samples under the same P5 header.
struct PortableGraymap {
    enum ByteOrder { case bigEndian, littleEndian }

    enum ParseFailure: Error, Equatable {
        /// The file does not start with "P5".
        case notBinaryPGM
        /// The header is malformed (missing or impossible width, height or maxval).
        case badHeader
        /// Fewer sample bytes than the header promises.
        case truncated
    }

    let width: Int
    let height: Int
    /// The header's maxval: above 255 each sample takes two bytes.
    let maxValue: Int
    let bytes: Data
    /// Where the samples start, counted from the first byte of `bytes`.
    let rasterOffset: Int

    var bytesPerSample: Int { maxValue > 255 ? 2 : 1 }

    /// Whether `bytes` start with the P5 magic.
    static func isBinaryPGM(_ bytes: Data) -> Bool {
        bytes.starts(with: [UInt8(ascii: "P"), UInt8(ascii: "5")])
    }

    /// Reads the header (netpbm's pgm(5): "P5", width, height, maxval, separated by whitespace
    /// and `#` comments, then one whitespace byte before the samples).
    init(parsing bytes: Data) throws(ParseFailure) {
        guard Self.isBinaryPGM(bytes) else { throw .notBinaryPGM }
        // Offsets count from the first byte, whatever `bytes.startIndex` is (it may be a slice).
        func byte(_ offset: Int) -> UInt8 { bytes[bytes.startIndex + offset] }
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var position = 2
        func nextNumber() throws(ParseFailure) -> Int {
            while position < bytes.count {
                if isWhitespace(byte(position)) {
                    position += 1
                } else if byte(position) == UInt8(ascii: "#") {
                    while position < bytes.count && byte(position) != 0x0A && byte(position) != 0x0D { position += 1 }
                } else {
                    break
                }
            }
            var value = 0, digits = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte(position)) {
                value = value * 10 + Int(byte(position) - UInt8(ascii: "0"))
                digits += 1
                position += 1
                guard value <= 1 << 24 else { throw .badHeader }
            }
            guard digits > 0 else { throw .badHeader }
            return value
        }
        let width = try nextNumber(), height = try nextNumber(), maxValue = try nextNumber()
        guard width > 0, height > 0, (1...65535).contains(maxValue),
              position < bytes.count, isWhitespace(byte(position)) else { throw .badHeader }
        self.width = width
        self.height = height
        self.maxValue = maxValue
        self.bytes = bytes
        self.rasterOffset = position + 1
        guard bytes.count - rasterOffset >= width * height * bytesPerSample else { throw .truncated }
    }

    /// The 16-bit samples, rows top to bottom, read in `byteOrder`.
    func samples16(byteOrder: ByteOrder) -> [UInt16] {
        let count = width * height
        return bytes.withUnsafeBytes { raw in
            [UInt16](unsafeUninitializedCapacity: count) { samples, initialized in
                for i in 0..<count {
                    let stored = raw.loadUnaligned(fromByteOffset: rasterOffset + 2 * i, as: UInt16.self)
                    samples[i] = byteOrder == .bigEndian ? UInt16(bigEndian: stored) : UInt16(littleEndian: stored)
                }
                initialized = count
            }
        }
    }
}
