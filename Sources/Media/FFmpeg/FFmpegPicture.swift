import AssistCore
import CFFmpeg
import Glibc

// Sources/Media/FFmpeg/ is the one folder in AssistiveKit that touches FFmpeg's pointers
// (STYLE.md §2): this file for pictures (a still image, or one decoded video frame) and their
// conversion to RGB, FFmpegVideo.swift for demuxing and decoding a stream of them. Everything
// FFmpeg allocates is owned by a class here and freed in its deinit; every status code becomes a
// typed failure; callers outside the folder see Swift values only.

/// Why FFmpeg handed over no picture. `ImageFile` and `DepthImageFile` turn these into the
/// sentences users see.
enum FFmpegPictureFailure: Error, Equatable {
    /// The file could not be opened; `errno` is the POSIX code FFmpeg's file protocol reported.
    case cannotOpen(errno: Int32)
    /// FFmpeg recognised no format, or the format holds no picture stream.
    case noPictureStream
    /// The picture is in a codec this FFmpeg build cannot decode.
    case noDecoder
    /// The decoder rejected the data before it learned the picture's size: not this kind of image.
    case unrecognisedData
    /// The decoder read the picture's header (it knows the size) but the pixel data was corrupt or
    /// cut short.
    case damagedData
    /// Any other FFmpeg failure, with FFmpeg's own description of `code`.
    case ffmpeg(code: Int32, description: String)
    /// More pixels than `PictureSize.maximumPixels`: refused before decoding.
    case tooLarge(PictureSize?)
}

/// FFmpeg's error codes that are C macros Swift cannot import. `FFERRTAG(a,b,c,d)` in
/// libavutil/error.h is `-(a | b<<8 | c<<16 | d<<24)`; `AVERROR(e)` is `-e`.
enum FFmpegErrorCode {
    static func tag(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Int32 {
        -Int32(bitPattern: UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 | UInt32(d) << 24)
    }
    static let endOfFile = tag(0x45, 0x4F, 0x46, 0x20)           // 'E','O','F',' '
    static let invalidData = tag(0x49, 0x4E, 0x44, 0x41)         // 'I','N','D','A'
    static let streamNotFound = tag(0xF8, 0x53, 0x54, 0x52)      // 0xF8,'S','T','R'
    static let decoderNotFound = tag(0xF8, 0x44, 0x45, 0x43)     // 0xF8,'D','E','C'
    static let demuxerNotFound = tag(0xF8, 0x44, 0x45, 0x4D)     // 0xF8,'D','E','M'
    static let tryAgain = -EAGAIN

    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "FFmpeg error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// FFmpeg logs to stderr by default; users must hear only our one sentence, so its log is
/// silenced once per process (the level is global to FFmpeg).
let ffmpegPrepared: Void = {
    av_log_set_level(AV_LOG_QUIET)
}()

/// FFmpeg's capture devices (v4l2), registered the first time a camera is opened; nil when
/// libavdevice was registered, else why it could not be loaded. libavdevice is loaded then, not
/// linked: through libavfilter it brings in about 60 libraries a file, a stream or a picture
/// never use (SDL, OpenGL, Vulkan, Wayland, flite's voices, LAPACK), 12–16 MB resident in every
/// session (BENCHMARKS.md, "Issue 37 (twenty-fifth session)").
let ffmpegCaptureDevicesProblem: String? = {
    _ = ffmpegPrepared
    let library = "libavdevice.so.\(LIBAVDEVICE_VERSION_MAJOR)"
    guard let handle = dlopen(library, RTLD_NOW | RTLD_GLOBAL) else {
        return "FFmpeg's capture devices (\(library)) could not be loaded: \(dlerror().map { String(cString: $0) } ?? "no reason given")"
    }
    guard let register = dlsym(handle, "avdevice_register_all") else {
        return "FFmpeg's capture devices (\(library)) lack avdevice_register_all"
    }
    typealias RegisterAll = @convention(c) () -> Void
    unsafeBitCast(register, to: RegisterAll.self)()
    return nil
}()

/// One decoded picture, still in the decoder's frame. Owns the `AVFrame`.
final class FFmpegPicture {
    /// Filled by `DecodingSession` or `FFmpegVideoDecoder`; nobody outside Sources/Media/FFmpeg sees it.
    let frame: UnsafeMutablePointer<AVFrame>

    var width: Int { Int(frame.pointee.width) }
    var height: Int { Int(frame.pointee.height) }

    private var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: frame.pointee.format) }

