import Foundation

/// How a video says it is 360°: Google's Spherical Video V2 boxes (`sv3d` with `proj`/`prhd` and `equi`
/// or `cbmp`, `st3d` for stereo) in the video sample entry, or the older V1 `uuid` box
/// (`ffcc8263-f855-4a93-8814-587a02521fdd`) holding GSpherical XMP.
public struct SphericalMetadata: Sendable, Hashable {
    /// The projection the metadata names.
    public enum Projection: String, Sendable, Hashable {
        case equirectangular
        case cubemap
        case mesh
        /// Only stereo metadata (`st3d`), or a V1 box without `ProjectionType`.
        case unspecified
    }

    /// The projection.
    public var projection: Projection
    /// `st3d` / `StereoMode`: 0 mono, 1 top-bottom, 2 left-right (nil: not said, mono).
    public var stereoMode: Int?
    /// Where it was read: `sv3d`, `uuid XMP` or `st3d`.
    public var source: String
    /// `prhd` pose (degrees), or V1 `InitialViewHeadingDegrees`/`…Pitch…`/`…Roll…`.
    public var poseYawDegrees: Double = 0, posePitchDegrees: Double = 0, poseRollDegrees: Double = 0
    /// `equi` bounds: the fractions of the sphere cropped away (top, bottom, left, right), 0 when full.
    public var cropFractions: [Double] = [0, 0, 0, 0]
    /// `cbmp` layout and padding (pixels), for cubemaps.
    public var cubemapLayout: Int?, cubemapPadding: Int?

    /// Metadata from its parts.
    public init(projection: Projection, stereoMode: Int? = nil, source: String) {
        self.projection = projection
        self.stereoMode = stereoMode
        self.source = source
    }

    /// The V1 box's UUID.
    static let sphericalV1UUID: [UInt8] = [0xff, 0xcc, 0x82, 0x63, 0xf8, 0x55, 0x4a, 0x93, 0x88, 0x14, 0x58, 0x7a, 0x02, 0x52, 0x1f, 0xdd]

    /// Reads a `uuid` box body (UUID then XML); nil when it is another uuid or says nothing spherical.
    init?(uuidBox body: ArraySlice<UInt8>) {
        guard body.count > 16, body.prefix(16).elementsEqual(Self.sphericalV1UUID) else { return nil }
        let xml = String(decoding: body.dropFirst(16), as: UTF8.self)
        func value(_ tag: String) -> String? {
            guard let open = xml.range(of: "<GSpherical:\(tag)>"), let close = xml.range(of: "</GSpherical:\(tag)>", range: open.upperBound..<xml.endIndex)
            else { return nil }
            return String(xml[open.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard value("Spherical")?.lowercased() == "true" else { return nil }
        switch value("ProjectionType")?.lowercased() {
        case "equirectangular": projection = .equirectangular
        case .some(let other) where other.contains("cube"): projection = .cubemap
        default: projection = .unspecified
        }
        switch value("StereoMode")?.lowercased() {
        case "top-bottom": stereoMode = 1
        case "left-right": stereoMode = 2
        case "mono": stereoMode = 0
        default: stereoMode = nil
        }
        source = "uuid XMP"
        poseYawDegrees = value("InitialViewHeadingDegrees").flatMap(Double.init) ?? 0
        posePitchDegrees = value("InitialViewPitchDegrees").flatMap(Double.init) ?? 0
        poseRollDegrees = value("InitialViewRollDegrees").flatMap(Double.init) ?? 0
        let full = (value("FullPanoWidthPixels").flatMap(Double.init), value("FullPanoHeightPixels").flatMap(Double.init))
        let crop = (value("CroppedAreaImageWidthPixels").flatMap(Double.init), value("CroppedAreaImageHeightPixels").flatMap(Double.init),
                    value("CroppedAreaLeftPixels").flatMap(Double.init), value("CroppedAreaTopPixels").flatMap(Double.init))
        if let fw = full.0, let fh = full.1, fw > 0, fh > 0, let cw = crop.0, let ch = crop.1, let left = crop.2, let top = crop.3 {
            cropFractions = [top / fh, (fh - top - ch) / fh, left / fw, (fw - left - cw) / fw]
        }
    }

    /// Reads an `sv3d` box body (its children `svhd`, `proj`).
    init?(sv3d body: ArraySlice<UInt8>, stereoMode: UInt8?, parser: BoxParser) {
        let bytes = Array(body)
        guard let boxes = try? parser.children(bytes, 0, bytes.count), let proj = boxes.first(where: { $0.type == "proj" }),
              let inner = try? parser.children(bytes, proj.start, proj.end) else { return nil }
        projection = .unspecified
        source = "sv3d"
        self.stereoMode = stereoMode.map(Int.init)
        for box in inner {
            var c = ByteCursor(bytes, from: box.start + 4, to: box.end)  // after version and flags
            switch box.type {
            case "prhd":
                if let yaw = c.u32(), let pitch = c.u32(), let roll = c.u32() {
                    poseYawDegrees = Double(Int32(bitPattern: yaw)) / 65536
                    posePitchDegrees = Double(Int32(bitPattern: pitch)) / 65536
                    poseRollDegrees = Double(Int32(bitPattern: roll)) / 65536
                }
            case "equi":
                projection = .equirectangular
                var fractions: [Double] = []
                for _ in 0..<4 { if let v = c.u32() { fractions.append(Double(v) / 4_294_967_296) } }
                if fractions.count == 4 { cropFractions = fractions }
            case "cbmp":
                projection = .cubemap
                cubemapLayout = c.u32().map(Int.init)
                cubemapPadding = c.u32().map(Int.init)
            case "mshp":
                projection = .mesh
            default:
                break
            }
        }
    }

    /// Whether this describes a full, mono equirectangular sphere (what the catalog takes as is).
    public var isFullMonoEquirectangular: Bool {
        projection == .equirectangular && (stereoMode ?? 0) == 0 && cropFractions.allSatisfy { abs($0) < 1e-6 }
    }
}
