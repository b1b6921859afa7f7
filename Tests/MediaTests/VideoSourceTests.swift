import AssistCore
import Foundation
import TestSupport
@testable import Media
import Testing

@Suite("Video frame sources")
struct VideoSourceTests {
    /// How far a frame's mean colour may be from its picture's: the mean of a picture survives
    /// scaling and MPEG-4 at q 3 to within a few levels; bus.jpg and zidane.jpg differ by 20+.
    static let meanColourTolerance = 8.0

    static func meanColourDistance(_ a: (r: Double, g: Double, b: Double), _ b: (r: Double, g: Double, b: Double)) -> Double {
        max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b))
    }

    @Test("a video file gives every frame in order on its own clock, then nil at its end, which is not an error")
    func videoFileFramesAndEnd() throws {
        let url = try VideoTestFiles.busThenZidaneMP4.get()
        let source = try VideoFrameSource(.file(url))
        #expect(source.framesPerSecond == 10)
        let frames = try VideoTestFiles.readAll(source)
        #expect(frames.count == 20)
        #expect(frames.allSatisfy { $0.image.width == 320 && $0.image.height == 240 })
        for (index, frame) in frames.enumerated() {
            #expect(abs(frame.timestampSeconds - Double(index) * 0.1) < 0.001, "frame \(index) at \(frame.timestampSeconds) s")
        }
        #expect(frames[0].sourceName == "bus-then-zidane.mp4")
        let bus = try ImageFile(SharedFiles.bus).decode().meanColour()
        let zidane = try ImageFile(SharedFiles.zidane).decode().meanColour()
        #expect(Self.meanColourDistance(frames[0].image.meanColour(), bus) < Self.meanColourTolerance)
        #expect(Self.meanColourDistance(frames[15].image.meanColour(), zidane) < Self.meanColourTolerance)
        #expect(Self.meanColourDistance(frames[0].image.meanColour(), frames[15].image.meanColour()) > 2 * Self.meanColourTolerance)
        #expect(try source.nextFrame() == nil, "the end stays the end")
    }

    @Test("a maximum width scales frames down keeping their shape")
    func scalingDown() throws {
        let source = try VideoFrameSource(.file(try VideoTestFiles.busThenZidaneMP4.get()), maximumWidthPixels: 160)
        let frame = try #require(try source.nextFrame())
        #expect(frame.image.width == 160 && frame.image.height == 120)
        #expect(source.sourceWidthPixels == 320)
        let full = try #require(try VideoFrameSource(.file(try VideoTestFiles.busThenZidaneMP4.get())).nextFrame())
        #expect(Self.meanColourDistance(frame.image.meanColour(), full.image.meanColour()) < 3)
    }

    @Test("an MJPEG stream read through a file URL gives its frames, then reports that the video stream ended")
    func streamEndIsReported() throws {
        let url = try VideoTestFiles.busThenZidaneMJPEG.get()
        let source = try VideoFrameSource(.stream(url))
        var count = 0
        do {
            while try source.nextFrame() != nil { count += 1 }
            Issue.record("a stream must not end with nil")
        } catch let error as VideoInputError {
            #expect(error == .streamEnded(url: url.absoluteString))
            #expect(error.userMessage == "The video stream ended.")
        }
        #expect(count == 20)
    }

    @Test("a video with scribbled bytes in the middle gives its good frames, refuses the damaged ones, then ends")
    func damagedVideo() throws {
        var bytes = try Data(contentsOf: try VideoTestFiles.busThenZidaneMJPEG.get())
        let middle = bytes.count / 2
        for i in middle..<(middle + 2000) { bytes[i] = UInt8(truncatingIfNeeded: i &* 37) }
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = folder.appendingPathComponent("damaged.mjpeg")
        try bytes.write(to: damaged)
        let source = try VideoFrameSource(.file(damaged))
        var frames: [Frame] = []
        var refused = 0
        var ended = false
        while !ended {
            do {
                if let frame = try source.nextVideoFrame() { frames.append(frame) } else { ended = true }
            } catch {
                guard case .damagedPictures = error else { throw error }
                refused += 1
            }
        }
        // 2000 bytes hit one or two of the 20 JPEGs (about 8 kB each); the rest decode.
        #expect((17...19).contains(frames.count), "\(frames.count) frames")
        #expect(refused >= 1)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.timestampSeconds < $1.timestampSeconds })
    }

    @Test("640×480 H.264 decodes to 640×480 RGB pictures, all 100 of them")
    func decodesEveryFrame() throws {
        // How fast is a benchmark's question, not a test's: a busy machine must not fail it. This
        // only checks that every frame arrives at its size.
        let source = try VideoFrameSource(.file(try VideoTestFiles.busPanning640.get()))
        var frames = 0
        while let frame = try source.nextFrame() {
            #expect(frame.image.width == 640 && frame.image.height == 480)
            frames += 1
        }
        #expect(frames == 100)
    }

    @Test("a missing video file and a file that is not a video each get their own sentence")
    func fileErrors() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/walk.mp4")
        #expect(throws: VideoInputError.fileNotFound(path: missing.path)) { try VideoFrameSource(.file(missing)) }
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.mp4")
        try Data(String(repeating: "not a video at all\n", count: 200).utf8).write(to: text)
        do {
            _ = try VideoFrameSource(.file(text))
            Issue.record("a text file opened as a video")
        } catch {
            #expect(error == .notAVideo(name: text.path))
            #expect(error.userMessage == "notes.mp4 holds no video that can be played.")
        }
    }

    @Test("a camera path with no device behind it is reported as no camera found")
    func missingCamera() {
        #expect(throws: VideoInputError.cameraNotFound(device: "/dev/video-assist-test-none")) {
            try VideoFrameSource(.camera(devicePath: "/dev/video-assist-test-none", format: .standard))
        }
    }

    @Test("a file that is not a capture device, opened as a camera, is not a camera")
    func regularFileIsNotACamera() throws {
        let url = try VideoTestFiles.busThenZidaneMJPEG.get()
        #expect(throws: VideoInputError.notACamera(device: url.path)) {
            try VideoFrameSource(.camera(devicePath: url.path, format: .standard))
        }
    }

    @Test("a busy, forbidden or unplugged camera each become one sentence that says what to do")
    func cameraErrnoSentences() {
        #expect(VideoInputError.openingCamera("/dev/video0", errno: EBUSY).userMessage
                == "The camera is in use by another program; close that program and try again.")
        #expect(VideoInputError.openingCamera("/dev/video0", errno: EACCES)
                == .cameraPermissionDenied(device: "/dev/video0"))
        #expect(VideoInputError.openingCamera("/dev/video0", errno: EACCES).userMessage.contains("video group"))
        #expect(VideoInputError.openingCamera("/dev/video3", errno: ENOENT) == .cameraNotFound(device: "/dev/video3"))
        #expect(VideoInputError.readingCamera("/dev/video0", errno: ENODEV) == .cameraDisconnected(device: "/dev/video0"))
        #expect(VideoInputError.readingCamera("/dev/video0", errno: EIO).userMessage
                == "The camera stopped sending pictures; check that it is still plugged in.")
        for error in [VideoInputError.cameraBusy(device: "/dev/video0"), .cameraDisconnected(device: "/dev/video0"),
                      .streamEnded(url: "rtsp://x"), .cameraNotFound(device: "/dev/video9"), .notAVideo(name: "/a/b.mp4")] {
            let sentence = error.userMessage
            #expect(sentence.hasSuffix("."), "\(sentence)")
            #expect(sentence.dropLast().contains(".") == false || sentence.contains("/dev/") || sentence.contains("b.mp4"),
                    "one sentence: \(sentence)")
        }
    }

    @Test("a network address that refuses the connection is unreachable, promptly")
    func unreachableStream() throws {
        // Port 9 on the loopback interface: nothing listens there, and no other host is contacted.
        let url = try #require(URL(string: "http://127.0.0.1:9/camera.mjpeg"))
        let started = Date()
        #expect(throws: VideoInputError.streamUnreachable(url: url.absoluteString)) { try VideoFrameSource(.stream(url)) }
        // Refused at once, not after FFmpeg's minutes-long default wait: 30 s is far from both.
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test("arguments name cameras, streams, folders and files")
    func inputArguments() throws {
        #expect(VideoInput(argument: "/dev/video2") == .camera(devicePath: "/dev/video2", format: .standard))
        #expect(VideoInput(argument: "rtsp://192.168.1.20/live") == .stream(URL(string: "rtsp://192.168.1.20/live")!))
        #expect(VideoInput(argument: "http://cam.local/video.mjpg") == .stream(URL(string: "http://cam.local/video.mjpg")!))
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard case .imageFolder(let url, let framesPerSecond) = VideoInput(argument: folder.path, folderFramesPerSecond: 2) else {
            Issue.record("a folder is a folder of pictures")
            return
        }
        #expect(url.standardizedFileURL.path == folder.standardizedFileURL.path && framesPerSecond == 2)
        #expect(VideoInput(argument: "walk.mp4") == .file(URL(fileURLWithPath: "walk.mp4")))
    }

    @Test("battery saving halves a camera's frame rate and its size in each direction")
    func batterySavingCameraFormat() {
        let saving = CameraFormat.standard.batterySaving
        #expect(saving.widthPixels == 320 && saving.heightPixels == 240 && saving.framesPerSecond == 7)
    }
}

