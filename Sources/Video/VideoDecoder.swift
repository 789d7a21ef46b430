import CFFmpeg
import Foundation

/// One decoded picture: 8-bit 4:2:0 planes as FFmpeg's frame holds them (or as libswscale converted
/// them from another format), valid while this object lives.
///
/// `@unchecked Sendable`: the frame pointers are set in `init` and freed in `deinit`; in between the
/// frames are only read.
final class DecodedPicture: @unchecked Sendable {
    /// The frame (owned: freed with this object).
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// The frame converted to 8-bit 4:2:0 when FFmpeg's was in another format (owned).
    private var converted: UnsafeMutablePointer<AVFrame>?
    /// Presentation time, seconds from the stream's start.
    let timeSeconds: Double
    let width: Int, height: Int
    /// Whether the samples are full range (JPEG's 0…255; else 16…235 luma).
    let isFullRange: Bool
    /// The matrix the YCbCr was made with.
    let matrix: YCbCrMatrix

    init(frame: UnsafeMutablePointer<AVFrame>, converted: UnsafeMutablePointer<AVFrame>?, timeSeconds: Double, fullRange: Bool,
         matrix: YCbCrMatrix) {
        self.frame = frame
        self.converted = converted
        self.timeSeconds = timeSeconds
        width = Int(frame.pointee.width)
        height = Int(frame.pointee.height)
        isFullRange = fullRange
        self.matrix = matrix
    }

    deinit {
        av_frame_free(&frame)
        if converted != nil { av_frame_free(&converted) }
    }

    /// Plane `k` (0 luma, 1 Cb, 2 Cr): its base address and bytes per row.
    func plane(_ k: Int) -> (UnsafePointer<UInt8>, Int) {
        let f = (converted ?? frame)!.pointee
        let data: UnsafeMutablePointer<UInt8>?
        let stride: Int32
        switch k {
        case 0: (data, stride) = (f.data.0, f.linesize.0)
        case 1: (data, stride) = (f.data.1, f.linesize.1)
        default: (data, stride) = (f.data.2, f.linesize.2)
        }
        return (UnsafePointer(data!), Int(stride))
    }
}

/// The YCbCr matrix of a video (JPEG's is BT.601).
public enum YCbCrMatrix: String, Sendable {
    case bt601, bt709, bt2020

    /// Kr and Kb.
    var coefficients: (kr: Double, kb: Double) {
        switch self {
        case .bt601: (0.299, 0.114)
        case .bt709: (0.2126, 0.0722)
        case .bt2020: (0.2627, 0.0593)
        }
    }
}

/// A stream of a file as FFmpeg sees it.
public struct VideoStreamInfo: Sendable, Hashable, Encodable {
    /// FFmpeg's stream index (`0:4`).
    public var index: Int
    /// `video`, `audio`, `data`, `subtitle`, `attachment`.
    public var type: String
    /// The codec (`hevc`, `h264`, `aac`) or the tag for data (`gpmd`, `camm`, `tmcd`).
    public var codec: String
    /// Video size, pixels (0 otherwise).
    public var width: Int, height: Int
    /// Average frame rate of a video stream (0 when unknown).
    public var framesPerSecond: Double
    /// Pixel format of a video stream (`yuvj420p`, `yuv420p10le`).
    public var pixelFormat: String?
    /// Frames in the stream when the container says (0 when unknown).
    public var frameCount: Int
}

/// Decodes video streams with FFmpeg's libavformat and libavcodec, frame after frame (no process per
/// frame): one or two streams (the GoPro MAX's), delivered as time-matched sets.
final class VideoDecoder {
    let path: String
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var decoders: [UnsafeMutablePointer<AVCodecContext>?] = []
    private var streamIndices: [Int32]
    private var timeBases: [Double]
    private var startTimes: [Double]
    private var queues: [[DecodedPicture]]
    private var scalers: [OpaquePointer?]
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var endOfFile = false
    private var flushed: [Bool]

