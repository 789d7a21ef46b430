import Foundation

/// What an MP4/QuickTime file says about itself, read from its `moov` box (ISO 14496-12, QuickTime
/// File Format): the tracks with their handlers, sample entries and sample tables, the movie's clock,
/// and GoPro's `udta` fields. No sample data is read here.
public struct MP4Movie: Sendable {
    /// One track.
    public struct Track: Sendable {
        /// `tkhd` track id.
        public var id: Int
        /// `hdlr` handler type: `vide`, `soun`, `meta`, `tmcd`, `camm`…
        public var handlerType: String
        /// `hdlr` name as the muxer wrote it ("GoPro MET").
        public var handlerName: String
        /// The first sample entry's format: `hvc1`, `avc1`, `gpmd`, `camm`, `mp4a`…
        public var format: String
        /// `mdhd` time scale, units per second.
        public var timescale: Int
        /// `mdhd` duration, seconds.
        public var durationSeconds: Double
        /// Visual sample entry size, pixels (0 for other tracks).
        public var width: Int, height: Int
        /// Spherical metadata of a video track (`sv3d`/`st3d`, or the `uuid` box with GSpherical XMP).
        public var spherical: SphericalMetadata?
        /// The samples in decode order.
        public var samples: [Sample]

        /// Whether this is a video track.
        public var isVideo: Bool { handlerType == "vide" }
    }

    /// One sample of a track: where its bytes are and when it plays.
    public struct Sample: Sendable, Hashable {
        /// File offset of its bytes.
        public var offset: Int64
        /// Its size in bytes.
        public var size: Int
        /// Decode time from the track's start, seconds.
        public var timeSeconds: Double
        /// Its duration, seconds.
        public var durationSeconds: Double
    }

    /// The file.
    public var path: String
    /// The file's size, bytes.
    public var fileSize: Int64
    /// `ftyp` major brand (`mp41`, `qt  `).
    public var brand: String
    /// `mvhd` duration, seconds.
    public var durationSeconds: Double
    /// `mvhd` creation time (the muxer's clock: UTC by the standard, local time on GoPro cameras); nil when 0.
    public var creationTime: Date?
    /// The tracks in file order.
    public var tracks: [Track]
    /// GoPro `udta` `FIRM`: firmware ("H19.03.01.30.00").
    public var firmware: String?
    /// GoPro `udta` `GPMF`'s `MINF`: the camera model ("GoPro Max").
    public var cameraModel: String?
    /// GoPro `udta` `GPMF`'s `CASN`: the camera serial number.
    public var cameraSerial: String?
    /// A `uuid` box with GSpherical XMP at the movie level (some muxers put it there).
    public var movieSpherical: SphericalMetadata?

    /// The largest `moov` read, bytes (a moov of an hour of 5.6K video is a few MB).
    public static let maximumMovieBoxBytes = 256 << 20
    /// The most samples one track may declare (ten hours at 240 fps); more is a damaged table.
    public static let maximumSamplesPerTrack = 10_000_000

    /// Reads the boxes of `path`.
    /// - Throws: `VideoError.fileNotFound`, `.unreadable`, `.badContainer` (not an MP4, no `moov`, a
    ///   truncated or inconsistent box or sample table).
    public init(contentsOf path: String) throws(VideoError) {
        try self.init(reader: try VideoFileReader(path: path))
    }

