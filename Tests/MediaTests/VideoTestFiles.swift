import AssistCore
import Foundation
import TestSupport
import Media
import Testing

/// Videos made from the shared pictures: ten frames of bus.jpg then ten of zidane.jpg at 10 frames
/// per second, 320×240. They are kept in one folder under the temp folder and reused by later
/// runs (made under a temporary name and renamed, so parallel runs never see half a file), so
/// runs do not leave a new folder behind each time.
enum VideoTestFiles {
    static let folder: URL = FileManager.default.temporaryDirectory.appendingPathComponent("assistivekit-video-tests-1")

    /// `name` in `folder`, made by `make(temporaryPath)` unless an earlier run made it.
    private static func cached(_ name: String, make: (String) throws -> Void) -> Result<URL, ToolFailure> {
        let output = folder.appendingPathComponent(name)
        if let size = try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int, size > 0 {
            return .success(output)
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let temporary = folder.appendingPathComponent("\(UUID().uuidString)-\(name)")
            try make(temporary.path)
            if rename(temporary.path, output.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
            return .success(output)
        } catch let error as ToolFailure {
            return .failure(error)
        } catch {
            return .failure(ToolFailure(message: "\(error)"))
        }
    }

    /// An MPEG-4 file (an .mp4 container, timestamps in it).
    static let busThenZidaneMP4: Result<URL, ToolFailure> = make("bus-then-zidane.mp4", codec: ["-c:v", "mpeg4", "-q:v", "3", "-f", "mp4"])
    /// A raw MJPEG stream, as an IP camera's HTTP MJPEG output carries it (no container).
    static let busThenZidaneMJPEG: Result<URL, ToolFailure> = make("bus-then-zidane.mjpeg", codec: ["-c:v", "mjpeg", "-q:v", "3", "-f", "mjpeg"])
    /// 640×480 at 25 fps for 4 s, panning across bus.jpg, for measuring decode speed.
    static let busPanning640: Result<URL, ToolFailure> = cached("bus-panning-640.mp4") { path in
        try Program.ffmpeg(["-loop", "1", "-framerate", "25", "-t", "4", "-i", SharedFiles.bus.path,
                              "-vf", "scale=800:-2,crop=640:480:t*40:0", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", "mp4", path])
    }

    private static func make(_ name: String, codec: [String]) -> Result<URL, ToolFailure> {
        cached(name) { path in
            try Program.ffmpeg(["-loop", "1", "-framerate", "10", "-t", "1", "-i", SharedFiles.bus.path,
                                  "-loop", "1", "-framerate", "10", "-t", "1", "-i", SharedFiles.zidane.path,
                                  "-filter_complex", "[0]scale=320:240,setsar=1[a];[1]scale=320:240,setsar=1[b];[a][b]concat=n=2[v]",
                                  "-map", "[v]", "-r", "10"] + codec + [path])
        }
    }

    /// Every frame of `source` until it returns nil.
    static func readAll(_ source: any FrameSource) throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        return frames
    }
}
