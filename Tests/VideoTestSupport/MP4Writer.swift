import Foundation

/// Writes ISO/QuickTime boxes: a timed metadata track (GoPro `gpmd`, Google `camm`) added to a file FFmpeg
/// made, or a file holding such a track alone. For test recordings: FFmpeg's command line cannot mux
/// these tracks.
public enum MP4Writer {
    /// One sample of a metadata track.
    public struct Sample: Sendable {
        public var bytes: [UInt8]
        /// Duration in the track's time scale (1000: milliseconds).
        public var duration: Int
        public init(bytes: [UInt8], duration: Int) { self.bytes = bytes; self.duration = duration }
    }

    /// A metadata track to write.
    public struct MetadataTrack: Sendable {
        /// The sample entry format: `gpmd` or `camm`.
        public var format: String
        /// The handler type: `meta` (GoPro) or `camm`.
        public var handler: String
        /// The handler name (`GoPro MET`).
        public var name: String
        public var samples: [Sample]
        public var timescale = 1000

        public init(format: String, handler: String, name: String, samples: [Sample]) {
            self.format = format
            self.handler = handler
            self.name = name
            self.samples = samples
        }
    }

    // MARK: Boxes

    static func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(payload.count + 8) + Array(type.utf8) + payload }
    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
    }

    /// The `trak` of `track` with track id `id`, its samples at `dataOffset` in the file (one chunk).
    static func trak(_ track: MetadataTrack, id: Int, dataOffset: Int) -> [UInt8] {
        let duration = track.samples.reduce(0) { $0 + $1.duration }
        let matrix = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000].flatMap { u32($0) }
        let tkhd = fullBox("tkhd", flags: 7, u32(0) + u32(0) + u32(id) + u32(0) + u32(duration * 1000 / track.timescale)
                           + [UInt8](repeating: 0, count: 8) + u16(0) + u16(0) + u16(0) + u16(0) + matrix + u32(0) + u32(0))
        let mdhd = fullBox("mdhd", u32(0) + u32(0) + u32(track.timescale) + u32(duration) + u16(0x55C4) + u16(0))
        let hdlr = fullBox("hdlr", u32(0x6D686C72) + Array(track.handler.utf8) + [UInt8](repeating: 0, count: 12)
                           + [UInt8(track.name.utf8.count)] + Array(track.name.utf8))
        let entry = box(track.format, [UInt8](repeating: 0, count: 6) + u16(1))
        let stsd = fullBox("stsd", u32(1) + entry)
        // Runs of equal durations.
        var runs: [(Int, Int)] = []
        for s in track.samples {
            if let last = runs.last, last.1 == s.duration { runs[runs.count - 1].0 += 1 } else { runs.append((1, s.duration)) }
        }
        let stts = fullBox("stts", u32(runs.count) + runs.flatMap { u32($0.0) + u32($0.1) })
        let stsc = fullBox("stsc", u32(1) + u32(1) + u32(track.samples.count) + u32(1))
        let stsz = fullBox("stsz", u32(0) + u32(track.samples.count) + track.samples.flatMap { u32($0.bytes.count) })
        let stco = fullBox("stco", u32(1) + u32(dataOffset))
        let stbl = box("stbl", stsd + stts + stsc + stsz + stco)
        let dinf = box("dinf", fullBox("dref", u32(1) + fullBox("url ", flags: 1, [])))
        let header = track.handler == "meta" ? box("gmhd", fullBox("gmin", u16(0) + u16(0x8000) + u16(0x8000) + u16(0x8000) + u16(0) + u16(0)))
            : fullBox("nmhd", [])
        let minf = box("minf", header + dinf + stbl)
        return box("trak", tkhd + box("mdia", mdhd + hdlr + minf))
    }

    /// A file holding only `track` (and a movie header): for reading raw GPMF with tools that read MP4.
    public static func movie(with track: MetadataTrack, creationTime: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> [UInt8] {
        let ftyp = box("ftyp", Array("mp41".utf8) + u32(0) + Array("mp41".utf8))
        let data = track.samples.flatMap(\.bytes)
        let mdat = box("mdat", data)
        let duration = track.samples.reduce(0) { $0 + $1.duration }
        let created = Int(creationTime.timeIntervalSince1970 + 2_082_844_800)
        let matrix = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000].flatMap { u32($0) }
        let mvhd = fullBox("mvhd", u32(created) + u32(created) + u32(track.timescale) + u32(duration) + u32(0x0001_0000) + u16(0x0100)
                           + [UInt8](repeating: 0, count: 10) + matrix + [UInt8](repeating: 0, count: 24) + u32(2))
        let trak = self.trak(track, id: 1, dataOffset: ftyp.count + 8)
        return ftyp + mdat + box("moov", mvhd + trak)
    }

    /// A V1 spherical video box (Google's Spherical Video RFC: `uuid` ffcc8263-… with GSpherical XMP).
    public static func sphericalV1Box(projection: String = "equirectangular", stereoMode: String = "mono") -> [UInt8] {
        let xml = """
            <?xml version="1.0"?><rdf:SphericalVideo xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" \
            xmlns:GSpherical="http://ns.google.com/videos/1.0/spherical/"><GSpherical:Spherical>true</GSpherical:Spherical>\
            <GSpherical:Stitched>true</GSpherical:Stitched><GSpherical:StitchingSoftware>lookaround tests</GSpherical:StitchingSoftware>\
            <GSpherical:ProjectionType>\(projection)</GSpherical:ProjectionType><GSpherical:StereoMode>\(stereoMode)</GSpherical:StereoMode>\
            </rdf:SphericalVideo>
            """
        let uuid: [UInt8] = [0xff, 0xcc, 0x82, 0x63, 0xf8, 0x55, 0x4a, 0x93, 0x88, 0x14, 0x58, 0x7a, 0x02, 0x52, 0x1f, 0xdd]
        return box("uuid", uuid + Array(xml.utf8))
    }

    /// `file` (an MP4 FFmpeg wrote: `ftyp`, `mdat`, then `moov`) with `tracks` added: the movie box is
    /// rewritten after the original media data and the new tracks' samples follow it in a second `mdat`.
    /// Optionally adds a `uuid` GSpherical box or a GoPro `udta` to the movie.
    /// `videoTrackBoxes` are appended inside the first track (the video: a V1 spherical `uuid` box).
    public static func adding(_ tracks: [MetadataTrack], to file: [UInt8], userData: [UInt8]? = nil,
                              videoTrackBoxes: [UInt8] = []) throws -> [UInt8] {
        var i = 0
        var before: [UInt8] = [], moov: [UInt8]?
        while i + 8 <= file.count {
            let size = Int(file[i]) << 24 | Int(file[i + 1]) << 16 | Int(file[i + 2]) << 8 | Int(file[i + 3])
            let type = String(decoding: file[(i + 4)..<(i + 8)], as: UTF8.self)
            guard size >= 8, i + size <= file.count else { throw CocoaError(.fileReadCorruptFile) }
            if type == "moov" {
                guard moov == nil else { throw CocoaError(.fileReadCorruptFile) }
                moov = Array(file[(i + 8)..<(i + size)])
                // Anything after the moov would move: this writer takes FFmpeg's default layout only.
                guard i + size == file.count || file[(i + size)...].count == 0 else { throw CocoaError(.featureUnsupported) }
            } else {
                before += file[i..<(i + size)]
            }
            i += size
        }
        guard var body = moov else { throw CocoaError(.fileReadCorruptFile) }
        if !videoTrackBoxes.isEmpty {
            // The first trak, grown by the boxes.
            var j = 0
            while j + 8 <= body.count {
                let size = Int(body[j]) << 24 | Int(body[j + 1]) << 16 | Int(body[j + 2]) << 8 | Int(body[j + 3])
                guard size >= 8, j + size <= body.count else { throw CocoaError(.fileReadCorruptFile) }
                if String(decoding: body[(j + 4)..<(j + 8)], as: UTF8.self) == "trak" {
                    let grown = box("trak", Array(body[(j + 8)..<(j + size)]) + videoTrackBoxes)
                    body = Array(body[0..<j]) + grown + Array(body[(j + size)...])
                    break
                }
                j += size
            }
        }
        if let userData { body += box("udta", userData) }
        var nextID = 100
        // The new tracks' data goes in an mdat after the new moov: its size is known before the offsets.
        var trakSizes = 0
        for (k, t) in tracks.enumerated() { trakSizes += trak(t, id: nextID + k, dataOffset: 0).count }
        let moovSize = 8 + body.count + trakSizes
        var offset = before.count + moovSize + 8
        var traks: [UInt8] = [], data: [UInt8] = []
        for t in tracks {
            traks += trak(t, id: nextID, dataOffset: offset)
            let bytes = t.samples.flatMap(\.bytes)
            data += bytes
            offset += bytes.count
            nextID += 1
        }
        return before + box("moov", body + traks) + box("mdat", data)
    }
}