    init(reader: VideoFileReader) throws(VideoError) {
        path = reader.path
        fileSize = reader.size
        var offset: Int64 = 0
        var moov: [UInt8]?
        var sawFtyp = false
        brand = ""
        var movieSpherical: SphericalMetadata?
        while offset + 8 <= reader.size {
            let header = try reader.read(at: offset, count: min(16, Int(reader.size - offset)))
            var size = Int64(ByteCursor.u32(header, 0))
            let type = ByteCursor.fourCC(header, 4)
            var headerSize: Int64 = 8
            if size == 1 {
                guard header.count >= 16 else { throw .badContainer(path: path, detail: "box '\(type)' at \(offset) is cut short") }
                size = Int64(bitPattern: UInt64(ByteCursor.u32(header, 8)) << 32 | UInt64(ByteCursor.u32(header, 12)))
                headerSize = 16
            } else if size == 0 {
                size = reader.size - offset
            }
            // Past the movie, what is not a box is a trailer (Insta360 appends one): the boxes end there.
            let plausible = type.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "?") }
            if moov != nil, !plausible || size < headerSize || offset + size > reader.size { break }
            guard size >= headerSize else {
                throw .badContainer(path: path, detail: "box '\(type)' at offset \(offset) declares \(size) bytes, less than its header")
            }
            if offset == 0 {
                guard ["ftyp", "moov", "mdat", "free", "wide", "skip", "pnot", "uuid"].contains(type) else {
                    throw .badContainer(path: path, detail: "it starts with '\(type)', not an ISO/QuickTime box ('ftyp', 'moov', 'mdat')")
                }
            }
            guard offset + size <= reader.size else {
                if type == "mdat" { break }  // a recording cut off in its media data: moov, if any, came first
                throw .badContainer(path: path, detail: "box '\(type)' at offset \(offset) runs \(offset + size - reader.size) bytes past the end")
            }
            switch type {
            case "ftyp":
                sawFtyp = true
                if size >= headerSize + 4 { brand = ByteCursor.fourCC(try reader.read(at: offset + headerSize, count: 4), 0) }
            case "moov":
                guard size - headerSize <= Int64(Self.maximumMovieBoxBytes) else {
                    throw .badContainer(path: path, detail: "its moov box is \(size) bytes, over the \(Self.maximumMovieBoxBytes) this reader takes")
                }
                moov = try reader.read(at: offset + headerSize, count: Int(size - headerSize))
            case "uuid":
                let body = try reader.read(at: offset + headerSize, count: Int(min(size - headerSize, 1 << 20)))
                movieSpherical = SphericalMetadata(uuidBox: body[...]) ?? movieSpherical
            default:
                break
            }
            offset += size
        }
        guard let moov else {
            throw .badContainer(path: path, detail: sawFtyp ? "it has no 'moov' box (the recording was not finished: "
                                + "a camera that lost power leaves one; GoPro's SOS repair or untrunc can rebuild it)"
                                : "no 'moov' box")
        }
        self.movieSpherical = movieSpherical
        durationSeconds = 0
        tracks = []
        var parser = BoxParser(path: path)
        try parser.parseMovie(moov, into: &self)
    }

    /// The video tracks in file order.
    public var videoTracks: [Track] { tracks.filter(\.isVideo) }
}

/// Seconds from 1904-01-01 (the QuickTime epoch) to 1970-01-01.
let quickTimeEpochOffset: Double = 2_082_844_800

/// Walks the boxes inside `moov`.
struct BoxParser {
    let path: String

    func fail(_ detail: String) -> VideoError { .badContainer(path: path, detail: detail) }

    /// The child boxes of `bytes[start..<end]`: (type, body start, body end).
    func children(_ bytes: [UInt8], _ start: Int, _ end: Int) throws(VideoError) -> [(type: String, start: Int, end: Int)] {
        var result: [(String, Int, Int)] = []
        var i = start
        while i + 8 <= end {
            var size = Int(ByteCursor.u32(bytes, i))
            let type = ByteCursor.fourCC(bytes, i + 4)
            var header = 8
            if size == 1 {
                guard i + 16 <= end else { throw fail("box '\(type)' is cut short") }
                let large = UInt64(ByteCursor.u32(bytes, i + 8)) << 32 | UInt64(ByteCursor.u32(bytes, i + 12))
                guard large <= UInt64(end - i) else { throw fail("box '\(type)' declares \(large) bytes, more than its parent holds") }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = end - i
            }
            guard size >= header, i + size <= end else {
                throw fail("box '\(type)' declares \(size) bytes, more than its parent holds (\(end - i))")
            }
            result.append((type, i + header, i + size))
            i += size
        }
        return result
    }

