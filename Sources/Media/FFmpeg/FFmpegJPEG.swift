import AssistCore
import CFFmpeg

// Part of the FFmpeg wrapper (see FFmpegPicture.swift): a picture encoded as JPEG in memory, for
// the web app's view of the camera. Nothing is written to a file.

/// Why a picture could not be encoded as JPEG.
public enum PictureEncodingError: Error, Equatable, UserFacingError {
    /// A picture with no pixels.
    case emptyPicture
    /// This FFmpeg build has no JPEG encoder.
    case noEncoder
    /// Any other FFmpeg failure, with FFmpeg's own description of `code`.
    case ffmpeg(code: Int32, description: String)

    public var userMessage: String {
        switch self {
        case .emptyPicture: return "The picture to show is empty."
        case .noEncoder: return "This FFmpeg has no JPEG encoder, so the view cannot be shown."
        case .ffmpeg(_, let description): return "The view could not be encoded as a picture: \(description)."
        }
    }
}

/// A JPEG picture in memory.
public struct JPEGPicture: Sendable, Equatable {
    public var bytes: [UInt8]
    public var width: Int
    public var height: Int

    public init(bytes: [UInt8], width: Int, height: Int) {
        self.bytes = bytes
        self.width = width
        self.height = height
    }
}

/// Encodes `RGBImage`s as JPEG with FFmpeg's MJPEG encoder, scaled down to `maximumWidthPixels`.
public struct JPEGEncoder: Sendable {
    /// FFmpeg's quantiser scale, 2 (best) to 31: 5 keeps edges and small print clear at about a
    /// tenth of the raw picture's bytes (bus.jpg's 810 × 1080: about 100 kB).
    public var quantiser: Int
    /// Wider pictures are scaled down to this (nil: never); a browser scales the view anyway.
    public var maximumWidthPixels: Int?

    public init(quantiser: Int = 5, maximumWidthPixels: Int? = 960) {
        self.quantiser = min(31, max(2, quantiser))
        self.maximumWidthPixels = maximumWidthPixels
    }

    /// The encoded size for a picture of `width` × `height`: the same, or scaled to the maximum width.
    public func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard let maximum = maximumWidthPixels, width > maximum, maximum > 0 else { return (width, height) }
        return (maximum, max(1, Int((Double(height) * Double(maximum) / Double(width)).rounded())))
    }

    public func encode(_ image: RGBImage) throws(PictureEncodingError) -> JPEGPicture {
        _ = ffmpegPrepared
        guard !image.isEmpty else { throw .emptyPicture }
        let (width, height) = outputSize(width: image.width, height: image.height)
        let encoder = try JPEGEncoderContext(width: width, height: height, quantiser: quantiser)
        try encoder.fill(from: image)
        return JPEGPicture(bytes: try encoder.encode(), width: width, height: height)
    }
}

/// The MJPEG encoder, its one frame and packet, and the converter from RGB. Owns them all.
private final class JPEGEncoderContext {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let width: Int
    private let height: Int

    init(width: Int, height: Int, quantiser: Int) throws(PictureEncodingError) {
        self.width = width
        self.height = height
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else { throw .noEncoder }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw .ffmpeg(code: -ENOMEM, description: "out of memory")
        }
        self.context = context
        self.frame = frame
        self.packet = packet
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        // The full-range ("J") format: JPEG's own range, so swscale keeps blacks black.
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.time_base = AVRational(num: 1, den: 25)
        // A fixed quantiser instead of a bit rate: every frame equally sharp.
        context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        context.pointee.global_quality = Int32(quantiser) * Int32(FF_QP2LAMBDA)
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else { throw .ffmpeg(code: opened, description: FFmpegErrorCode.describe(opened)) }
        frame.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.quality = context.pointee.global_quality
        frame.pointee.pts = 0
        let allocated = av_frame_get_buffer(frame, 0)
        guard allocated >= 0 else { throw .ffmpeg(code: allocated, description: FFmpegErrorCode.describe(allocated)) }
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&context)
    }

    /// Converts (and scales) `image` into the encoder's frame.
    func fill(from image: RGBImage) throws(PictureEncodingError) {
        guard let frame else { throw .ffmpeg(code: -EINVAL, description: "no frame") }
        guard let converter = sws_getContext(Int32(image.width), Int32(image.height), AV_PIX_FMT_RGB24,
                                             Int32(width), Int32(height), AV_PIX_FMT_YUVJ420P,
                                             SWS_BILINEAR, nil, nil, nil) else {
            throw .ffmpeg(code: -EINVAL, description: "swscale cannot convert this picture")
        }
        defer { sws_freeContext(converter) }
        // swscale's vector code may read a little past the last pixel; the source is padded for it.
        var source = image.pixels
        source.append(contentsOf: repeatElement(0, count: FFmpegPicture.destinationPaddingBytes))
        let destinationPlanes = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let destinationStrides = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
        let converted = source.withUnsafeBufferPointer { pixels -> Int32 in
            let planes: [UnsafePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
            let strides: [Int32] = [Int32(image.width * 3), 0, 0, 0]
            return sws_scale(converter, planes, strides, 0, Int32(image.height), destinationPlanes, destinationStrides)
        }
        guard converted == Int32(height) else {
            throw .ffmpeg(code: converted < 0 ? converted : -EINVAL, description: "swscale converted \(converted) of \(height) rows")
        }
    }

    /// The frame as one JPEG.
    func encode() throws(PictureEncodingError) -> [UInt8] {
        guard let context, let frame, let packet else { throw .ffmpeg(code: -EINVAL, description: "no encoder") }
        let sent = avcodec_send_frame(context, frame)
        guard sent >= 0 else { throw .ffmpeg(code: sent, description: FFmpegErrorCode.describe(sent)) }
        let received = avcodec_receive_packet(context, packet)
        guard received >= 0, let data = packet.pointee.data else {
            throw .ffmpeg(code: received, description: FFmpegErrorCode.describe(received))
        }
        defer { av_packet_unref(packet) }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }
}
