import Foundation
import TestSupport
import Testing

@Suite("assist see, as a user runs it", .serialized)
struct SeeCommandTests {
    @Test("bus.jpg is described in sentences, closest first, with the bus and at least three people")
    func describesBus() throws {
        let output = try AssistBinary.run(["see", AssistBinary.image("bus.jpg"), "--quiet"])
        #expect(output.status == 0)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("Bus, ") })
        // People are grouped when alike ("2 people, …"); count them across sentences.
        let people = lines.reduce(0) { count, line in
            if line.hasPrefix("Person,") { return count + 1 }
            if let n = Int(line.split(separator: " ").first ?? ""), line.contains("people") { return count + n }
            return count
        }
        #expect(people >= 3)
        #expect(lines.count <= 5)
        #expect(output.standardError.isEmpty)
    }

    @Test("--json gives every object with label, confidence, box, angle, direction and distance, closest first")
    func json() throws {
        let output = try AssistBinary.run(["see", "--quiet", AssistBinary.image("bus.jpg"), "--json"])
        #expect(output.status == 0)
        let results = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        let report = try #require(results.first?["report"] as? [String: Any])
        let objects = try #require(report["objects"] as? [[String: Any]])
        #expect(objects.count >= 4)
        for object in objects {
            for key in ["label", "confidence", "box", "angleDegrees", "direction", "distanceMeters", "distanceMethod"] {
                #expect(object.keys.contains(key), "missing \(key)")
            }
            #expect((object["confidence"] as? Double ?? 0) >= 0.6)
        }
        let distances = objects.compactMap { $0["distanceMeters"] as? Double }
        #expect(distances == distances.sorted())
        let timings = try #require(report["timings"] as? [String: Any])
        #expect((timings["inferenceMilliseconds"] as? Double ?? 0) > 0)
    }

    @Test("zidane.jpg: two people, the left one's angle and direction word left of the right one's")
    func zidaneDirections() throws {
        let output = try AssistBinary.run(["see", "--quiet", AssistBinary.image("zidane.jpg"), "--json"])
        let results = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        let objects = try #require((results.first?["report"] as? [String: Any])?["objects"] as? [[String: Any]])
        let people = objects.filter { $0["label"] as? String == "person" }
        #expect(people.count == 2)
        let byX = people.sorted {
            (($0["box"] as? [String: Double])?["x0"] ?? 0) < (($1["box"] as? [String: Double])?["x0"] ?? 0)
        }
        let order = ["left", "slightly left", "ahead", "slightly right", "right"]
        let leftAngle = byX.first?["angleDegrees"] as? Double ?? 0, rightAngle = byX.last?["angleDegrees"] as? Double ?? 0
        #expect(leftAngle < rightAngle)
        let leftWord = order.firstIndex(of: byX.first?["direction"] as? String ?? "") ?? -1
        let rightWord = order.firstIndex(of: byX.last?["direction"] as? String ?? "") ?? -1
        #expect(leftWord >= 0 && leftWord < rightWord)
    }

    @Test("bad files each get one sentence naming them, the good picture is still described, and the exit status is 1")
    func badInputs() throws {
        let folder = try TemporaryFolder.make("see-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.jpg"); try Data("hello".utf8).write(to: text)
        let empty = folder.appendingPathComponent("empty.png"); try Data().write(to: empty)
        let bus = try Data(contentsOf: URL(fileURLWithPath: AssistBinary.image("bus.jpg")))
        let truncated = folder.appendingPathComponent("half.jpg"); try bus.prefix(bus.count / 20).write(to: truncated)
        let output = try AssistBinary.run(["see", "--quiet", "/nonexistent/photo.jpg", text.path, empty.path, truncated.path,
                                           AssistBinary.image("bus.jpg")])
        #expect(output.status == 1)
        let errors = output.standardError.split(separator: "\n").map(String.init)
        #expect(errors.count >= 3)
        for name in ["photo.jpg", "notes.jpg", "empty.png"] {
            #expect(errors.contains { $0.contains(name) }, "no sentence names \(name)")
        }
        #expect(errors.allSatisfy { $0.hasSuffix(".") && !$0.contains("Error:") })
        // The first picture is decoded before the model loads; its sentence still comes first.
        let places = ["photo.jpg", "notes.jpg", "empty.png"].map { name in errors.firstIndex { $0.contains(name) } ?? -1 }
        #expect(places == places.sorted(), "the sentences are not in the pictures' order: \(errors)")
        #expect(output.standardOutput.contains("bus.jpg:"))
        #expect(output.standardOutput.contains("Bus, "))
    }

