import AssistCore
import Foundation
import Media

/// Decodes a test image with our FFmpeg-based reader.
func decodeTestImage(_ url: URL) throws -> RGBImage {
    // Placeholder until the Media decoder lands: the ffmpeg CLI gives the same RGB24 pixels.
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    probe.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", url.path]
    let probeOut = Pipe(); probe.standardOutput = probeOut
    try probe.run(); probe.waitUntilExit()
    let size = String(decoding: probeOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
    let decode = Process()
    decode.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    decode.arguments = ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    let out = Pipe(); decode.standardOutput = out
    try decode.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    decode.waitUntilExit()
    return RGBImage(width: size[0], height: size[1], pixels: [UInt8](data))
}
