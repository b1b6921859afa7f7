import AssistCore
import CFFmpeg

// Demuxing and decoding a stream of pictures: a video file, a network stream, a V4L2 camera
// (libavdevice). The pointers stay in this folder (see FFmpegPicture.swift); `VideoFrameSource`
// in Sources/Media/Video sees `FFmpegVideoDecoder` and Swift values only.

/// Why FFmpeg could not open a video input or read on from it. `VideoInputError` turns these
/// into the sentences users hear.
enum FFmpegVideoFailure: Error, Equatable {
    /// The input could not be opened; `errno` is the POSIX code FFmpeg reported (EBUSY for a
    /// camera another program holds, EACCES, ENOENT, ECONNREFUSED…).
    case cannotOpen(errno: Int32)
    /// FFmpeg recognised no format, or the input holds no video stream.
    case noVideoStream
    /// The video is in a codec this FFmpeg build cannot decode.
    case noDecoder
    /// Reading failed after frames had come (a camera unplugged: ENODEV or EIO; a network error).
    case readFailed(errno: Int32)
    /// Any other FFmpeg failure, with FFmpeg's own description of `code`.
    case ffmpeg(code: Int32, description: String)
    /// A picture the decoder could not read whole: its packet was refused, the decoder concealed
    /// errors in it, or it is predicted from such a picture (every picture until the next key
    /// frame). Reading can go on; the picture is not handed on, so it is never described.
    case damagedPicture
    /// The input ended before the pictures its container declares (a file cut short).
    case endedEarly(playedSeconds: Double, declaredSeconds: Double)
}

/// What to open and how: FFmpeg's URL (a path, "file:…", "rtsp://…", "/dev/video0"), the
/// demuxer to force ("video4linux2" for a camera), and demuxer/protocol options.
struct FFmpegVideoInput: Sendable, Equatable {
    var url: String
    var formatName: String?
    var options: [String: String]
}

/// One open video input with its decoder: frames come out in presentation order.
final class FFmpegVideoDecoder {
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let picture: FFmpegPicture
    private var converter: PixelConverter?
    private let streamIndex: Int32
    private let timeBaseSeconds: Double
    private var firstTimestamp: Int64?
    private var decodedFrames = 0
    private var inputEnded = false
    private var decoderDrained = false
    /// Pictures until the next clean key frame are built on a damaged one, so damaged too.
    private var damagedUntilKeyFrame = false
    private var damagedInARow = 0
    /// Pictures that came out of the decoder or were refused as damaged: compared with what the
    /// container declares, it tells a file cut short from one that ended.
    private var picturesSeen = 0
    private var toldEndedEarly = false
    /// What the container declares: its frame count and duration (0 when unknown).
    private let declaredFrameCount: Int
    private let declaredSeconds: Double

    /// The stream's nominal frame rate (its average, else its base rate); nil when unknown.
    let framesPerSecond: Double?
    /// The decoder's picture size as the stream declares it.
    let width: Int
    let height: Int

    /// FFmpeg's `AV_NOPTS_VALUE`, a macro Swift cannot import: "no timestamp".
    private static let noTimestamp = Int64.min
    /// A live stream's packets can be damaged (a dropped network packet, a corrupt camera JPEG);
    /// the decoder skips such packets, but this many in a row means the input is not video.
    private static let maximumDamagedPacketsInARow = 50