    /// An empty frame for the decoder to fill.
    init() throws(FFmpegPictureFailure) {
        guard let frame = av_frame_alloc() else { throw .ffmpeg(code: -ENOMEM, description: "out of memory") }
        self.frame = frame
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&owned)
    }

    /// Decodes the first picture of the file at `path` (a plain file system path).
    static func decodeFirstPicture(atPath path: String) throws(FFmpegPictureFailure) -> FFmpegPicture {
        _ = ffmpegPrepared
        let session = try DecodingSession(path: path)
        return try session.decodeFirstPicture()
    }

    /// The 3×3 display matrix FFmpeg attached (from EXIF orientation in JPEGs), row-major, 16.16
    /// fixed point except the last column (2.30); nil when the picture carries none.
    var displayMatrix: [Int32]? {
        guard let sideData = av_frame_get_side_data(frame, AV_FRAME_DATA_DISPLAYMATRIX),
              let bytes = sideData.pointee.data,
              sideData.pointee.size >= 9 * MemoryLayout<Int32>.size else { return nil }
        return UnsafeRawPointer(bytes).withMemoryRebound(to: Int32.self, capacity: 9) {
            Array(UnsafeBufferPointer(start: $0, count: 9))
        }
    }

    /// A frame metadata entry (FFmpeg's mjpeg decoder puts each EXIF tag there under its name,
    /// e.g. "Orientation"), or nil.
    func metadataValue(forKey key: String) -> String? {
        guard let entry = av_dict_get(frame.pointee.metadata, key, nil, 0),
              let value = entry.pointee.value else { return nil }
        return String(cString: value)
    }

    /// Bytes swscale may write past the last pixel of the last row. Its SIMD converters store
    /// whole vectors (8 or 16 pixels at a time), trusting FFmpeg's own buffers to be padded to
    /// 32/64-byte lines; without this slack a width like 810 overruns the heap (seen here:
    /// "malloc(): corrupted top size").
    static let destinationPaddingBytes = 256

    /// Converts the picture to packed 8-bit RGB, row after row with `bytesPerRow` bytes per row
    /// (at least `3 * width`). `destination` must hold `height * bytesPerRow` bytes plus
    /// `destinationPaddingBytes` that swscale may scribble on.
    func convertToRGB24(into destination: UnsafeMutableBufferPointer<UInt8>, bytesPerRow: Int) throws(FFmpegPictureFailure) {
        guard bytesPerRow >= width * 3, let start = destination.baseAddress,
              destination.count >= height * bytesPerRow + Self.destinationPaddingBytes else {
            throw .ffmpeg(code: -EINVAL, description: "the destination buffer is too small")
        }
        // swscale's fast YUV-to-RGB converters run only on an even number of rows; a whole
        // odd-height picture would take its general path, ten times slower (640x425: 2.8 ms
        // against 0.24 ms here). So such a picture is converted as its even part, then the rest.
        let splitRow = height > rowAlignment ? height - height % rowAlignment : height
        for (firstRow, rows) in [(0, splitRow), (splitRow, height - splitRow)] where rows > 0 {
            let converter = try PixelConverter(from: frame, rows: rows, to: AV_PIX_FMT_RGB24)
            try converter.convert(planes: sourcePlanes(fromRow: firstRow), into: start + firstRow * bytesPerRow,
                                  bytesPerRow: bytesPerRow)
        }
    }

    /// The picture as an `RGBImage` of `width` × `height` (scaled when that differs from the
    /// picture's own size), converted by `converter`, which is made or replaced when it does not
    /// fit this picture: a video's frames share one swscale context instead of one each.
    func rgbImage(width outputWidth: Int, height outputHeight: Int,
                  reusing converter: inout PixelConverter?) throws(FFmpegPictureFailure) -> RGBImage {
        if converter?.converts(frame, toWidth: outputWidth, height: outputHeight) != true {
            converter = try PixelConverter(from: frame, rows: height, to: AV_PIX_FMT_RGB24,
                                           destinationWidth: outputWidth, destinationRows: outputHeight)
        }
        guard let converter else { throw .ffmpeg(code: -EINVAL, description: "no converter") }
        let count = outputWidth * outputHeight * 3
        var failure: FFmpegPictureFailure?
        let pixels = [UInt8](unsafeUninitializedCapacity: count + Self.destinationPaddingBytes) { buffer, initialized in
            guard let start = buffer.baseAddress else { return }
            do throws(FFmpegPictureFailure) {
                try converter.convert(planes: sourcePlanes(fromRow: 0), into: start, bytesPerRow: outputWidth * 3)
                initialized = count
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return RGBImage(width: outputWidth, height: outputHeight, pixels: pixels)
    }

    /// Where a picture may be split into parts converted on their own: at whole chroma rows, and
    /// at even rows, which also keeps the 2x2 pattern of a Bayer picture whole.
    private var rowAlignment: Int {
        max(2, 1 << Int(av_pix_fmt_desc_get(pixelFormat)?.pointee.log2_chroma_h ?? 0))
    }

    /// Converts the picture to packed 8-bit RGB one band of rows at a time, into one small
    /// reused buffer, handing each band to `consume` with the index of its first row. A caller
    /// that moves every pixel anyway (turning a photo upright) then reads them from cache, and
    /// no full-size intermediate picture is allocated.
    ///
    /// Each band is converted as a picture of its own, so swscale writes exactly its rows.
    /// `bandRows` is rounded up to a multiple of `rowAlignment`.
    func convertToRGB24(inBandsOf bandRows: Int,
                        _ consume: (_ firstRow: Int, _ band: UnsafeBufferPointer<UInt8>) -> Void) throws(FFmpegPictureFailure) {
        let (width, height) = (self.width, self.height)
        let rowsPerBand = max(1, (bandRows + rowAlignment - 1) / rowAlignment) * rowAlignment
        let bytesPerRow = width * 3
        let band = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: rowsPerBand * bytesPerRow + Self.destinationPaddingBytes)
        defer { band.deallocate() }
        guard let bandStart = band.baseAddress else { return }
        var converter: PixelConverter?
        for firstRow in stride(from: 0, to: height, by: rowsPerBand) {
            let rows = min(rowsPerBand, height - firstRow)
            if converter?.rows != rows {
                converter = try PixelConverter(from: frame, rows: rows, to: AV_PIX_FMT_RGB24)
            }
            try converter?.convert(planes: sourcePlanes(fromRow: firstRow), into: bandStart, bytesPerRow: bytesPerRow)
            consume(firstRow, UnsafeBufferPointer(start: bandStart, count: rows * bytesPerRow))
        }
    }

    /// The frame's plane pointers and strides, moved down to `row` (chroma planes by their
    /// subsampled row; a palette is not a plane and stays put).
    private func sourcePlanes(fromRow row: Int) -> PixelConverter.SourcePlanes {
        var pointers = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafePointer<UInt8>?.self)) }
        let strides = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
        guard row > 0, let descriptor = av_pix_fmt_desc_get(pixelFormat) else { return .init(pointers: pointers, strides: strides) }
        let hasPalette = descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
        let chromaShift = Int(descriptor.pointee.log2_chroma_h)
        for plane in pointers.indices where pointers[plane] != nil {
            if hasPalette && plane == 1 { continue }
            let planeRow = plane == 1 || plane == 2 ? row >> chromaShift : row
            pointers[plane] = pointers[plane].map { $0 + planeRow * Int(strides[plane]) }
        }
        return .init(pointers: pointers, strides: strides)
    }

    /// The samples of a 16-bit one-channel picture (a depth PNG decodes to gray16be), in the
    /// machine's byte order, rows top to bottom; nil for any other pixel format.
    func grayscale16Samples() -> [UInt16]? {
        let bigEndian: Bool
        switch pixelFormat {
        case AV_PIX_FMT_GRAY16BE: bigEndian = true
        case AV_PIX_FMT_GRAY16LE: bigEndian = false
        default: return nil
        }
        guard let plane = frame.pointee.data.0 else { return nil }
        let (width, height) = (self.width, self.height)
        let bytesPerRow = Int(frame.pointee.linesize.0)
        return [UInt16](unsafeUninitializedCapacity: width * height) { samples, count in
            for row in 0..<height {
                let source = UnsafeRawPointer(plane + row * bytesPerRow)
                for column in 0..<width {
                    let stored = source.loadUnaligned(fromByteOffset: column * 2, as: UInt16.self)
                    samples[row * width + column] = bigEndian ? UInt16(bigEndian: stored) : UInt16(littleEndian: stored)
                }
            }
            count = width * height
        }
    }

    /// What kind of picture this is, in words for an error message ("an 8-bit colour picture").
    var pixelFormatInWords: String {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat) else { return "a picture of an unknown kind" }
        let bits = Int(descriptor.pointee.comp.0.depth)
        let flags = descriptor.pointee.flags
        let isColour = descriptor.pointee.nb_components >= 3 || flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
        let hasAlpha = flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        // "an 8-bit", "an 11-bit", "an 18-bit", but "a 10-bit", "a 16-bit": the article follows the sound.
        let article = bits == 8 || bits == 11 || bits == 18 || (80...89).contains(bits) ? "an" : "a"
        return "\(article) \(bits)-bit \(isColour ? "colour" : "grey") picture\(hasAlpha ? " with transparency" : "")"
    }
}

