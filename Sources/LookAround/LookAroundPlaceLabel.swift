import Catalog
import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot
import Reprojection
import Storage
import Synchronization

/// A place label placed in a snapshot: which place, where its anchor lands in the view, how far it is.
public struct LookAroundPlaceLabel: Sendable, Hashable {
    /// The name shown (in the requested language when the place has it, else the local name).
    public var name: String
    /// The category, e.g. "cafe".
    public var category: String
    /// The coarse group, e.g. "food".
    public var categoryGroup: PlaceGroup
    /// The anchor (the facade point where the place's sign hangs) in view pixels, continuous
    /// coordinates (pixel centres at i + 0.5), as every pixel position of the API is given.
    public var anchor: PixelPoint
    /// Distance from the panorama to the anchor, metres.
    public var distanceMeters: Double
    /// The box the drawn label covers (name with its halo, and the dot on the anchor), measured with the
    /// label's font. Labels of a snapshot never overlap.
    public var box = PixelRect.zero
}

/// Finds where place labels go in a view: on the visible facade point nearest each place, at sign
/// height, using the panorama's depth map (DESIGN §7: labels must land where the sign is).
///
/// For each place within ``searchRadiusMeters`` the depth map's row at sign height is scanned over
/// ±``scanHalfWidthDegrees`` around the bearing to the place; each depth sample is a visible surface
/// point, and the one nearest the place (refined to the foot of the perpendicular on the line through
/// its neighbours) is the anchor. A place with no visible surface within ``facadeToleranceMeters`` (out
/// in the open: a kiosk on a square, a statue, a park) is anchored at its own position,
/// ``openAirHeightMeters`` above the ground, and hidden when the depth map shows something nearer
/// than it in that direction.
public struct LookAroundLabelPlacer: Sendable {
    /// Height of a shop sign's centre above the ground, metres (ground-floor lintel; the simulator
    /// hangs its signs 3.1–3.8 m up).
    public static let signHeightMeters = 3.45
    /// Places farther than this from the panorama get no label, metres.
    public static let searchRadiusMeters = 80.0
    /// A place whose nearest visible surface is farther than this is hidden, metres.
    public static let facadeToleranceMeters = 12.0
    /// Half the bearing range scanned around each place, degrees.
    public static let scanHalfWidthDegrees = 60.0
    /// Height of the anchor of a place with no facade near it, metres above the ground.
    static let openAirHeightMeters = 3.0
    /// An open-air anchor is visible when the depth map's surface in its direction is no nearer than
    /// this fraction of its distance (or is sky).
    static let openAirVisibleFraction = 0.9
    /// Camera height assumed when the catalog has none, metres.
    public static let defaultCameraHeightMeters = PanoramaRecord.assumedCameraHeightMeters

    /// The depth map (Imaging's ``DepthEncoding``: centimetres, 65,535 = sky).
    public let depth: Gray16Image
    /// The panorama's pose: the depth map is read through its equirectangular frame, so a panorama
    /// with pitch and roll (as real cameras write them) gets its labels where its picture shows the places.
    public let pose: PanoramaPose
    /// The pose's equirectangular mapping (``EquirectangularFrame``).
    let frame: EquirectangularFrame
    /// The panorama's capture heading (centre column), degrees.
    public var panoramaHeadingDegrees: Double { pose.headingDegrees }
    /// Camera height above the ground, metres.
    public let cameraHeightMeters: Double

    /// Sine and cosine of the bearing of each depth column's centre, and of the elevation of each
    /// row's centre: the scan reads them instead of calling four trigonometric functions per sample.
    private let columnSine: [Double], columnCosine: [Double], rowSine: [Double], rowCosine: [Double]
    /// The bearing offsets scanned around a place: ±``scanHalfWidthDegrees`` in steps of one depth column.
    private let scanOffsets: [Double]

    /// A placer over a depth map of a panorama captured with `pose`.
    public init(depth: Gray16Image, pose: PanoramaPose, cameraHeightMeters: Double) {
        self.depth = depth
        self.pose = pose
        self.frame = EquirectangularFrame(pose: pose)
        self.cameraHeightMeters = cameraHeightMeters
        let panoramaHeadingDegrees = pose.headingDegrees
        let w = depth.width, h = depth.height
        // The same expressions the scan used per sample, so the anchors are unchanged to the bit.
        func bearingRadians(_ x: Int) -> Double {
            let bearing: Double = panoramaHeadingDegrees + ((Double(x) + 0.5) / Double(w) - 0.5) * 360
            return bearing * .pi / 180
        }
        func elevationRadians(_ y: Int) -> Double {
            let elevation: Double = 90 - (Double(y) + 0.5) / Double(h) * 180
            return elevation * .pi / 180
        }
        let bearings = (0..<w).map(bearingRadians), elevations = (0..<h).map(elevationRadians)
        var offsets: [Double] = []
        var k = -Self.scanHalfWidthDegrees
        while k <= Self.scanHalfWidthDegrees {
            offsets.append(k)
            k += 360 / Double(w)
        }
        scanOffsets = offsets
        columnSine = bearings.map { sin($0) }
        columnCosine = bearings.map { cos($0) }
        rowSine = elevations.map { sin($0) }
        rowCosine = elevations.map { cos($0) }
    }