    /// The streams of a file without decoding anything.
    static func streams(of path: String) throws(VideoError) -> [VideoStreamInfo] {
        av_log_set_level(AV_LOG_QUIET)
        var context: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&context, path, nil, nil)
        guard opened >= 0, let context else { throw .decodeFailed(path: path, detail: Self.message(opened)) }
        defer { var c: UnsafeMutablePointer<AVFormatContext>? = context; avformat_close_input(&c) }
        let found = avformat_find_stream_info(context, nil)
        guard found >= 0 else { throw .decodeFailed(path: path, detail: Self.message(found)) }
        return (0..<Int(context.pointee.nb_streams)).map { i in
            let stream = context.pointee.streams[i]!.pointee
            let parameters = stream.codecpar.pointee
            let type: String
            switch parameters.codec_type {
            case AVMEDIA_TYPE_VIDEO: type = "video"
            case AVMEDIA_TYPE_AUDIO: type = "audio"
            case AVMEDIA_TYPE_SUBTITLE: type = "subtitle"
            case AVMEDIA_TYPE_ATTACHMENT: type = "attachment"
            default: type = "data"
            }
            var codec = String(cString: avcodec_get_name(parameters.codec_id))
            if parameters.codec_id == AV_CODEC_ID_NONE || codec == "none" || codec == "bin_data" {
                let tag = parameters.codec_tag
                codec = String(decoding: [UInt8(tag & 0xFF), UInt8(tag >> 8 & 0xFF), UInt8(tag >> 16 & 0xFF), UInt8(tag >> 24 & 0xFF)], as: UTF8.self)
            }
            let rate = stream.avg_frame_rate.den > 0 ? Double(stream.avg_frame_rate.num) / Double(stream.avg_frame_rate.den) : 0
            let pixel = type == "video" ? av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) } : nil
            return VideoStreamInfo(index: i, type: type, codec: codec, width: Int(parameters.width), height: Int(parameters.height),
                                   framesPerSecond: rate, pixelFormat: pixel, frameCount: Int(stream.nb_frames))
        }
    }

    /// Opens `path` and decoders for the video streams `indices` (FFmpeg's numbering), each with `threads`
    /// decoding threads (0: FFmpeg's choice).
    init(path: String, streams indices: [Int], threads: Int = 0) throws(VideoError) {
        self.path = path
        av_log_set_level(AV_LOG_QUIET)
        var context: UnsafeMutablePointer<AVFormatContext>?
        let opened = avformat_open_input(&context, path, nil, nil)
        guard opened >= 0, let context else { throw .decodeFailed(path: path, detail: Self.message(opened)) }
        format = context
        streamIndices = indices.map(Int32.init)
        timeBases = []
        startTimes = []
        queues = Array(repeating: [], count: indices.count)
        scalers = Array(repeating: nil, count: indices.count)
        flushed = Array(repeating: false, count: indices.count)
        let found = avformat_find_stream_info(context, nil)
        guard found >= 0 else { close(); throw .decodeFailed(path: path, detail: Self.message(found)) }
        let count = Int(context.pointee.nb_streams)
        for i in 0..<count where !indices.contains(i) { context.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL }
        for index in indices {
            guard index >= 0, index < count else { close(); throw .decodeFailed(path: path, detail: "it has no stream \(index)") }
            let stream = context.pointee.streams[index]!
            let parameters = stream.pointee.codecpar!
            guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
                let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
                close()
                throw .decodeFailed(path: path, detail: "this FFmpeg has no decoder for \(name) (stream \(index))")
            }
            guard let decoder = avcodec_alloc_context3(codec) else { close(); throw .decodeFailed(path: path, detail: "out of memory") }
            decoders.append(decoder)
            var status = avcodec_parameters_to_context(decoder, parameters)
            decoder.pointee.thread_count = Int32(threads)
            decoder.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            if status >= 0 { status = avcodec_open2(decoder, codec, nil) }
            guard status >= 0 else { close(); throw .decodeFailed(path: path, detail: Self.message(status)) }
            let base = stream.pointee.time_base
            timeBases.append(base.den > 0 ? Double(base.num) / Double(base.den) : 0)
            let start = stream.pointee.start_time
            startTimes.append(start == Int64(bitPattern: 0x8000_0000_0000_0000) ? 0 : Double(start) * timeBases.last!)
        }
        packet = av_packet_alloc()
    }

    deinit { close() }

    private func close() {
        queues = Array(repeating: [], count: queues.count)
        for k in decoders.indices { avcodec_free_context(&decoders[k]) }
        decoders = []
        for s in scalers where s != nil { sws_freeContext(s) }
        scalers = []
        if packet != nil { av_packet_free(&packet) }
        if format != nil { avformat_close_input(&format) }
    }

    /// The next set of pictures, one per stream, at the same time (within half a frame); nil at the end.
    /// A stream that runs ahead has its earlier pictures dropped until they match.
    func next() throws(VideoError) -> [DecodedPicture]? {
        while true {
            if queues.allSatisfy({ !$0.isEmpty }) {
                let times = queues.map { $0[0].timeSeconds }
                let latest = times.max()!
                let tolerance = 0.02
                if times.allSatisfy({ latest - $0 <= tolerance }) {
                    return queues.indices.map { queues[$0].removeFirst() }
                }
                for k in queues.indices where latest - times[k] > tolerance { queues[k].removeFirst() }
                continue
            }
            if endOfFile && flushed.allSatisfy({ $0 }) { return nil }
            try readMore()
        }
    }

    /// Reads one packet and decodes what it completes (at the end: flushes the decoders).
    private func readMore() throws(VideoError) {
        guard let format, let packet else { return }
        if !endOfFile {
            let status = av_read_frame(format, packet)
            if status < 0 {
                endOfFile = true
                for k in decoders.indices { avcodec_send_packet(decoders[k], nil) }
            } else {
                defer { av_packet_unref(packet) }
                guard let k = streamIndices.firstIndex(of: packet.pointee.stream_index) else { return }
                let sent = avcodec_send_packet(decoders[k], packet)
                if sent < 0 && sent != lookaround_averror_again() && sent != lookaround_averror_eof() {
                    throw .decodeFailed(path: path, detail: "stream \(streamIndices[k]): " + Self.message(sent))
                }
            }
        }
        for k in decoders.indices where !flushed[k] {
            while true {
                var allocated: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
                guard let frame = allocated else { throw .decodeFailed(path: path, detail: "out of memory") }
                let received = avcodec_receive_frame(decoders[k], frame)
                if received < 0 {
                    av_frame_free(&allocated)
                    if received == lookaround_averror_eof() { flushed[k] = true }
                    else if received != lookaround_averror_again() {
                        throw .decodeFailed(path: path, detail: "stream \(streamIndices[k]): " + Self.message(received))
                    }
                    break
                }
                let timestamp = frame.pointee.best_effort_timestamp != Int64(bitPattern: 0x8000_0000_0000_0000)
                    ? frame.pointee.best_effort_timestamp : frame.pointee.pts
                let time = Double(timestamp) * timeBases[k] - startTimes[k]
                queues[k].append(try picture(frame, stream: k, time: time))
            }
        }
    }

    /// Wraps a frame, converting it to 8-bit 4:2:0 when it is in another format.
    private func picture(_ frame: UnsafeMutablePointer<AVFrame>, stream k: Int, time: Double) throws(VideoError) -> DecodedPicture {
        let f = frame.pointee
        let pixel = AVPixelFormat(rawValue: f.format)
        let fullRange = f.color_range == AVCOL_RANGE_JPEG || pixel == AV_PIX_FMT_YUVJ420P
        let matrix: YCbCrMatrix
        switch f.colorspace {
        case AVCOL_SPC_BT709: matrix = .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = .bt2020
        default: matrix = .bt601
        }
        if pixel == AV_PIX_FMT_YUV420P || pixel == AV_PIX_FMT_YUVJ420P {
            return DecodedPicture(frame: frame, converted: nil, timeSeconds: time, fullRange: fullRange, matrix: matrix)
        }
        // Another layout (10-bit, NV12, 4:2:2…): libswscale to 8-bit 4:2:0, same range and matrix.
        scalers[k] = sws_getCachedContext(scalers[k], f.width, f.height, pixel, f.width, f.height, AV_PIX_FMT_YUV420P,
                                          SWS_BILINEAR, nil, nil, nil)
        var allocated: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
        guard let scaler = scalers[k], let converted = allocated else {
            av_frame_free(&allocated)
            var frame: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&frame)
            throw .decodeFailed(path: path, detail: "cannot convert pixel format \(av_get_pix_fmt_name(pixel).map { String(cString: $0) } ?? "\(f.format)")")
        }
        converted.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        converted.pointee.width = f.width
        converted.pointee.height = f.height
        guard av_frame_get_buffer(converted, 32) >= 0 else {
            av_frame_free(&allocated)
            var frame: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&frame)
            throw .decodeFailed(path: path, detail: "out of memory")
        }
        // Keep the source's range through the conversion (the colour fix-up happens later, once).
        var inverse: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var srcRange: Int32 = 0, dstRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        if sws_getColorspaceDetails(scaler, &inverse, &srcRange, &table, &dstRange, &brightness, &contrast, &saturation) >= 0 {
            let range: Int32 = fullRange ? 1 : 0
            sws_setColorspaceDetails(scaler, inverse, range, table, range, brightness, contrast, saturation)
        }
        withUnsafePointer(to: f.data) { source in
            withUnsafePointer(to: f.linesize) { sourceStride in
                withUnsafeMutablePointer(to: &converted.pointee.data) { destination in
                    withUnsafePointer(to: converted.pointee.linesize) { destinationStride in
                        source.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { s in
                            destination.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { d in
                                sourceStride.withMemoryRebound(to: Int32.self, capacity: 8) { ss in
                                    destinationStride.withMemoryRebound(to: Int32.self, capacity: 8) { ds in
                                        _ = sws_scale(scaler, s, ss, 0, f.height, d, ds)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return DecodedPicture(frame: frame, converted: converted, timeSeconds: time, fullRange: fullRange, matrix: matrix)
    }

    /// FFmpeg's words for an error code.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