/// The demuxer, decoder and packet of one file, alive while its first picture is decoded.
private final class DecodingSession {
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var streamIndex: Int32 = -1

    init(path: String) throws(FFmpegPictureFailure) {
        // The image2 demuxer, chosen for unrecognised content by file extension, would read a
        // name with "%d" in it as a numbered sequence; "none" makes it take the name literally.
        var options: OpaquePointer?
        av_dict_set(&options, "pattern_type", "none", 0)
        defer { av_dict_free(&options) }
        // "file:" keeps a colon in the name from being read as a protocol ("photo:1.jpg").
        let openStatus = avformat_open_input(&formatContext, "file:" + path, nil, &options)
        guard openStatus >= 0, let formatContext else {
            throw Self.failure(openingWith: openStatus)
        }
        // Image demuxers create their one stream while reading the header. Only formats without a
        // header need a look at the data (which for images would decode the picture twice).
        if formatContext.pointee.nb_streams == 0 {
            let status = avformat_find_stream_info(formatContext, nil)
            guard status >= 0 else { throw Self.failure(decodingWith: status, isKnownFormat: false) }
        }
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(formatContext, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        if index == FFmpegErrorCode.streamNotFound { throw .noPictureStream }
        if index == FFmpegErrorCode.decoderNotFound { throw .noDecoder }
        guard index >= 0, let decoder, let stream = formatContext.pointee.streams[Int(index)] else {
            throw Self.failure(decodingWith: index, isKnownFormat: false)
        }
        streamIndex = index
        guard let codecContext = avcodec_alloc_context3(decoder) else { throw .ffmpeg(code: -ENOMEM, description: "out of memory") }
        self.codecContext = codecContext
        let copyStatus = avcodec_parameters_to_context(codecContext, stream.pointee.codecpar)
        guard copyStatus >= 0 else { throw Self.failure(decodingWith: copyStatus, isKnownFormat: false) }
        // Without "explode" FFmpeg 5.1's JPEG decoder fills a cut-short file's missing rows with
        // grey and reports success; with it, damaged data is an error we can tell the user about.
        // Only for JPEG: the PNG, WebP and BMP decoders already fail on cut-short data, and the TIFF
        // decoder would reject every file with a tag it merely does not know (even its own output).
        if codecContext.pointee.codec_id == AV_CODEC_ID_MJPEG {
            codecContext.pointee.err_recognition |= AV_EF_EXPLODE
        }
        // For formats whose header `PictureSize` does not read: FFmpeg refuses to allocate more.
        codecContext.pointee.max_pixels = Int64(PictureSize.maximumPixels)
        let openCodecStatus = avcodec_open2(codecContext, decoder, nil)
        guard openCodecStatus >= 0 else { throw Self.failure(decodingWith: openCodecStatus, isKnownFormat: false) }
        guard let packet = av_packet_alloc() else { throw .ffmpeg(code: -ENOMEM, description: "out of memory") }
        self.packet = packet
    }

    deinit {
        av_packet_free(&packet)
        avcodec_free_context(&codecContext)
        avformat_close_input(&formatContext)
    }

    func decodeFirstPicture() throws(FFmpegPictureFailure) -> FFmpegPicture {
        guard let formatContext, let codecContext, let packet else { throw .noPictureStream }
        let picture = try FFmpegPicture()
        // Whether the bytes are surely this format, so that a failure means damage rather than a
        // file of another kind: the demuxer recognised the content itself (a file name's
        // extension alone scores AVPROBE_SCORE_EXTENSION), or the decoder got as far as the size.
        let recognisedByContent = formatContext.pointee.probe_score > AVPROBE_SCORE_EXTENSION
        var isKnownFormat: Bool { recognisedByContent || codecContext.pointee.width > 0 }
        var endOfInput = false
        while true {
            let receiveStatus = avcodec_receive_frame(codecContext, picture.frame)
            if receiveStatus >= 0 {
                guard picture.width > 0, picture.height > 0 else { throw .damagedData }
                return picture
            }
            guard receiveStatus == FFmpegErrorCode.tryAgain, !endOfInput else {
                // The decoder is drained (the file ended before one whole picture came out) or failed.
                throw Self.failure(decodingWith: receiveStatus, isKnownFormat: isKnownFormat)
            }
            let readStatus = av_read_frame(formatContext, packet)
            let sendStatus: Int32
            if readStatus == FFmpegErrorCode.endOfFile {
                endOfInput = true
                sendStatus = avcodec_send_packet(codecContext, nil)   // asks for what the decoder still holds
            } else if readStatus < 0 {
                throw Self.failure(decodingWith: readStatus, isKnownFormat: isKnownFormat)
            } else if packet.pointee.stream_index != streamIndex {
                av_packet_unref(packet)
                continue
            } else {
                sendStatus = avcodec_send_packet(codecContext, packet)
                av_packet_unref(packet)
            }
            if sendStatus < 0 && sendStatus != FFmpegErrorCode.endOfFile {
                throw Self.failure(decodingWith: sendStatus, isKnownFormat: isKnownFormat)
            }
        }
    }

    private static func failure(openingWith status: Int32) -> FFmpegPictureFailure {
        if status == FFmpegErrorCode.invalidData || status == FFmpegErrorCode.demuxerNotFound { return .noPictureStream }
        if status < 0 && -status < 4096 { return .cannotOpen(errno: -status) }
        return .ffmpeg(code: status, description: FFmpegErrorCode.describe(status))
    }

    /// `isKnownFormat`: whether the data was known to be this kind of picture when it failed. Data
    /// that fails before that is not this kind of picture at all; data that fails after is damaged.
    private static func failure(decodingWith status: Int32, isKnownFormat: Bool) -> FFmpegPictureFailure {
        // EINVAL is how decoders refuse impossible header values (a size FFmpeg will not allocate).
        if status == FFmpegErrorCode.invalidData || status == FFmpegErrorCode.endOfFile
            || status == FFmpegErrorCode.tryAgain || status == -EINVAL {
            return isKnownFormat ? .damagedData : .unrecognisedData
        }
        if status == -EIO { return .cannotOpen(errno: EIO) }
        return .ffmpeg(code: status, description: FFmpegErrorCode.describe(status))
    }
}

/// A libswscale context converting pictures (or bands of rows) of one size and format to
/// another pixel format of the same size. Owns the `SwsContext`.
final class PixelConverter {
    struct SourcePlanes {
        var pointers: [UnsafePointer<UInt8>?]
        var strides: [Int32]
    }

