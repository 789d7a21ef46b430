import Dispatch
import Foundation
import Imaging
import Parallelism
import Reprojection
import Storage
import Synchronization

/// Decodes a recording and writes its planned frames as geotagged equirectangular JPEGs.
///
/// Per frame: FFmpeg decodes (both streams of a GoPro MAX), the MAX's strips are rebuilt into the cube
/// (``GoProMaxLayout``) and reprojected to equirectangular through precomputed maps
/// (``Reprojection/EquiAngularCubemap``, ``Reprojection/PlaneRemap``), all in YCbCr 4:2:0 as decoded; the
/// colours are put into JPEG's range and matrix; then the frame is compressed from its planes with
/// EXIF (GPS, time, direction, camera) and GPano XMP and written atomically. Compression and writing run on
/// another thread while the next frame is decoded; at most ``framesInFlight`` frames wait.
public enum FrameExtractor {
    /// How frames are made.
    public struct Options: Sendable {
        /// Equirectangular width of frames from a GoPro MAX (the height is half), pixels; nil: 4 × the cube's
        /// face (5376 at 5.6K, as GoPro's own export). Equirectangular videos keep their size.
        public var frameWidth: Int?
        /// JPEG quality 1…100.
        public var quality: Int
        /// Upper bound on threads for the reprojection (nil: all cores).
        public var maximumThreads: Int?

        public init(frameWidth: Int? = nil, quality: Int = 90, maximumThreads: Int? = nil) {
            self.frameWidth = frameWidth
            self.quality = quality
            self.maximumThreads = maximumThreads
        }
    }

    /// Progress: video frames decoded of those to decode, frames written of those planned.
    public struct Progress: Sendable {
        public var decoded: Int, toDecode: Int, written: Int, planned: Int
    }

    /// A frame written.
    public struct Written: Sendable {
        /// Its file.
        public var path: String
        /// Where and when, as decoded (the plan's frame moved to the picture's own time).
        public var frame: PlannedFrame
    }

    /// At most this many frames wait for compression.
    public static let framesInFlight = 2
    /// The allowed frame widths of a reprojected recording, pixels.
    public static let frameWidthRange = 256...16384