@Suite("Folders of pictures")
struct ImageFolderSourceTests {
    @Test("pictures are read in name order with numbers compared as numbers, other files passed over")
    func naturalOrder() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["frame10.jpg", "frame2.jpg", "frame1.jpg"] {
            let source = name == "frame2.jpg" ? SharedFiles.zidane : SharedFiles.bus
            try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(name))
        }
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let source = try ImageFolderSource(folder: folder, framesPerSecond: 2)
        #expect(source.imageFiles.map(\.lastPathComponent) == ["frame1.jpg", "frame2.jpg", "frame10.jpg"])
        let frames = try VideoTestFiles.readAll(source)
        #expect(frames.map(\.timestampSeconds) == [0, 0.5, 1.0])
        #expect(frames.map(\.sourceName) == ["frame1.jpg", "frame2.jpg", "frame10.jpg"])
        #expect(frames[1].image == (try ImageFile(SharedFiles.zidane).decode()))
    }

    @Test("a folder with no pictures, and a damaged picture, are told in a sentence")
    func folderErrors() throws {
        let folder = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: VideoInputError.folderHasNoImages(path: folder.path)) { try ImageFolderSource(folder: folder) }
        let bus = try Data(contentsOf: SharedFiles.bus)
        try Data(bus.prefix(bus.count / 2)).write(to: folder.appendingPathComponent("cut.jpg"))
        let source = try ImageFolderSource(folder: folder)
        do {
            _ = try source.nextFrame()
            Issue.record("a cut-short picture was read")
        } catch let error as VideoInputError {
            #expect(error.userMessage == "The image in cut.jpg is damaged or cut short, so it could not be read.")
        }
    }
}