    @Test("a 49-megapixel picture between two others is described, and the models given back for it describe the next as before")
    func hugePictureBetweenOthers() throws {
        let folder = try TemporaryFolder.make("see-huge")
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("white.png")
        try Program.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=7000x7000", "-frames:v", "1", huge.path])
        let bus = AssistBinary.image("bus.jpg")
        let output = try AssistBinary.run(["see", "--quiet", "--json", bus, huge.path, bus])
        #expect(output.status == 0, "\(output.standardError)")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        try #require(results.count == 3)
        func sentences(_ index: Int) -> [String] { (results[index]["report"] as? [String: Any])?["sentences"] as? [String] ?? [] }
        #expect(sentences(0).contains { $0.hasPrefix("Bus") })
        #expect(sentences(1) == ["The image is too blurred to judge; hold the camera steady."])
        #expect(sentences(2) == sentences(0))
    }

    @Test("a missing or corrupt model is one sentence and the model's exit status, 3, as in a live run")
    func badModel() throws {
        let missing = try AssistBinary.run(["see", "--quiet", AssistBinary.image("bus.jpg"), "--model", "/nonexistent/m.xml"])
        #expect(missing.status == 3)
        #expect(missing.standardError == "The model file /nonexistent/m.xml does not exist.\n")
        let folder = try TemporaryFolder.make("see-model")
        defer { try? FileManager.default.removeItem(at: folder) }
        let corrupt = folder.appendingPathComponent("corrupt.onnx"); try Data(repeating: 7, count: 1000).write(to: corrupt)
        let bad = try AssistBinary.run(["see", "--quiet", AssistBinary.image("bus.jpg"), "--model", corrupt.path])
        #expect(bad.status == 3)
        #expect(bad.standardError.contains("corrupt.onnx") && bad.standardError.split(separator: "\n").count == 1)
    }

    @Test("a depth image of the wrong size is refused by name; a matching one makes distances measured")
    func depthImages() throws {
        let depthFolder = AssistBinary.shared.appendingPathComponent("data/depth")
        let mismatch = try AssistBinary.run(["see", "--quiet", AssistBinary.image("bus.jpg"),
                                             "--depth", depthFolder.appendingPathComponent("TUM_depth_mm.pgm").path])
        #expect(mismatch.status == 1)
        #expect(mismatch.standardError.contains("TUM_depth_mm.pgm"))
        let measured = try AssistBinary.run(["see", "--quiet", depthFolder.appendingPathComponent("TUM_color.png").path, "--json"])
        #expect(measured.status == 0)
        #expect(measured.standardOutput.contains("\"measuredDepth\""))
        #expect(measured.standardOutput.contains("\"depthSource\" : \"depth image\""))
    }

    @Test("--speak-to renders the description into a WAV file with speech in it")
    func speakTo() throws {
        let wav = TemporaryFolder.path("bus.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let output = try AssistBinary.run(["see", AssistBinary.image("bus.jpg"), "--speak-to", wav.path])
        #expect(output.status == 0)
        let size = (try FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int) ?? 0
        // Three sentences at 175 words per minute: several seconds of 16-bit 22.05 kHz audio.
        #expect(size > 22050 * 2 * 3)
    }

    @Test("a photo darkened to 1 % is reported as too dark, not as 'No object detected'")
    func darkPicture() throws {
        let folder = try TemporaryFolder.make("see-dark")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dark = folder.appendingPathComponent("dark.png")
        try Program.ffmpeg(["-i", AssistBinary.image("bus.jpg"), "-vf", "lutrgb=r=val*0.01:g=val*0.01:b=val*0.01", dark.path])
        let output = try AssistBinary.run(["see", "--quiet", dark.path])
        #expect(output.status == 0)
        #expect(output.standardOutput == "The image is too dark to see anything.\n")
    }

    @Test("options out of range are refused before any work, with the allowed range")
    func badOptions() throws {
        let output = try AssistBinary.run(["see", "--quiet", AssistBinary.image("bus.jpg"), "--confidence", "1.5"])
        #expect(output.status != 0)
        #expect(output.standardError == "--confidence must be a number from 0.05 to 0.95, not 1.5.\n")
    }
}

@Suite("assist eval, as a user runs it", .serialized)
struct EvalCommandTests {
    @Test("geometric distance on the registered RGB-D frames stays within the error reported in issue 2")
    func distanceAccuracy() throws {
        // Issue 2 measured this with the square 640×640 input; the rectangular default finds 5 of
        // the 7 objects above 0.6 on these frames (BENCHMARKS.md, "Rectangular detector input").
        let output = try AssistBinary.run(["eval", "distance", "--json", "--input-shape", "square"])
        #expect(output.status == 0)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let summary = try #require(result["summary"] as? [String: Any])
        // Measured with the square input: 7 objects, MAE 0.79 m, mean relative error 45 %.
        #expect((summary["count"] as? Int ?? 0) >= 7)
        #expect((summary["meanAbsoluteErrorMeters"] as? Double ?? 99) <= 0.80)
        #expect((summary["meanRelativeError"] as? Double ?? 99) <= 0.46)
    }
}
