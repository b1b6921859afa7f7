import AssistCore
import Foundation

/// The three ways a QR code leaves `assist rx create`: a PNG to print or send, an SVG that
/// scales to any size, and text for the terminal that a phone can scan off the screen.
extension QRCode {
    /// The ISO/IEC 18004 quiet zone: four light modules on every side.
    public static let quietZoneModules = 4

    /// Grey pixels, `pixelsPerModule` to a module, with the quiet zone.
    func greyPixels(pixelsPerModule: Int) -> (side: Int, pixels: [UInt8]) {
        let side = (width + 2 * Self.quietZoneModules) * pixelsPerModule
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<width {
            for x in 0..<width where isDark(x: x, y: y) {
                let left = (x + Self.quietZoneModules) * pixelsPerModule, top = (y + Self.quietZoneModules) * pixelsPerModule
                for row in top..<(top + pixelsPerModule) {
                    for column in left..<(left + pixelsPerModule) { pixels[row * side + column] = 0 }
                }
            }
        }
        return (side, pixels)
    }

    /// The code as an RGB picture (black on white).
    public func rgbImage(pixelsPerModule: Int = 8) -> RGBImage {
        let (side, grey) = greyPixels(pixelsPerModule: pixelsPerModule)
        var rgb = [UInt8](repeating: 0, count: side * side * 3)
        for (i, v) in grey.enumerated() { rgb[3 * i] = v; rgb[3 * i + 1] = v; rgb[3 * i + 2] = v }
        return RGBImage(width: side, height: side, pixels: rgb)
    }

    /// An 8-bit greyscale PNG.
    public func pngData(pixelsPerModule: Int = 8) -> Data {
        let (side, grey) = greyPixels(pixelsPerModule: pixelsPerModule)
        return PNGWriter.greyscale(width: side, height: side, pixels: grey)
    }

    /// An SVG in module units (one path of unit squares), crisp at any size.
    public func svg() -> String {
        let side = width + 2 * Self.quietZoneModules
        var path = ""
        for y in 0..<width {
            for x in 0..<width where isDark(x: x, y: y) {
                path += "M\(x + Self.quietZoneModules) \(y + Self.quietZoneModules)h1v1h-1z"
            }
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(side * 8)" height="\(side * 8)" shape-rendering="crispEdges">
        <rect width="\(side)" height="\(side)" fill="#fff"/>
        <path d="\(path)" fill="#000"/>
        </svg>

        """
    }

    /// Two module rows per text line with half blocks. Light modules are the drawn blocks, so
    /// on the usual light-text-on-dark terminal the code shows dark on light, as scanners want.
    public func terminalText() -> String {
        let side = width + 2 * Self.quietZoneModules
        func dark(_ x: Int, _ y: Int) -> Bool {
            let mx = x - Self.quietZoneModules, my = y - Self.quietZoneModules
            guard (0..<width).contains(mx), (0..<width).contains(my) else { return false }
            return isDark(x: mx, y: my)
        }
        var lines: [String] = []
        for y in stride(from: 0, to: side, by: 2) {
            var line = ""
            for x in 0..<side {
                let top = !dark(x, y), bottom = y + 1 < side ? !dark(x, y + 1) : false
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A minimal PNG writer (ISO/IEC 15948): one IHDR, one IDAT of zlib *stored* blocks (no
/// compression: a QR code PNG stays a few hundred kB at most, and no zlib dependency), IEND.
enum PNGWriter {
    static func greyscale(width: Int, height: Int, pixels: [UInt8]) -> Data {
        var raw = Data(capacity: (width + 1) * height)
        for y in 0..<height {
            raw.append(0) // filter type None
            raw.append(contentsOf: pixels[(y * width)..<((y + 1) * width)])
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width)); header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 0, 0, 0, 0]) // 8-bit, greyscale, deflate, adaptive filters, no interlace
        appendChunk(&png, "IHDR", header)
        appendChunk(&png, "IDAT", zlibStored(raw))
        appendChunk(&png, "IEND", Data())
        return png
    }

    static func zlibStored(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let isLast = offset + count == bytes.count
            out.append(isLast ? 1 : 0)
            out.append(UInt8(count & 0xFF)); out.append(UInt8(count >> 8))
            out.append(UInt8(~count & 0xFF)); out.append(UInt8((~count >> 8) & 0xFF))
            out.append(contentsOf: bytes[offset..<(offset + count)])
            offset += count
        } while offset < bytes.count
        out.appendBigEndian(adler32(bytes))
        return out
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    private static func appendChunk(_ png: inout Data, _ type: String, _ body: Data) {
        png.appendBigEndian(UInt32(body.count))
        let typed = Data(type.utf8) + body
        png.append(typed)
        png.appendBigEndian(crc32(typed))
    }
}

extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }
}
