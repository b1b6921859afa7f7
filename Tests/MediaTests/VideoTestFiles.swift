import AssistCore
import Foundation
import Media
import Testing

/// Videos made once per test run from the shared pictures: ten frames of bus.jpg then ten of
/// zidane.jpg at 10 frames per second, 320×240.
enum VideoTestFiles {
    static let folder: URL = FileManager.default.temporaryDirectory.appendingPathComponent("video-tests-\(UUID().uuidString)")

    /// An MPEG-4 file (an .mp4 container, timestamps in it).
    static let busThenZidaneMP4: Result<URL, TestFiles.ToolFailure> = make("bus-then-zidane.mp4", codec: ["-c:v", "mpeg4", "-q:v", "3"])
    /// A raw MJPEG stream, as an IP camera's HTTP MJPEG output carries it (no container).
    static let busThenZidaneMJPEG: Result<URL, TestFiles.ToolFailure> = make("bus-then-zidane.mjpeg", codec: ["-c:v", "mjpeg", "-q:v", "3", "-f", "mjpeg"])
    /// 640×480 at 25 fps, 4 s, for measuring decode speed.
    static let busPanning640: Result<URL, TestFiles.ToolFailure> = {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let output = folder.appendingPathComponent("bus-panning-640.mp4")
            try TestFiles.ffmpeg(["-loop", "1", "-framerate", "25", "-t", "4", "-i", TestFiles.bus.path,
                                  "-vf", "scale=800:-2,crop=640:480:t*40:0", "-c:v", "libx264", "-pix_fmt", "yuv420p", output.path])
            return .success(output)
        } catch let error as TestFiles.ToolFailure {
            return .failure(error)
        } catch {
            return .failure(TestFiles.ToolFailure(message: "\(error)"))
        }
    }()

    private static func make(_ name: String, codec: [String]) -> Result<URL, TestFiles.ToolFailure> {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let output = folder.appendingPathComponent(name)
            try TestFiles.ffmpeg(["-loop", "1", "-framerate", "10", "-t", "1", "-i", TestFiles.bus.path,
                                  "-loop", "1", "-framerate", "10", "-t", "1", "-i", TestFiles.zidane.path,
                                  "-filter_complex", "[0]scale=320:240,setsar=1[a];[1]scale=320:240,setsar=1[b];[a][b]concat=n=2[v]",
                                  "-map", "[v]", "-r", "10"] + codec + [output.path])
            return .success(output)
        } catch let error as TestFiles.ToolFailure {
            return .failure(error)
        } catch {
            return .failure(TestFiles.ToolFailure(message: "\(error)"))
        }
    }

    /// Every frame of `source` until it returns nil.
    static func readAll(_ source: any FrameSource) throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        return frames
    }
}
