import Foundation
import Geodesy
import Imaging
import MapSnapshot

/// The map beside or over a walk's frames: the route walked (grey) and ahead (crimson), the walker, a
/// view cone showing heading and field of view, and the imagery coverage, north up, centred on the
/// walker.
///
/// The base map of the route's whole area is rendered once, with coverage; each frame crops the
/// walker's square out of it and draws the route, cone and position over it (a fraction of a
/// millisecond, where a map snapshot per frame costs tens).
public struct MapInset: Sendable {
    /// The inset's side, pixels.
    public let sizePixels: Int
    /// The base map.
    public let base: MapSnapshot
    /// The route's stops in base-map pixels.
    let routePixels: [PixelPoint]
    /// Cumulative distance of each stop, metres.
    let routeDistances: [Double]
    /// Base-map pixels per metre.
    let pixelsPerMeter: Double

    /// Colours: the route walked grey, ahead crimson (coverage is the map's blue), the cone amber.
    static let walkedColor = RGBAColor(red: 110, green: 110, blue: 120, alpha: 230)
    static let aheadColor = RGBAColor(red: 210, green: 30, blue: 70, alpha: 235)
    static let coneColor = RGBAColor(red: 255, green: 170, blue: 0, alpha: 120)
    static let positionColor = RGBAColor(red: 210, green: 30, blue: 70)

    /// Renders the base map for `route`.
    /// - Parameters:
    ///   - snapshotter: the map data.
    ///   - route: the walk.
    ///   - sizePixels: the inset's side.
    ///   - widthMeters: the ground the inset shows across.
    ///   - mapType: the map's type.
    ///   - coverage: where imagery is (drawn as the coverage layer), or nil.
    /// - Throws: `MapSnapshotError` or `GeodesyError` from the map.
    public init(snapshotter: MapSnapshotter, route: WalkRoute, sizePixels: Int, widthMeters: Double, mapType: MapType,
                coverage: (any PanoramaCoverage)?, language: String? = nil) throws {
        self.sizePixels = sizePixels
        let coordinates = route.stops.map(\.coordinate)
        let south = coordinates.map(\.latitude).min()!, north = coordinates.map(\.latitude).max()!
        let west = coordinates.map(\.longitude).min()!, east = coordinates.map(\.longitude).max()!
        let center = try GeoCoordinate(latitude: (south + north) / 2, longitude: (west + east) / 2)
        let metersPerPixel = widthMeters / Double(sizePixels)
        // The route's extent plus an inset's width all round, so every crop lies inside the base map.
        let northSouth = try GeoCoordinate(latitude: south, longitude: center.longitude).distanceMeters(to: GeoCoordinate(latitude: north, longitude: center.longitude))
        let eastWest = try GeoCoordinate(latitude: center.latitude, longitude: west).distanceMeters(to: GeoCoordinate(latitude: center.latitude, longitude: east))
        var heightMeters = northSouth + 2.2 * widthMeters, widthMetersTotal = eastWest + 2.2 * widthMeters
        var scale = 1.0
        // Keep the base map within 4096 pixels a side: beyond, the inset shows more ground per pixel.
        let largest = max(heightMeters, widthMetersTotal) / metersPerPixel
        if largest > 4096 { scale = largest / 4096 }
        let pixelWidth = Int((widthMetersTotal / metersPerPixel / scale).rounded(.up))
        let pixelHeight = Int((heightMeters / metersPerPixel / scale).rounded(.up))
        heightMeters = Double(pixelHeight) * metersPerPixel * scale
        widthMetersTotal = Double(pixelWidth) * metersPerPixel * scale
        let region = try CoordinateRegion(center: center, latitudinalMeters: heightMeters, longitudinalMeters: widthMetersTotal)
        var options = MapSnapshotOptions(region: region, size: PointSize(width: pixelWidth, height: pixelHeight), mapType: mapType)
        options.coverage = coverage
        options.labelLanguage = language
        let snapshot = try snapshotter.snapshot(options)
        base = snapshot
        routePixels = coordinates.map { snapshot.point(for: $0) ?? PixelPoint(0, 0) }
        routeDistances = route.stops.map(\.distanceMeters)
        pixelsPerMeter = 1 / (metersPerPixel * scale)
    }

    /// The inset for a frame: centred on `coordinate`, route split at `distanceMeters`, cone at
    /// `headingDegrees` with `fieldOfViewDegrees`.
    public func render(coordinate: GeoCoordinate, distanceMeters: Double, headingDegrees: Double, fieldOfViewDegrees: Double) -> RGBA8Image {
        let n = sizePixels
        let center = base.point(for: coordinate) ?? PixelPoint(Double(base.image.width) / 2, Double(base.image.height) / 2)
        let left = Int((center.x - Double(n) / 2).rounded()), top = Int((center.y - Double(n) / 2).rounded())
        var canvas = Canvas(width: n, height: n, background: RGBAColor(red: 236, green: 236, blue: 232))
        // The crop (clamped to the base map; outside it stays background).
        let baseImage = base.image
        canvas.image.components.withUnsafeMutableBufferPointer { dst in
            baseImage.components.withUnsafeBufferPointer { src in
                for y in 0..<n {
                    let sy = top + y
                    guard sy >= 0, sy < baseImage.height else { continue }
                    for x in 0..<n {
                        let sx = left + x
                        guard sx >= 0, sx < baseImage.width else { continue }
                        let s = (sy * baseImage.width + sx) * 4, d = (y * n + x) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = 255
                    }
                }
            }
        }
        let offset = PixelPoint(Double(left), Double(top))
        let here = center - offset
        // Route: walked up to the walker, ahead from it.
        var walked: [PixelPoint] = [], ahead: [PixelPoint] = [here]
        for (k, p) in routePixels.enumerated() {
            if routeDistances[k] <= distanceMeters { walked.append(p - offset) } else { ahead.append(p - offset) }
        }
        walked.append(here)
        let width = max(2.5, Double(n) / 60)
        let style = StrokeStyle(width: width, cap: .round, join: .round)
        if walked.count >= 2 { canvas.drawPolyline(walked, style: style, color: Self.walkedColor) }
        if ahead.count >= 2 { canvas.drawPolyline(ahead, style: style, color: Self.aheadColor) }
        // View cone: the field of view, 25 % of the inset deep.
        let depth = Double(n) * 0.28
        let h = headingDegrees * .pi / 180, half = fieldOfViewDegrees / 2 * .pi / 180
        var cone = [here]
        for k in 0...12 {
            let a = h - half + 2 * half * Double(k) / 12
            cone.append(PixelPoint(here.x + sin(a) * depth, here.y - cos(a) * depth))
        }
        canvas.fillPolygon(cone, color: Self.coneColor)
        canvas.fillCircle(center: here, radius: width * 1.6, color: .white)
        canvas.fillCircle(center: here, radius: width * 1.1, color: Self.positionColor)
        // Border.
        canvas.drawPolyline([PixelPoint(0.5, 0.5), PixelPoint(Double(n) - 0.5, 0.5), PixelPoint(Double(n) - 0.5, Double(n) - 0.5),
                             PixelPoint(0.5, Double(n) - 0.5), PixelPoint(0.5, 0.5)],
                            style: StrokeStyle(width: 1), color: RGBAColor(red: 40, green: 40, blue: 40, alpha: 200))
        return canvas.image
    }
}