    /// Placers made from depth files, by path, size and modification time (a snapshot of the same
    /// panorama then skips the PNG decode and the tables).
    private static let placers = Mutex<[String: LookAroundLabelPlacer]>([:])
    /// The most placers kept (about 0.4 MB each for a 512×256 depth map).
    static let cachedPlacerLimit = 32

    /// A placer over the depth PNG at `depthPath`, reused while the file is unchanged.
    /// - Throws: `ImagingError` when the file cannot be read or decoded.
    public static func cached(depthPath: String, pose: PanoramaPose, cameraHeightMeters: Double) throws -> LookAroundLabelPlacer {
        let known = try ImageryFile.stamp(depthPath)
        let stamp = "\(known?.size ?? -1)/\(known?.version ?? "-1")"
        let key = "\(depthPath)|\(stamp)|\(pose.headingDegrees)|\(pose.pitchDegrees)|\(pose.rollDegrees)|\(cameraHeightMeters)"
        if let placer = placers.withLock({ $0[key] }) { return placer }
        let depth = try PNGCodec.decodeGray16(try ImageryFile.read(depthPath), file: depthPath)
        let placer = LookAroundLabelPlacer(depth: depth, pose: pose, cameraHeightMeters: cameraHeightMeters)
        placers.withLock { cache in
            if cache.count >= cachedPlacerLimit { cache.removeAll() }
            cache[key] = placer
        }
        return placer
    }

    /// The anchor of a place with no facade near it: its own position, ``openAirHeightMeters`` up,
    /// or nil when the depth map shows a surface clearly nearer in that direction.
    func openAirAnchor(forPlaceAt place: EastNorthUp, horizontal: Double, bearingDegrees: Double) -> EastNorthUp? {
        let up = Self.openAirHeightMeters - cameraHeightMeters
        let distance = (horizontal * horizontal + up * up).squareRoot()
        let elevation = atan2(up, horizontal) * 180 / .pi
        if let surface = surfacePoint(bearingDegrees: bearingDegrees, elevationDegrees: elevation) {
            let seen = (surface.east * surface.east + surface.north * surface.north + surface.up * surface.up).squareRoot()
            guard seen >= Self.openAirVisibleFraction * distance else { return nil }
        }
        return EastNorthUp(east: place.east, north: place.north, up: up)
    }

    /// The visible surface point in direction (bearing, elevation), relative to the camera (east, north,
    /// up metres), or nil for sky.
    func surfacePoint(bearingDegrees: Double, elevationDegrees: Double) -> EastNorthUp? {
        let w = depth.width, h = depth.height
        guard frame.isLevel else {
            // A tilted panorama: the depth pixel where the direction appears, and the ray through its centre.
            let b = bearingDegrees * .pi / 180, e = elevationDegrees * .pi / 180
            let position = frame.position(of: EastNorthUp(east: cos(e) * sin(b), north: cos(e) * cos(b), up: sin(e)))
            let x = min(w - 1, Int(position.u * Double(w))), y = min(h - 1, max(0, Int(position.v * Double(h))))
            guard let distance = DepthEncoding.meters(depth.components[y * w + x]) else { return nil }
            let ray = frame.direction(u: (Double(x) + 0.5) / Double(w), v: (Double(y) + 0.5) / Double(h))
            return EastNorthUp(east: distance * ray.east, north: distance * ray.north, up: distance * ray.up)
        }
        var u = ((bearingDegrees - panoramaHeadingDegrees) / 360 + 0.5).truncatingRemainder(dividingBy: 1)
        if u < 0 { u += 1 }
        let x = min(w - 1, Int(u * Double(w)))
        let y = min(h - 1, max(0, Int((90 - elevationDegrees) / 180 * Double(h))))
        guard let distance = DepthEncoding.meters(depth.components[y * w + x]) else { return nil }
        // The ray through that depth pixel's centre.
        let horizontal = distance * rowCosine[y]
        return EastNorthUp(east: horizontal * columnSine[x], north: horizontal * columnCosine[x], up: distance * rowSine[y])
    }