    /// Writes the frames of `plan` to `path(k)` (k: the frame's index in the plan): a file path, or an
    /// `s3://BUCKET/KEY` written through the Storage module (one `PUT` each).
    /// - Throws: `VideoError` (decoding, a frame that cannot be written); frames written before stay.
    public static func extract(_ recording: VideoRecording, plan: SamplingPlan, options: Options = Options(),
                               path: (Int) -> String, progress: (@Sendable (Progress) -> Void)? = nil) throws(VideoError) -> [Written] {
        guard recording.projection.makesPanoramas else {
            throw .notPanoramic(path: recording.path, reason: refusal(recording))
        }
        guard (1...100).contains(options.quality) else {
            throw .invalidParameter(name: "JPEG quality", value: "\(options.quality)", allowed: "1…100")
        }
        let geometry: FrameGeometry
        if recording.projection == .goproMaxEAC, let layout = recording.layout {
            let width = options.frameWidth ?? 4 * layout.faceSize
            guard frameWidthRange.contains(width), width % 4 == 0 else {
                throw .invalidParameter(name: "--frame-width", value: "\(width)", allowed: "\(frameWidthRange.lowerBound)…\(frameWidthRange.upperBound), a multiple of 4")
            }
            geometry = .cube(layout, FrameGeometry.maps(faceSize: layout.faceSize, width: width, maximumThreads: options.maximumThreads))
        } else {
            geometry = .equirectangular
        }
        let fps = recording.framesPerSecond > 0 ? recording.framesPerSecond : 30
        let frames = plan.frames
        guard !frames.isEmpty else { return [] }
        let lastTime = frames.last!.timeSeconds
        let toDecode = Int((min(lastTime, recording.durationSeconds) * fps).rounded()) + 1
        let queue = DispatchQueue(label: "lookaround.video.encode")
        let slots = DispatchSemaphore(value: framesInFlight)
        let group = DispatchGroup()
        let failure = Mutex<VideoError?>(nil)
        let written = Mutex<[Written]>([])
        let counts = Mutex((decoded: 0, written: 0))
        let halfFrame = 0.5 / fps
        var next = 0
        for chapter in recording.chapters {
            let chapterEnd = chapter.startSeconds + chapter.durationSeconds
            guard next < frames.count, frames[next].timeSeconds <= chapterEnd + halfFrame else { continue }
            let decoder = try VideoDecoder(path: chapter.path, streams: recording.decodedStreams, threads: 0)
            while next < frames.count, frames[next].timeSeconds <= chapterEnd + halfFrame {
                if let error = failure.withLock({ $0 }) { throw error }
                guard let pictures = try decoder.next() else { break }
                let decodedCount = counts.withLock { $0.decoded += 1; return $0.decoded }
                if decodedCount % 8 == 0 {
                    let c = counts.withLock { $0 }
                    progress?(Progress(decoded: c.decoded, toDecode: max(toDecode, c.decoded), written: c.written, planned: frames.count))
                }
                let t = chapter.startSeconds + pictures[0].timeSeconds
                guard t >= frames[next].timeSeconds - halfFrame else { continue }
                let index = next
                // Several planned frames may fall on this picture (a spacing shorter than a frame's travel): one is kept.
                while next < frames.count, frames[next].timeSeconds < t + halfFrame { next += 1 }
                var image = try picture(pictures, geometry: geometry, maximumThreads: options.maximumThreads)
                YCbCrConversion(fullRange: pictures[0].isFullRange, matrix: pictures[0].matrix).apply(to: &image, maximumThreads: options.maximumThreads)
                let frame = plan.placed(frames[index], at: t, start: recording.captureStartUTC)
                let metadata = Self.metadata(for: frame, recording: recording, width: image.width, height: image.height)
                let destination = path(index)
                slots.wait()
                let pending = image
                queue.async(group: group) {
                    defer { slots.signal() }
                    do {
                        let jpeg = try JPEGCodec.encode(pending, quality: options.quality, metadata: metadata)
                        if StorageLocation.isObjectStorage(destination) {
                            try ObjectStorage.shared.write(jpeg, to: destination, contentType: "image/jpeg")
                        } else {
                            try WriteFailure.writeAtomically(jpeg, to: destination)
                        }
                        written.withLock { $0.append(Written(path: destination, frame: frame)) }
                        counts.withLock { $0.written += 1 }
                    } catch let error as WriteFailure {
                        failure.withLock { if $0 == nil { $0 = .cannotWrite(error) } }
                    } catch let error as StorageError {
                        failure.withLock { if $0 == nil { $0 = .storageFailed(error) } }
                    } catch {
                        failure.withLock { if $0 == nil { $0 = .decodeFailed(path: destination, detail: "\(error)") } }
                    }
                }
            }
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        let c = counts.withLock { $0 }
        progress?(Progress(decoded: max(c.decoded, toDecode), toDecode: max(toDecode, c.decoded), written: c.written, planned: frames.count))
        return written.withLock { $0 }.sorted { $0.frame.timeSeconds < $1.frame.timeSeconds }
    }

    /// Builds (and keeps for this process) what frames of `recording` need before the first one: the
    /// maps from the GoPro MAX cube to equirectangular (about a second at 5.6K). ``extract(_:plan:options:path:progress:)``
    /// does it when needed; this lets a caller do it ahead (benchmarks time frames, not set-up).
    public static func prepare(_ recording: VideoRecording, options: Options = Options()) {
        guard recording.projection == .goproMaxEAC, let layout = recording.layout else { return }
        _ = FrameGeometry.maps(faceSize: layout.faceSize, width: options.frameWidth ?? 4 * layout.faceSize, maximumThreads: options.maximumThreads)
    }

    /// Why a recording gives no panoramas, and what would.
    public static func refusal(_ recording: VideoRecording) -> String {
        switch recording.projection {
        case .dualFisheye:
            return "an Insta360 .insv holds two fisheye pictures, which are not stitched here: export it from Insta360 Studio "
                + "as a 360° equirectangular MP4 (\"360 Video\" export) and put it beside the .insv with the same name "
                + "(\(FilePath.name(of: (recording.path as NSString).deletingPathExtension)).mp4): its GPS is taken from the .insv"
        case .flat:
            return "a flat (not 360°) video: \(recording.projectionReason); its frames cannot be panoramas "
                + "('lookaround video info' still reads its GPS track"
                + (recording.width == 2 * recording.height ? "; --projection equirectangular if it is an equirectangular video without metadata)" : ")")
        default:
            return "cannot make panoramas of it"
        }
    }

    // MARK: Pictures

    /// How decoded pictures become equirectangular ones.
    enum FrameGeometry {
        case equirectangular
        case cube(GoProMaxLayout, (luma: PlaneRemap, chroma: PlaneRemap))

        /// The maps of a cube of `faceSize` to an equirectangular `width × width/2`, built once per process and size.
        static func maps(faceSize: Int, width: Int, maximumThreads: Int?) -> (luma: PlaneRemap, chroma: PlaneRemap) {
            let key = "\(faceSize)x\(width)"
            if let cached = mapCache.withLock({ $0[key] }) { return cached }
            let luma = EquiAngularCubemap(faceSize: faceSize).equirectangularRemap(outputWidth: width, outputHeight: width / 2,
                                                                                   maximumThreads: maximumThreads)
            let chroma = EquiAngularCubemap(faceSize: faceSize / 2).equirectangularRemap(outputWidth: width / 2, outputHeight: width / 4,
                                                                                         maximumThreads: maximumThreads)
            mapCache.withLock { cache in
                if cache.count >= 2 { cache.removeAll() }   // 100 MB each at 5.6K: keep the last two sizes
                cache[key] = (luma, chroma)
            }
            return (luma, chroma)
        }
    }

    static let mapCache = Mutex<[String: (luma: PlaneRemap, chroma: PlaneRemap)]>([:])

    /// The equirectangular picture of one decoded set (one picture, or the MAX's two strips).
    static func picture(_ pictures: [DecodedPicture], geometry: FrameGeometry, maximumThreads: Int?) throws(VideoError) -> YCbCr420Image {
        switch geometry {
        case .equirectangular:
            let p = pictures[0]
            var image = YCbCr420Image(unfilledWidth: p.width, height: p.height)
            let cw = image.chromaWidth, ch = image.chromaHeight
            func copy(_ plane: Int, _ width: Int, _ height: Int, into out: inout [UInt8]) {
                let (source, stride) = p.plane(plane)
                out.withUnsafeMutableBufferPointer { o in
                    for y in 0..<height { (o.baseAddress! + y * width).update(from: source + y * stride, count: width) }
                }
            }
            copy(0, p.width, p.height, into: &image.luma)
            copy(1, cw, ch, into: &image.cb)
            copy(2, cw, ch, into: &image.cr)
            return image
        case .cube(let layout, let maps):
            let a = pictures[0], b = pictures[1]
            guard a.width == layout.stripWidth, a.height == layout.stripHeight, b.width == a.width, b.height == a.height else {
                throw .decodeFailed(path: "", detail: "pictures of \(a.width)x\(a.height) and \(b.width)x\(b.height), not the layout's "
                                    + "\(layout.stripWidth)x\(layout.stripHeight)")
            }
            let face = layout.faceSize
            // The cube, then the equirectangular planes.
            var cubeLuma = [UInt8](unsafeUninitializedCapacity: 6 * face * face) { _, n in n = 6 * face * face }
            var cubeCb = [UInt8](unsafeUninitializedCapacity: 6 * face * face / 4) { _, n in n = 6 * face * face / 4 }
            var cubeCr = cubeCb
            cubeLuma.withUnsafeMutableBufferPointer { layout.rebuildPlane(a: a.plane(0), b: b.plane(0), chroma: false, into: $0.baseAddress!, maximumThreads: maximumThreads) }
            cubeCb.withUnsafeMutableBufferPointer { layout.rebuildPlane(a: a.plane(1), b: b.plane(1), chroma: true, into: $0.baseAddress!, maximumThreads: maximumThreads) }
            cubeCr.withUnsafeMutableBufferPointer { layout.rebuildPlane(a: a.plane(2), b: b.plane(2), chroma: true, into: $0.baseAddress!, maximumThreads: maximumThreads) }
            var image = YCbCr420Image(unfilledWidth: maps.luma.outputWidth, height: maps.luma.outputHeight)
            cubeLuma.withUnsafeBufferPointer { s in
                image.luma.withUnsafeMutableBufferPointer { maps.luma.apply(s.baseAddress!, sourceStride: 3 * face, to: $0.baseAddress!, maximumThreads: maximumThreads) }
            }
            cubeCb.withUnsafeBufferPointer { s in
                image.cb.withUnsafeMutableBufferPointer { maps.chroma.apply(s.baseAddress!, sourceStride: 3 * face / 2, to: $0.baseAddress!, maximumThreads: maximumThreads) }
            }
            cubeCr.withUnsafeBufferPointer { s in
                image.cr.withUnsafeMutableBufferPointer { maps.chroma.apply(s.baseAddress!, sourceStride: 3 * face / 2, to: $0.baseAddress!, maximumThreads: maximumThreads) }
            }
            return image
        }
    }

    // MARK: Metadata

    /// EXIF (GPS position, altitude, time, direction; capture time in UTC; the camera) and GPano (a full
    /// equirectangular panorama facing the frame's heading, with its pitch when known) for a frame.
    public static func metadata(for frame: PlannedFrame, recording: VideoRecording, width: Int, height: Int) -> ImageMetadata {
        var metadata = ImageMetadata(latitudeDegrees: frame.latitude, longitudeDegrees: frame.longitude, altitudeMeters: frame.altitudeMeters,
                                     imageDirectionDegrees: frame.headingDegrees, gpsTimestamp: frame.captureTime,
                                     make: recording.cameraMake.flatMap(asciiOnly), model: recording.cameraModel.flatMap(asciiOnly),
                                     bodySerialNumber: recording.cameraSerial.flatMap(asciiOnly), imageWidth: width, imageHeight: height)
        if let time = frame.captureTime {
            let ms = Int64((time.timeIntervalSince1970 * 1000).rounded())
            let seconds = Date(timeIntervalSince1970: Double(ms.quotientAndRemainder(dividingBy: 1000).quotient - (ms < 0 && ms % 1000 != 0 ? 1 : 0)))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
            metadata.dateTimeOriginal = formatter.string(from: seconds)
            metadata.subSecTimeOriginal = String(format: "%03d", Int((ms % 1000 + 1000) % 1000))
            metadata.offsetTimeOriginal = "+00:00"
        }
        let software = (recording.cameraModel.flatMap(asciiOnly).map { "\($0) video" } ?? "360° video")
            + String(format: " at %.3f s, frame by lookaround", frame.timeSeconds)
        metadata.panorama = .equirectangular(width: width, height: height, headingDegrees: frame.headingDegrees ?? 0, captureSoftware: software)
        if frame.headingDegrees == nil { metadata.panorama?.poseHeadingDegrees = nil }
        if let pitch = frame.pitchDegrees { metadata.panorama?.posePitchDegrees = (pitch * 100).rounded() / 100 }
        return metadata
    }

    static func asciiOnly(_ text: String) -> String? {
        let kept = String(text.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 }.map(Character.init))
        return kept.isEmpty ? nil : kept
    }
}
