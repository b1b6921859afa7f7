import Foundation
import TestSupport

/// Inputs for the live `assist see` scenarios, made at test time in a scratch folder from the
/// pictures in ../shared with the `ffmpeg` command-line tool (scripts/setup installs it), so no
/// video is committed. Each is small and short: 640×480, a few seconds, 10–12 frames a second.
struct LiveFixtures {
    let folder: URL

    /// A fresh scratch folder; `remove()` deletes it with everything made in it.
    init() throws {
        folder = try TemporaryFolder.make("assist-live")
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    static let busPicture = SharedFiles.bus.path
    static func depthFile(_ name: String) -> URL { SharedFiles.depth(name) }

    /// bus.jpg's street as a 4:3 landscape picture: the bus and the people in front of it.
    private static let busScene = "crop=810:608:0:200,scale=640:480"

    /// An approaching bus: the street starts as a small picture in the middle of a grey field
    /// (the bus about 10 m away by camera geometry) and is zoomed into until it fills the view
    /// (about 3 m), 9 s at 12 frames a second.
    func approachingBus() throws -> URL {
        let out = folder.appendingPathComponent("approaching-bus.mp4")
        try Program.ffmpeg(["-loop", "1", "-framerate", "12", "-i", Self.busPicture, "-vf",
                         "\(Self.busScene),pad=1920:1440:640:480:color=0x707070,"
                         + "zoompan=z='1+2*on/107':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=1:s=640x480:fps=12,format=yuv420p",
                         "-frames:v", "108", "-c:v", "libx264", "-preset", "ultrafast", "-g", "12", out.path])
        return out
    }

    /// The street for 3 s, then the same picture pulled down to 1 % brightness (at 4 % the detector still finds people) for 4 s (a hand
    /// over the lens, a dark room), then light again for 3 s: 10 s at 10 frames a second.
    func cutToDark(darkFrom start: Double = 3, to end: Double = 7, seconds: Double = 10) throws -> URL {
        let out = folder.appendingPathComponent("cut-to-dark.mp4")
        try Program.ffmpeg(["-loop", "1", "-framerate", "10", "-i", Self.busPicture, "-vf",
                         "\(Self.busScene),lutrgb=r=val*0.01:g=val*0.01:b=val*0.01:enable='between(t,\(start),\(end))',format=yuv420p",
                         "-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-g", "10", out.path])
        return out
    }

    /// The same picture, unchanged, for `seconds` at 10 frames a second: every frame is the
    /// same JPEG (MJPEG), so every decoded frame has identical pixels and nothing ever changes.
    func frozenFrame(seconds: Double = 12) throws -> URL {
        let out = folder.appendingPathComponent("frozen.avi")
        try Program.ffmpeg(["-loop", "1", "-framerate", "10", "-i", Self.busPicture, "-vf", "\(Self.busScene),format=yuvj420p",
                         "-t", "\(seconds)", "-c:v", "mjpeg", "-q:v", "6", out.path])
        return out
    }

    /// The street as MJPEG in AVI, `seconds` long at 10 frames a second, with the frames in
    /// `damaged` overwritten by zeros (size and container intact, so the file still plays and only
    /// those pictures cannot be decoded: a corrupt copy, a bad sector, a glitching camera).
    func videoWithUnreadableFrames(_ damaged: Range<Int>, seconds: Double = 8) throws -> URL {
        let out = folder.appendingPathComponent("unreadable-\(damaged.lowerBound)-\(damaged.upperBound).avi")
        try Program.ffmpeg(["-loop", "1", "-framerate", "10", "-i", Self.busPicture, "-vf", "\(Self.busScene),format=yuvj420p",
                         "-t", "\(seconds)", "-c:v", "mjpeg", "-q:v", "6", out.path])
        var bytes = try Data(contentsOf: out)
        let frames = Self.aviVideoChunks(in: bytes)
        guard frames.count >= damaged.upperBound else { throw FixtureError.notEnoughFrames(frames.count) }
        for chunk in frames[damaged] { bytes.replaceSubrange(chunk, with: Data(count: chunk.count)) }
        try bytes.write(to: out)
        return out
    }

    /// A folder of pictures: `good` frames of the street, `unreadable` files named .jpg that are
    /// not pictures (an interrupted copy), then `thenGood` frames of the street again.
    func pictureFolder(good: Int, unreadable: Int, thenGood: Int) throws -> URL {
        let pictures = folder.appendingPathComponent("pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let street = folder.appendingPathComponent("street.jpg")
        try Program.ffmpeg(["-i", Self.busPicture, "-vf", Self.busScene, "-frames:v", "1", "-q:v", "4", street.path])
        let streetBytes = try Data(contentsOf: street)
        for index in 0..<(good + unreadable + thenGood) {
            let bytes = index >= good && index < good + unreadable ? Data("not a picture \(index)".utf8) : streetBytes
            try bytes.write(to: pictures.appendingPathComponent(String(format: "frame%03d.jpg", index)))
        }
        return pictures
    }

    /// Where each video frame's bytes lie in an AVI file: the payloads of the "00dc" (compressed
    /// video) chunks of the "movi" list, in order. RIFF chunks are a four-byte id, a little-endian
    /// four-byte size, then the payload padded to an even length.
    static func aviVideoChunks(in bytes: Data) -> [Range<Int>] {
        let id = Data("00dc".utf8)
        var ranges: [Range<Int>] = []
        guard let movi = bytes.range(of: Data("movi".utf8)) else { return [] }
        var position = movi.upperBound
        while position + 8 <= bytes.count {
            let chunkID = bytes.subdata(in: position..<(position + 4))
            let size = bytes.subdata(in: (position + 4)..<(position + 8)).withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
            let payload = (position + 8)..<min(position + 8 + size, bytes.count)
            if chunkID == Data("idx1".utf8) { break }
            if chunkID == Data("LIST".utf8) { position += 12; continue }   // a nested list (AVI 2.0 "rec ")
            if chunkID == id { ranges.append(payload) }
            position = payload.lowerBound + size + (size & 1)
        }
        return ranges
    }

    /// Walking towards a wall: one RGB-D frame (TUM: an office with a desk and chairs) repeated
    /// `steps` times as NAME_color.png + NAME_depth_mm.pgm pairs, the depth multiplied by a factor
    /// falling linearly from `first` to `last`, so every measured point comes closer step by step;
    /// the colour picture stays the same (only depth says the scene approaches).
    func walkTowardsWall(steps: Int = 16, fromFactor first: Double = 1.5, toFactor last: Double = 0.1) throws -> URL {
        let sequence = folder.appendingPathComponent("wall")
        try FileManager.default.createDirectory(at: sequence, withIntermediateDirectories: true)
        let color = try Data(contentsOf: Self.depthFile("TUM_color.png"))
        let depth = try DepthMillimeters(pgm: Data(contentsOf: Self.depthFile("TUM_depth_mm.pgm")))
        for step in 0..<steps {
            let factor = first + (last - first) * Double(step) / Double(max(steps - 1, 1))
            let name = String(format: "step%02d", step)
            try color.write(to: sequence.appendingPathComponent("\(name)_color.png"))
            try depth.scaled(by: factor).pgm().write(to: sequence.appendingPathComponent("\(name)_depth_mm.pgm"))
        }
        return sequence
    }

    /// The median measured distance of the unscaled frame, for tests that check distances.
    static func medianDepthMeters() throws -> Double {
        let depth = try DepthMillimeters(pgm: Data(contentsOf: depthFile("TUM_depth_mm.pgm")))
        let valid = depth.samples.filter { $0 > 0 }.sorted()
        return Double(valid[valid.count / 2]) / 1000
    }


    enum FixtureError: Error, CustomStringConvertible {
        case notEnoughFrames(Int)
        case badDepthFile

        var description: String {
            switch self {
            case .notEnoughFrames(let count): return "the generated AVI has only \(count) video chunks"
            case .badDepthFile: return "the shared depth file is not a 16-bit binary PGM"
            }
        }
    }
}

/// A depth image in millimeters (0 = no reading), read from and written to the binary PGM the
/// product reads (P5, maxval 65535, 16-bit big-endian samples, as the PGM specification says).
/// Kept to the one header layout the shared files use; Media's PortableGraymap is the full reader.
struct DepthMillimeters {
    var width: Int
    var height: Int
    var samples: [UInt16]

    init(width: Int, height: Int, samples: [UInt16]) {
        self.width = width
        self.height = height
        self.samples = samples
    }

    init(pgm bytes: Data) throws {
        // "P5" width height maxval, separated by single whitespace, then the samples.
        var fields: [Int] = [], position = 2, current = ""
        guard bytes.starts(with: Data("P5".utf8)) else { throw LiveFixtures.FixtureError.badDepthFile }
        while fields.count < 3, position < bytes.count {
            let byte = bytes[bytes.startIndex + position]
            position += 1
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                current.append(Character(UnicodeScalar(byte)))
            } else if !current.isEmpty {
                fields.append(Int(current) ?? 0)
                current = ""
            }
        }
        guard fields.count == 3, fields[2] == 65535, fields[0] > 0, fields[1] > 0,
              bytes.count - position >= fields[0] * fields[1] * 2 else { throw LiveFixtures.FixtureError.badDepthFile }
        width = fields[0]
        height = fields[1]
        let start = bytes.startIndex + position
        samples = (0..<(fields[0] * fields[1])).map { i in
            UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])
        }
    }

    /// Every reading multiplied by `factor` (no reading stays no reading).
    func scaled(by factor: Double) -> DepthMillimeters {
        DepthMillimeters(width: width, height: height, samples: samples.map { sample in
            sample == 0 ? 0 : UInt16(min(max((Double(sample) * factor).rounded(), 1), 65535))
        })
    }

    func pgm() -> Data {
        var data = Data("P5\n\(width) \(height)\n65535\n".utf8)
        data.reserveCapacity(data.count + samples.count * 2)
        for sample in samples { data.append(UInt8(sample >> 8)); data.append(UInt8(sample & 0xFF)) }
        return data
    }
}