    /// The anchor of a place `place` metres from the camera (east, north; height ignored), or nil when hidden.
    ///
    /// The scan runs outward from the place's bearing and stops on each side once no sample there can
    /// beat the best gap found: a surface point seen at bearing offset Δ is at least `horizontal·sin|Δ|`
    /// from the place. The result is the one a scan of every offset gives (same samples, same ties).
    public func anchor(forPlaceAt place: EastNorthUp) -> EastNorthUp? {
        let horizontal = (place.east * place.east + place.north * place.north).squareRoot()
        guard horizontal > 0.5 else { return nil }
        let up = Self.signHeightMeters - cameraHeightMeters
        let placeBearing = place.heading.degrees
        let firstElevation = atan2(up, horizontal) * 180 / .pi
        let offsets = scanOffsets
        var samples = [(point: EastNorthUp, gap: Double)?](repeating: nil, count: offsets.count)
        func sample(_ j: Int) -> (point: EastNorthUp, gap: Double) {
            if let known = samples[j] { return known }
            let bearing = placeBearing + offsets[j]
            // Aim at sign height at the place's distance, then again at the distance found.
            var point = surfacePoint(bearingDegrees: bearing, elevationDegrees: firstElevation)
            if let p = point {
                let d = (p.east * p.east + p.north * p.north).squareRoot()
                point = surfacePoint(bearingDegrees: bearing, elevationDegrees: atan2(up, d) * 180 / .pi)
            }
            let result: (point: EastNorthUp, gap: Double)
            if let p = point {
                let gap = ((p.east - place.east) * (p.east - place.east) + (p.north - place.north) * (p.north - place.north)).squareRoot()
                result = (p, gap)
            } else {
                result = (EastNorthUp(east: .nan, north: .nan, up: .nan), .infinity)
            }
            samples[j] = result
            return result
        }
        // Half a depth column: a sample's surface point lies on its column's centre ray, not exactly
        // at the scanned bearing.
        let halfColumnRadians = .pi / Double(depth.width)
        func lowerBound(_ j: Int) -> Double {
            horizontal * sin(max(0, abs(offsets[j]) * .pi / 180 - halfColumnRadians))
        }
        var best: Int?
        func consider(_ j: Int) {
            let gap = sample(j).gap
            if let b = best, let current = samples[b] {
                if gap < current.gap || (gap == current.gap && j < b) { best = j }
            } else if gap.isFinite || best == nil {
                best = j
            }
        }
        let centre = offsets.indices.min { abs(offsets[$0]) < abs(offsets[$1]) } ?? 0
        var left = centre - 1, right = centre + 1
        consider(centre)
        while true {
            let bestGap = best.flatMap { samples[$0]?.gap } ?? .infinity
            let goLeft = left >= 0 && lowerBound(left) <= bestGap
            let goRight = right < offsets.count && lowerBound(right) <= bestGap
            if !goLeft && !goRight { break }
            if goLeft { consider(left); left -= 1 }
            if goRight { consider(right); right += 1 }
        }
        // The full scan's first minimum: among equal finite gaps the lowest index (kept by `consider`);
        // with no surface anywhere, nothing.
        guard let i = best, let chosen = samples[i], chosen.gap <= Self.facadeToleranceMeters else {
            return openAirAnchor(forPlaceAt: place, horizontal: horizontal, bearingDegrees: placeBearing)
        }
        var anchor = chosen.point
        // Refine: foot of the perpendicular from the place on the facade line through the neighbours.
        if i >= 2, i + 2 < offsets.count, sample(i - 2).gap.isFinite, sample(i + 2).gap.isFinite {
            let a = sample(i - 2).point, b = sample(i + 2).point
            let dx = b.east - a.east, dy = b.north - a.north
            let length2 = dx * dx + dy * dy
            if length2 > 1e-6 {
                let t = ((place.east - a.east) * dx + (place.north - a.north) * dy) / length2
                if (0...1).contains(t) {
                    let foot = EastNorthUp(east: a.east + t * dx, north: a.north + t * dy, up: 0)
                    // Only when the two neighbours and the best sample lie on one straight facade.
                    let m = chosen.point
                    let off = abs((m.east - a.east) * dy - (m.north - a.north) * dx) / length2.squareRoot()
                    if off < 0.2 { anchor = foot }
                }
            }
        }
        return EastNorthUp(east: anchor.east, north: anchor.north, up: up)
    }
}