    private let context: OpaquePointer
    let rows: Int
    /// What the converter was made for, so a video decoder can reuse it while its frames match.
    let sourceWidth: Int32
    let sourceFormat: Int32
    let sourceColourSpace: AVColorSpace
    let sourceRange: AVColorRange
    let destinationWidth: Int
    let destinationRows: Int

    /// A converter for `rows` rows of `frame`'s width, format and colour space, to the same size
    /// or, when given, to `destinationWidth` × `destinationRows`.
    init(from frame: UnsafeMutablePointer<AVFrame>, rows: Int, to destinationFormat: AVPixelFormat,
         destinationWidth: Int? = nil, destinationRows: Int? = nil) throws(FFmpegPictureFailure) {
        let width = frame.pointee.width
        let outputWidth = destinationWidth ?? Int(width), outputRows = destinationRows ?? rows
        let scales = outputWidth != Int(width) || outputRows != rows
        // Bicubic is what the ffmpeg tool uses; at equal sizes it only affects chroma upsampling.
        // Scaling a video frame down (battery saver) uses bilinear, three times cheaper here.
        guard let context = sws_getContext(width, Int32(rows), AVPixelFormat(rawValue: frame.pointee.format),
                                           Int32(outputWidth), Int32(outputRows), destinationFormat,
                                           scales ? SWS_BILINEAR : SWS_BICUBIC, nil, nil, nil) else {
            throw .ffmpeg(code: -EINVAL, description: "swscale cannot convert this pixel format")
        }
        self.context = context
        self.rows = rows
        self.sourceWidth = width
        self.sourceFormat = frame.pointee.format
        self.sourceColourSpace = frame.pointee.colorspace
        self.sourceRange = frame.pointee.color_range
        self.destinationWidth = outputWidth
        self.destinationRows = outputRows
        applySourceColourSpace(of: frame)
    }