    mutating func parseMovie(_ moov: [UInt8], into movie: inout MP4Movie) throws(VideoError) {
        for box in try children(moov, 0, moov.count) {
            switch box.type {
            case "mvhd":
                var c = ByteCursor(moov, from: box.start, to: box.end)
                guard let version = c.u8(), c.skip(3) else { throw fail("mvhd is cut short") }
                let created: UInt64?, timescale: UInt32?, duration: UInt64?
                if version == 1 {
                    created = c.u64(); _ = c.u64(); timescale = c.u32(); duration = c.u64()
                } else {
                    created = c.u32().map(UInt64.init); _ = c.u32(); timescale = c.u32(); duration = c.u32().map(UInt64.init)
                }
                guard let created, let timescale, let duration else { throw fail("mvhd is cut short") }
                if timescale > 0 { movie.durationSeconds = Double(duration) / Double(timescale) }
                if created > 0 { movie.creationTime = Date(timeIntervalSince1970: Double(created) - quickTimeEpochOffset) }
            case "trak":
                if let track = try parseTrack(moov, box.start, box.end) { movie.tracks.append(track) }
            case "udta":
                try parseUserData(moov, box.start, box.end, into: &movie)
            default:
                break
            }
        }
    }

    /// GoPro's `udta`: `FIRM` (firmware) and a `GPMF` box with the camera's model (`MINF`) and serial (`CASN`).
    func parseUserData(_ bytes: [UInt8], _ start: Int, _ end: Int, into movie: inout MP4Movie) throws(VideoError) {
        for box in (try? children(bytes, start, end)) ?? [] {
            switch box.type {
            case "FIRM":
                movie.firmware = Self.text(bytes[box.start..<box.end])
            case "GPMF":
                let entries = GPMFParser.parse(Array(bytes[box.start..<box.end]))
                for entry in GPMFParser.flatten(entries) {
                    if entry.key == "MINF", let s = entry.string, !s.isEmpty { movie.cameraModel = s }
                    if entry.key == "CASN", let s = entry.string, !s.isEmpty { movie.cameraSerial = s }
                }
            default:
                break
            }
        }
    }

    /// Printable ASCII of a byte run, trimmed of NULs and spaces.
    static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        let s = String(decoding: bytes.filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return s.isEmpty ? nil : s
    }

    func parseTrack(_ bytes: [UInt8], _ start: Int, _ end: Int) throws(VideoError) -> MP4Movie.Track? {
        var track = MP4Movie.Track(id: 0, handlerType: "", handlerName: "", format: "", timescale: 0, durationSeconds: 0,
                                   width: 0, height: 0, spherical: nil, samples: [])
        var stbl: (Int, Int)?
        for box in try children(bytes, start, end) {
            switch box.type {
            case "tkhd":
                var c = ByteCursor(bytes, from: box.start, to: box.end)
                guard let version = c.u8(), c.skip(3), c.skip(version == 1 ? 16 : 8), let id = c.u32() else { throw fail("tkhd is cut short") }
                track.id = Int(id)
            case "uuid":
                if let spherical = SphericalMetadata(uuidBox: bytes[box.start..<box.end]) { track.spherical = spherical }
            case "mdia":
                for m in try children(bytes, box.start, box.end) {
                    switch m.type {
                    case "mdhd":
                        var c = ByteCursor(bytes, from: m.start, to: m.end)
                        guard let version = c.u8(), c.skip(3), c.skip(version == 1 ? 16 : 8), let scale = c.u32() else { throw fail("mdhd is cut short") }
                        let duration = version == 1 ? c.u64() : c.u32().map(UInt64.init)
                        track.timescale = Int(scale)
                        if scale > 0, let duration { track.durationSeconds = Double(duration) / Double(scale) }
                    case "hdlr":
                        var c = ByteCursor(bytes, from: m.start, to: m.end)
                        guard c.skip(8), let type = c.fourCC() else { throw fail("hdlr is cut short") }
                        track.handlerType = type
                        if c.skip(12), let name = c.take(c.remaining) {
                            // ISO writes a C string; QuickTime a Pascal string (length byte first).
                            var n = name
                            if let first = n.first, Int(first) == n.count - 1 { n = n.dropFirst() }
                            track.handlerName = Self.text(n) ?? ""
                        }
                    case "minf":
                        for i in try children(bytes, m.start, m.end) where i.type == "stbl" { stbl = (i.start, i.end) }
                    default:
                        break
                    }
                }
            default:
                break
            }
        }
        guard let stbl else { return nil }
        try parseSampleTable(bytes, stbl.0, stbl.1, into: &track)
        return track
    }

