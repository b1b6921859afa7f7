import Foundation
import Testing
@testable import Perception

@Suite("Camera model")
struct GeometryCameraTests {
    @Test("a 90° field of view on a 640-pixel-wide image gives a focal length of 320 pixels")
    func intrinsicsFromFieldOfView() throws {
        let intrinsics = try CameraIntrinsics(horizontalFieldOfViewDegrees: 90, imageWidth: 640, imageHeight: 480)
        #expect(abs(intrinsics.focalLengthXPixels - 320) < 1e-9)
        #expect(abs(intrinsics.focalLengthYPixels - 320) < 1e-9)
        #expect(intrinsics.principalPointXPixels == 320 && intrinsics.principalPointYPixels == 240)
        // The right edge of the picture is half the field of view to the right.
        #expect(abs(intrinsics.horizontalAngleDegrees(x: 640) - 45) < 1e-9)
    }

    @Test("the default camera is chest-worn: 70° field of view, 1.3 m above the floor, level")
    func defaults() throws {
        let settings = try CameraSettings()
        #expect(settings == CameraSettings.chestWorn)
        #expect(settings.lens == .horizontalFieldOfView(degrees: 70))
        #expect(settings.heightAboveFloorMeters == 1.3 && settings.pitchDownDegrees == 0)
        let intrinsics = try settings.intrinsics(imageWidth: 810, imageHeight: 1080)
        #expect(abs(intrinsics.focalLengthXPixels - 405 / tan(35 * Double.pi / 180)) < 1e-9)
    }

    @Test("a field of view across the longer side keeps the focal length when the picture is portrait")
    func longerSide() throws {
        let settings = try CameraSettings(lens: .fieldOfViewAcrossLongerSide(degrees: 90))
        let portrait = try settings.intrinsics(imageWidth: 480, imageHeight: 640)
        let landscape = try settings.intrinsics(imageWidth: 640, imageHeight: 480)
        #expect(abs(portrait.focalLengthXPixels - 320) < 1e-9 && abs(landscape.focalLengthXPixels - 320) < 1e-9)
        #expect(portrait.principalPointXPixels == 240 && portrait.principalPointYPixels == 320)
        #expect(throws: CameraSettingsError.fieldOfViewOutOfRange(degrees: 0)) {
            try CameraSettings(lens: .fieldOfViewAcrossLongerSide(degrees: 0))
        }
    }

    @Test("calibrated intrinsics are used as given, whatever the image size")
    func calibratedIntrinsics() throws {
        let settings = try camera()
        #expect(try settings.intrinsics(imageWidth: 1000, imageHeight: 10) == primeSenseLikeIntrinsics())
    }

    @Test("fields of view outside 30°–170° (the settings' range: a pinhole camera has no 180°) are rejected with a typed error",
          arguments: [0.0, 20, 175, 180, -10, 200, .nan])
    func badFieldOfView(degrees: Double) {
        #expect(throws: CameraSettingsError.self) { try CameraSettings(lens: .horizontalFieldOfView(degrees: degrees)) }
    }

    @Test("a camera height of zero or less, or absurdly high, is rejected", arguments: [0, -1.3, 1e308, .infinity, .nan, 10.5])
    func badHeight(meters: Double) {
        #expect(throws: CameraSettingsError.self) { try CameraSettings(heightAboveFloorMeters: meters) }
    }

    @Test("intrinsics of 1e308 are refused in one sentence rather than making distances infinite (issue 16)")
    func absurdIntrinsics() {
        #expect(throws: CameraSettingsError.focalLengthOutOfRange(name: "focal length x", value: 1e308)) {
            try CameraIntrinsics(focalLengthXPixels: 1e308, focalLengthYPixels: 1e308, principalPointXPixels: 1e308, principalPointYPixels: 1e308)
        }
        #expect(throws: CameraSettingsError.principalPointOutOfRange(name: "principal point x", value: 1e308)) {
            try CameraIntrinsics(focalLengthXPixels: 500, focalLengthYPixels: 500, principalPointXPixels: 1e308, principalPointYPixels: 1)
        }
        let message = CameraSettingsError.heightOutOfRange(meters: 1e308).userMessage
        #expect(message == "The camera's height above the floor must be more than 0 and at most 10 meters, not 1e+308.")
    }

    @Test("a tilt of 90° or more and non-positive focal lengths are rejected")
    func badPitchAndFocalLength() {
        #expect(throws: CameraSettingsError.pitchOutOfRange(degrees: 90)) { try CameraSettings(pitchDownDegrees: 90) }
        #expect(throws: CameraSettingsError.self) {
            try CameraIntrinsics(focalLengthXPixels: 0, focalLengthYPixels: 500, principalPointXPixels: 1, principalPointYPixels: 1)
        }
        #expect(throws: CameraSettingsError.imageSizeNotPositive(width: 0, height: 480)) {
            try CameraIntrinsics(horizontalFieldOfViewDegrees: 70, imageWidth: 0, imageHeight: 480)
        }
    }

    @Test("camera errors read as one sentence naming the bad value")
    func errorMessages() {
        let message = CameraSettingsError.fieldOfViewOutOfRange(degrees: 200).userMessage
        #expect(message.contains("200") && message.hasSuffix("."))
    }
}