    /// Whether this converter turns whole pictures like `frame` into `width` × `height`.
    func converts(_ frame: UnsafeMutablePointer<AVFrame>, toWidth width: Int, height: Int) -> Bool {
        sourceWidth == frame.pointee.width && rows == Int(frame.pointee.height) && sourceFormat == frame.pointee.format
            && sourceColourSpace == frame.pointee.colorspace && sourceRange == frame.pointee.color_range
            && destinationWidth == width && destinationRows == height
    }

    deinit { sws_freeContext(context) }

    /// YUV pictures say which matrix (BT.601, BT.709…) and range (video 16–235 or full 0–255)
    /// their colours use; swscale assumes BT.601 video range unless told, which is right for
    /// most JPEGs (their yuvj formats imply full range) but not for every decoder's output.
    private func applySourceColourSpace(of frame: UnsafeMutablePointer<AVFrame>) {
        var inverseTable: UnsafeMutablePointer<Int32>?
        var table: UnsafeMutablePointer<Int32>?
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0
        var brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(context, &inverseTable, &sourceRange, &table, &destinationRange,
                                       &brightness, &contrast, &saturation) >= 0 else { return }
        let colourSpace = frame.pointee.colorspace
        let coefficients: UnsafePointer<Int32>?
        if colourSpace == AVCOL_SPC_UNSPECIFIED || colourSpace == AVCOL_SPC_RGB {
            coefficients = inverseTable.map { UnsafePointer($0) }
        } else {
            coefficients = sws_getCoefficients(Int32(colourSpace.rawValue))
        }
        if frame.pointee.color_range == AVCOL_RANGE_JPEG { sourceRange = 1 }
        guard let coefficients, let table else { return }
        _ = sws_setColorspaceDetails(context, coefficients, sourceRange, table, destinationRange,
                                     brightness, contrast, saturation)
    }

    /// Converts `rows` rows starting at `source` into `destination` (packed, one plane).
    func convert(planes source: SourcePlanes, into destination: UnsafeMutablePointer<UInt8>,
                 bytesPerRow: Int) throws(FFmpegPictureFailure) {
        let destinationPlanes: [UnsafeMutablePointer<UInt8>?] = [destination, nil, nil, nil]
        let destinationStrides: [Int32] = [Int32(bytesPerRow), 0, 0, 0]
        let converted = sws_scale(context, source.pointers, source.strides, 0, Int32(rows),
                                  destinationPlanes, destinationStrides)
        guard converted == destinationRows else {
            throw .ffmpeg(code: converted < 0 ? converted : -EINVAL,
                          description: "swscale converted \(converted) of \(destinationRows) rows")
        }
    }
}