    init(_ input: FFmpegVideoInput) throws(FFmpegVideoFailure) {
        _ = ffmpegPrepared
        do { picture = try FFmpegPicture() } catch { throw .ffmpeg(code: -ENOMEM, description: "out of memory") }
        var options: OpaquePointer?
        for (key, value) in input.options { av_dict_set(&options, key, value, 0) }
        defer { av_dict_free(&options) }
        if input.formatName != nil, let problem = ffmpegCaptureDevicesProblem { throw .ffmpeg(code: -ENOSYS, description: problem) }
        let format = input.formatName.flatMap { av_find_input_format($0) }
        if input.formatName != nil && format == nil { throw .ffmpeg(code: -ENOSYS, description: "FFmpeg lacks the \(input.formatName ?? "") input") }
        let openStatus = avformat_open_input(&formatContext, input.url, format, &options)
        guard openStatus >= 0, let formatContext else { throw Self.failure(openingWith: openStatus) }
        let infoStatus = avformat_find_stream_info(formatContext, nil)
        guard infoStatus >= 0 else { throw Self.failure(openingWith: infoStatus) }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(formatContext, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        if index == FFmpegErrorCode.streamNotFound { throw .noVideoStream }
        if index == FFmpegErrorCode.decoderNotFound { throw .noDecoder }
        guard index >= 0, let decoder, let stream = formatContext.pointee.streams[Int(index)] else {
            throw Self.failure(openingWith: index)
        }
        streamIndex = index
        guard let codecContext = avcodec_alloc_context3(decoder) else { throw .ffmpeg(code: -ENOMEM, description: "out of memory") }
        self.codecContext = codecContext
        let copyStatus = avcodec_parameters_to_context(codecContext, stream.pointee.codecpar)
        guard copyStatus >= 0 else { throw Self.failure(openingWith: copyStatus) }
        // FFmpeg's MJPEG decoder fills a damaged JPEG's rows with whatever it decoded and reports
        // success; with "explode" the damage is an error, so the picture is refused, not described.
        if codecContext.pointee.codec_id == AV_CODEC_ID_MJPEG {
            codecContext.pointee.err_recognition |= AV_EF_EXPLODE
        }
        let openCodecStatus = avcodec_open2(codecContext, decoder, nil)
        guard openCodecStatus >= 0 else { throw Self.failure(openingWith: openCodecStatus) }
        guard let packet = av_packet_alloc() else { throw .ffmpeg(code: -ENOMEM, description: "out of memory") }
        self.packet = packet
        let timeBase = stream.pointee.time_base
        timeBaseSeconds = timeBase.den != 0 ? Double(timeBase.num) / Double(timeBase.den) : 0
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        framesPerSecond = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : nil
        width = Int(codecContext.pointee.width)
        height = Int(codecContext.pointee.height)
        declaredFrameCount = max(0, Int(stream.pointee.nb_frames))
        let streamSeconds = stream.pointee.duration > 0 ? Double(stream.pointee.duration) * timeBaseSeconds : 0
        declaredSeconds = streamSeconds > 0 ? streamSeconds
            : formatContext.pointee.duration > 0 ? Double(formatContext.pointee.duration) / 1_000_000 : 0
    }

    deinit {
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        avformat_close_input(&formatContext)
    }

    /// The next picture as RGB, at most `maximumWidth` pixels wide (scaled down keeping its
    /// shape, to even sizes), with its time in seconds since the first frame on the input's own
    /// clock; nil once the input has ended and the decoder has given out what it held.
    func nextFrame(maximumWidth: Int?) throws(FFmpegVideoFailure) -> (image: RGBImage, timestampSeconds: Double)? {
        guard let formatContext, let codecContext, let packet else { return nil }
        while !decoderDrained {
            let receiveStatus = avcodec_receive_frame(codecContext, picture.frame)
            if receiveStatus >= 0 {
                guard picture.width > 0, picture.height > 0 else { continue }
                picturesSeen += 1
                let frame = picture.frame.pointee
                // FFmpeg conceals bitstream errors and hands the picture out flagged; a scene
                // described from it would be invented (issue 16: "Refrigerator, 2 meters").
                if frame.decode_error_flags != 0 || frame.flags & AV_FRAME_FLAG_CORRUPT != 0 {
                    damagedUntilKeyFrame = true
                } else if frame.key_frame != 0 {
                    damagedUntilKeyFrame = false
                }
                if damagedUntilKeyFrame {
                    _ = timestampOfPicture()
                    throw try damaged()
                }
                damagedInARow = 0
                return (try convertedPicture(maximumWidth: maximumWidth), timestampOfPicture())
            }
            if receiveStatus == FFmpegErrorCode.endOfFile { decoderDrained = true; break }
            if receiveStatus == FFmpegErrorCode.invalidData {   // a damaged picture
                picturesSeen += 1
                throw try damaged()
            }
            guard receiveStatus == FFmpegErrorCode.tryAgain else {
                throw .ffmpeg(code: receiveStatus, description: FFmpegErrorCode.describe(receiveStatus))
            }
            if inputEnded { decoderDrained = true; break }
            let readStatus = av_read_frame(formatContext, packet)
            if readStatus == FFmpegErrorCode.endOfFile {
                inputEnded = true
                _ = avcodec_send_packet(codecContext, nil)   // asks for the pictures the decoder still holds
                continue
            }
            if readStatus == -EAGAIN { continue }   // a non-blocking device with nothing yet
            guard readStatus >= 0 else {
                throw readStatus < 0 && -readStatus < 4096 ? .readFailed(errno: -readStatus)
                    : .ffmpeg(code: readStatus, description: FFmpegErrorCode.describe(readStatus))
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sendStatus = avcodec_send_packet(codecContext, packet)
            if sendStatus == FFmpegErrorCode.invalidData {   // a damaged packet: its picture is lost
                picturesSeen += 1
                throw try damaged()
            }
            if sendStatus < 0 && sendStatus != FFmpegErrorCode.tryAgain {
                throw .ffmpeg(code: sendStatus, description: FFmpegErrorCode.describe(sendStatus))
            }
        }
        if !toldEndedEarly, let early = endedEarly() {
            toldEndedEarly = true
            throw early
        }
        return nil
    }

    /// One more damaged picture; from `maximumDamagedPacketsInARow` in a row on, the input is
    /// not video at all.
    private func damaged() throws(FFmpegVideoFailure) -> FFmpegVideoFailure {
        damagedUntilKeyFrame = true
        damagedInARow += 1
        if damagedInARow >= Self.maximumDamagedPacketsInARow { throw .noVideoStream }
        return .damagedPicture
    }

    /// The input ended with fewer pictures than its container declares: more than one picture
    /// missing (an encoder may declare one that never comes), or, without a declared count,
    /// more than half a second short of the declared duration.
    private func endedEarly() -> FFmpegVideoFailure? {
        let played = framesPerSecond.map { Double(picturesSeen) / $0 } ?? 0
        if declaredFrameCount > 0 {
            guard picturesSeen < declaredFrameCount - 1 else { return nil }
        } else {
            guard declaredSeconds > 0, framesPerSecond != nil, played < declaredSeconds - 0.5 else { return nil }
        }
        return .endedEarly(playedSeconds: played, declaredSeconds: declaredSeconds)
    }

    private func convertedPicture(maximumWidth: Int?) throws(FFmpegVideoFailure) -> RGBImage {
        var (outputWidth, outputHeight) = (picture.width, picture.height)
        if let maximumWidth, maximumWidth > 0, outputWidth > maximumWidth {
            // Even sizes keep swscale on its fast paths; the shape is kept to within a pixel.
            outputHeight = max(2, Int((Double(outputHeight) * Double(maximumWidth) / Double(outputWidth) / 2).rounded()) * 2)
            outputWidth = max(2, maximumWidth / 2 * 2)
        }
        do {
            return try picture.rgbImage(width: outputWidth, height: outputHeight, reusing: &converter)
        } catch {
            throw .ffmpeg(code: -EINVAL, description: "the picture could not be converted to RGB (\(error))")
        }
    }

    /// Seconds since the first frame: a camera's timestamps count from boot and a stream's from
    /// wherever it was joined, so every input's clock starts at its first frame. Pictures without
    /// a timestamp are placed at the nominal frame rate.
    private func timestampOfPicture() -> Double {
        defer { decodedFrames += 1 }
        let timestamp = picture.frame.pointee.best_effort_timestamp
        guard timestamp != Self.noTimestamp, timeBaseSeconds > 0 else {
            return Double(decodedFrames) / (framesPerSecond ?? 25)
        }
        let first = firstTimestamp ?? timestamp
        firstTimestamp = first
        return Double(timestamp - first) * timeBaseSeconds
    }

    private static func failure(openingWith status: Int32) -> FFmpegVideoFailure {
        if status == FFmpegErrorCode.invalidData || status == FFmpegErrorCode.demuxerNotFound
            || status == FFmpegErrorCode.endOfFile { return .noVideoStream }
        if status == FFmpegErrorCode.streamNotFound { return .noVideoStream }
        if status == FFmpegErrorCode.decoderNotFound { return .noDecoder }
        if status < 0 && -status < 4096 { return .cannotOpen(errno: -status) }
        return .ffmpeg(code: status, description: FFmpegErrorCode.describe(status))
    }
}