    func parseSampleTable(_ bytes: [UInt8], _ start: Int, _ end: Int, into track: inout MP4Movie.Track) throws(VideoError) {
        var durations: [(count: Int, delta: Int)] = []
        var chunkRuns: [(firstChunk: Int, samplesPerChunk: Int)] = []
        var sizes: [Int] = [], uniformSize = 0, sampleCount = 0
        var chunkOffsets: [Int64] = []
        let limit = MP4Movie.maximumSamplesPerTrack
        for box in try children(bytes, start, end) {
            var c = ByteCursor(bytes, from: box.start, to: box.end)
            switch box.type {
            case "stsd":
                guard c.skip(4), let count = c.u32(), count > 0 else { continue }
                let entries = try children(bytes, c.position, box.end)
                guard let entry = entries.first else { continue }
                track.format = entry.type
                if track.handlerType == "vide" {
                    // VisualSampleEntry: 6 reserved + 2 data reference index, then 16 bytes, width, height,
                    // 50 more bytes; child boxes (avcC/hvcC, st3d, sv3d, colr…) after those 78.
                    var e = ByteCursor(bytes, from: entry.start, to: entry.end)
                    if e.skip(24), let w = e.u16(), let h = e.u16() {
                        track.width = Int(w)
                        track.height = Int(h)
                    }
                    if entry.start + 78 < entry.end, let boxes = try? children(bytes, entry.start + 78, entry.end) {
                        var st3d: UInt8?
                        var sv3d: ArraySlice<UInt8>?
                        for b in boxes {
                            if b.type == "st3d", b.end - b.start >= 5 { st3d = bytes[b.start + 4] }
                            if b.type == "sv3d" { sv3d = bytes[b.start..<b.end] }
                        }
                        if let sv3d, let parsed = SphericalMetadata(sv3d: sv3d, stereoMode: st3d, parser: self) {
                            track.spherical = parsed
                        } else if let st3d, track.spherical == nil {
                            track.spherical = SphericalMetadata(projection: .unspecified, stereoMode: Int(st3d), source: "st3d")
                        }
                    }
                }
            case "stts":
                guard c.skip(4), let n = c.u32(), Int(n) <= limit else { throw fail("stts is damaged") }
                for _ in 0..<Int(n) {
                    guard let count = c.u32(), let delta = c.u32() else { throw fail("stts is cut short") }
                    durations.append((Int(count), Int(delta)))
                }
            case "stsc":
                guard c.skip(4), let n = c.u32(), Int(n) <= limit else { throw fail("stsc is damaged") }
                for _ in 0..<Int(n) {
                    guard let first = c.u32(), let perChunk = c.u32(), c.skip(4) else { throw fail("stsc is cut short") }
                    chunkRuns.append((Int(first), Int(perChunk)))
                }
            case "stsz":
                guard c.skip(4), let uniform = c.u32(), let n = c.u32(), Int(n) <= limit else { throw fail("stsz is damaged") }
                uniformSize = Int(uniform)
                sampleCount = Int(n)
                if uniform == 0 {
                    guard c.remaining >= 4 * sampleCount else { throw fail("stsz is cut short") }
                    sizes.reserveCapacity(sampleCount)
                    for _ in 0..<sampleCount { sizes.append(Int(c.u32()!)) }
                }
            case "stz2":
                guard c.skip(7), let fieldSize = c.u8(), let n = c.u32(), Int(n) <= limit, [4, 8, 16].contains(fieldSize) else {
                    throw fail("stz2 is damaged")
                }
                sampleCount = Int(n)
                for k in 0..<sampleCount {
                    switch fieldSize {
                    case 4:
                        guard c.position + k / 2 < c.end else { throw fail("stz2 is cut short") }
                        let byte = bytes[c.position + k / 2]
                        sizes.append(Int(k % 2 == 0 ? byte >> 4 : byte & 0x0F))
                    case 8:
                        guard let v = c.u8() else { throw fail("stz2 is cut short") }
                        sizes.append(Int(v))
                    default:
                        guard let v = c.u16() else { throw fail("stz2 is cut short") }
                        sizes.append(Int(v))
                    }
                }
            case "stco", "co64":
                guard c.skip(4), let n = c.u32(), Int(n) <= limit else { throw fail("\(box.type) is damaged") }
                chunkOffsets.reserveCapacity(Int(n))
                for _ in 0..<Int(n) {
                    if box.type == "stco" {
                        guard let v = c.u32() else { throw fail("stco is cut short") }
                        chunkOffsets.append(Int64(v))
                    } else {
                        guard let v = c.u64(), v < UInt64(Int64.max) else { throw fail("co64 is cut short") }
                        chunkOffsets.append(Int64(v))
                    }
                }
            default:
                break
            }
        }
        guard sampleCount > 0 else { return }
        guard track.timescale > 0 else { throw fail("track \(track.id) has samples but no time scale (mdhd)") }
        // Sample → chunk: each run of chunks holds samplesPerChunk samples each.
        var samples: [MP4Movie.Sample] = []
        samples.reserveCapacity(sampleCount)
        var sampleIndex = 0
        for (r, run) in chunkRuns.enumerated() {
            guard run.firstChunk >= 1, run.samplesPerChunk >= 0 else { throw fail("stsc names chunk \(run.firstChunk)") }
            let lastChunk = r + 1 < chunkRuns.count ? chunkRuns[r + 1].firstChunk - 1 : chunkOffsets.count
            guard lastChunk <= chunkOffsets.count, lastChunk >= run.firstChunk - 1 else { throw fail("stsc and the chunk offsets disagree") }
            for chunk in run.firstChunk...max(run.firstChunk, lastChunk) where chunk <= lastChunk {
                var offset = chunkOffsets[chunk - 1]
                for _ in 0..<run.samplesPerChunk where sampleIndex < sampleCount {
                    let size = uniformSize > 0 ? uniformSize : sizes[sampleIndex]
                    samples.append(MP4Movie.Sample(offset: offset, size: size, timeSeconds: 0, durationSeconds: 0))
                    offset += Int64(size)
                    sampleIndex += 1
                }
            }
        }
        guard samples.count == sampleCount else {
            throw fail("track \(track.id): the chunk table places \(samples.count) of its \(sampleCount) samples")
        }
        // Timing from stts: decode times, each the sum of the durations before it.
        var time = 0, k = 0
        let scale = Double(track.timescale)
        for run in durations {
            for _ in 0..<run.count where k < samples.count {
                samples[k].timeSeconds = Double(time) / scale
                samples[k].durationSeconds = Double(run.delta) / scale
                time += run.delta
                k += 1
            }
        }
        track.samples = samples
    }
}
