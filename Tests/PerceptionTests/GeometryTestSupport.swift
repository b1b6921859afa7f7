import AssistCore
import Foundation
import TestSupport
import Testing
@testable import Perception

/// Intrinsics of the shared RGB-D frames (Open3D's PrimeSense defaults, MODELS.md), with the
/// principal point moved to the exact centre so hand computations stay round.
func primeSenseLikeIntrinsics() throws -> CameraIntrinsics {
    try CameraIntrinsics(focalLengthXPixels: 525, focalLengthYPixels: 525,
                         principalPointXPixels: 320, principalPointYPixels: 240)
}

func camera(heightMeters: Double = 1.3, pitchDownDegrees: Double = 0) throws -> CameraSettings {
    try CameraSettings(lens: .calibrated(try primeSenseLikeIntrinsics()), heightAboveFloorMeters: heightMeters,
                       pitchDownDegrees: pitchDownDegrees)
}

func detection(_ label: String, _ box: BoundingBox, confidence: Float = 0.9) -> Detection {
    Detection(classIndex: 0, label: label, confidence: confidence, box: box)
}

/// Header fields of a binary PGM/PPM (P5/P6): magic, width, height, maxval, then one whitespace byte.
func netpbmHeader(_ bytes: [UInt8]) throws -> (magic: String, width: Int, height: Int, maxValue: Int, dataOffset: Int) {
    var fields: [String] = [], index = 0
    while fields.count < 4 {
        while index < bytes.count, [9, 10, 13, 32].contains(bytes[index]) { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
            while index < bytes.count, bytes[index] != 10 { index += 1 }
            continue
        }
        let start = index
        while index < bytes.count, ![9, 10, 13, 32].contains(bytes[index]) { index += 1 }
        fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
    }
    let width = try #require(Int(fields[1])), height = try #require(Int(fields[2])), maxValue = try #require(Int(fields[3]))
    return (fields[0], width, height, maxValue, index + 1)
}

/// The shared `*_depth_mm.pgm` files: P5, 16-bit big-endian millimeters, 0 = no reading.
func loadDepthMillimeterPGM(_ url: URL) throws -> DepthMap {
    let bytes = [UInt8](try Data(contentsOf: url))
    let header = try netpbmHeader(bytes)
    #expect(header.magic == "P5" && header.maxValue == 65535)
    let count = header.width * header.height
    try #require(bytes.count >= header.dataOffset + 2 * count)
    var meters = [Float](repeating: .nan, count: count)
    for i in 0..<count {
        let millimeters = UInt16(bytes[header.dataOffset + 2 * i]) << 8 | UInt16(bytes[header.dataOffset + 2 * i + 1])
        if millimeters > 0 { meters[i] = Float(millimeters) / 1000 }
    }
    return DepthMap(width: header.width, height: header.height, metersOrNaN: meters)
}

/// A binary PPM (P6, 8-bit) as an `RGBImage`.
func loadPPM(_ url: URL) throws -> RGBImage {
    let bytes = [UInt8](try Data(contentsOf: url))
    let header = try netpbmHeader(bytes)
    #expect(header.magic == "P6" && header.maxValue == 255)
    let count = header.width * header.height * 3
    try #require(bytes.count >= header.dataOffset + count)
    return RGBImage(width: header.width, height: header.height,
                    pixels: Array(bytes[header.dataOffset..<(header.dataOffset + count)]))
}