@Suite("Camera list")
struct VideoCameraListTests {
    @Test("cameras are listed by their sysfs names in device order, the second node of a camera marked")
    func listsCameras() throws {
        let sysfs = try TemporaryFolder.make("media-tests")
        defer { try? FileManager.default.removeItem(at: sysfs) }
        for (node, name, index) in [("video10", "USB Camera: HD Webcam", 0), ("video0", "Integrated Camera: Integrated C", 0),
                                    ("video1", "Integrated Camera: Integrated C", 1)] {
            let folder = sysfs.appendingPathComponent(node)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("\(name)\n".utf8).write(to: folder.appendingPathComponent("name"))
            try Data("\(index)\n".utf8).write(to: folder.appendingPathComponent("index"))
        }
        let list = CameraList(sysfsFolder: sysfs)
        #expect(list.cameras.map(\.devicePath) == ["/dev/video0", "/dev/video1", "/dev/video10"])
        #expect(list.cameras.map(\.isFirstNodeOfDevice) == [true, false, true])
        #expect(list.description.split(separator: "\n").first == "/dev/video0: Integrated Camera: Integrated C")
        #expect(list.description.contains("/dev/video10: USB Camera: HD Webcam"))
    }

    @Test("with no camera the list says so in a clear sentence")
    func noCamera() {
        let list = CameraList(sysfsFolder: URL(fileURLWithPath: "/nonexistent/video4linux"))
        #expect(list.cameras.isEmpty)
        #expect(list.description == "No camera was found. Plug in a camera and run assist cameras again.")
    }
}
