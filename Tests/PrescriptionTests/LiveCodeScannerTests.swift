import AssistCore
import Foundation
import TestSupport
import Media
import Testing
@testable import Prescription

/// Videos made with the ffmpeg command-line tool (installed by scripts/setup) stand in for a
/// camera: this machine has none, and a file goes through the same scanning loop.
enum CameraVideos {
    /// 640×480 MJPEG at 10 frames a second, as many USB cameras send it, with sensor noise over
    /// everything: `blankSeconds` of an empty scene, then a second of the code badly out of focus,
    /// then the code turned by `degrees` until `totalSeconds`.
    static func showingCode(_ png: URL, to video: URL, blankSeconds: Double = 1, totalSeconds: Double = 8,
                            degrees: Double = 8) throws {
        let blurEnd = blankSeconds + 1
        let angle = "\(degrees)*PI/180"
        let graph = "[1:v]scale=360:360,split=2[a][b];[a]boxblur=10:2[blur];"
            + "[b]rotate=\(angle):c=white:ow=rotw(\(angle)):oh=roth(\(angle))[turned];"
            + "[0:v][blur]overlay=(W-w)/2:(H-h)/2:enable='between(t,\(blankSeconds),\(blurEnd))':shortest=1[v1];"
            + "[v1][turned]overlay=(W-w)/2:(H-h)/2:enable='gte(t,\(blurEnd))':shortest=1,noise=alls=10:allf=t,format=yuvj420p"
        try Program.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=640x480:r=10:d=\(totalSeconds)", "-loop", "1", "-framerate", "10",
                    "-i", png.path, "-filter_complex", graph, "-t", "\(totalSeconds)", "-c:v", "mjpeg", "-q:v", "3", video.path])
    }

    /// A noisy empty scene: a camera pointed anywhere but at a code.
    static func withoutCode(to video: URL, seconds: Double) throws {
        try Program.ffmpeg(["-f", "lavfi", "-i", "color=c=0xd8d0c0:s=640x480:r=10:d=\(seconds)", "-vf", "noise=alls=12:allf=t,format=yuvj420p",
                    "-c:v", "mjpeg", "-q:v", "3", video.path])
    }

}

@Suite("Reading the code from a live camera (a video standing in for one)")
struct LiveCodeScannerTests {
    @Test("the code is read once it is held up, sharp enough and turned a little, after empty and blurred frames")
    func readsCodeFromVideo() async throws {
        let folder = try TemporaryFolder.make("rx-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = AudiologistSigningKey(audiologist: clinic, rawPrivateKey: Data((1...32).map { UInt8($0) }))
        let text = try key.sign(try sampleDocument())
        let png = folder.appendingPathComponent("rx.png"), video = folder.appendingPathComponent("camera.avi")
        try QRCode(encoding: text).pngData().write(to: png)
        try CameraVideos.showingCode(png, to: video)
        let reading = try await LiveCodeScanner(timeoutSeconds: 30).read(VideoInput(argument: video.path))
        #expect(reading.text == text)
        // On the video's clock the code appears 2 s in: nothing before can have read it, and a few
        // frames (each with another rendering) after it appears, it is read.
        #expect(reading.seconds >= 2 && reading.seconds < 4)
        print("Camera scan: code read after \(reading.seconds) s, \(reading.framesScanned) frames scanned")
    }

    @Test("without a code, reading stops at the timeout and says so; a video that ends first says that")
    func timesOut() async throws {
        let folder = try TemporaryFolder.make("rx-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = folder.appendingPathComponent("long.avi"), short = folder.appendingPathComponent("short.avi")
        try CameraVideos.withoutCode(to: long, seconds: 20)
        try CameraVideos.withoutCode(to: short, seconds: 1)
        // Stopped by the timeout, 2 s into the 20 s video, not by its end.
        await #expect(throws: PrescriptionError.noQRCodeSeen(seconds: 2)) {
            try await LiveCodeScanner(timeoutSeconds: 2).read(VideoInput(argument: long.path))
        }
        await #expect(throws: PrescriptionError.videoEndedWithoutQRCode(name: "short.avi")) {
            try await LiveCodeScanner(timeoutSeconds: 30).read(VideoInput(argument: short.path))
        }
    }

    @Test("a camera that is not there is told in the camera's own sentence")
    func missingCamera() async throws {
        await #expect(throws: VideoInputError.self) {
            try await LiveCodeScanner(timeoutSeconds: 2).read(VideoInput(argument: "/dev/video97"))
        }
        do { _ = try await LiveCodeScanner(timeoutSeconds: 2).read(VideoInput(argument: "/dev/video97")) } catch {
            #expect(userMessage(for: error) == "No camera was found at /dev/video97; check that it is plugged in, or run assist cameras to list them.")
        }
    }
}
