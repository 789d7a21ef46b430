import Geodesy
import Imaging

/// A shape drawn over the map, with its renderer's style, as MapKit's overlays and overlay renderers
/// (`MKPolyline`/`MKGeodesicPolyline`, `MKPolygon` with interior polygons, `MKCircle`).
///
/// Each overlay is drawn into its own layer (fill, then stroke) and the layer is composited onto the
/// map with ``alpha`` and ``blendMode``, in insertion order within its ``level``, as MapKit does.
public struct MapOverlay: Sendable, Hashable {
    /// Where in the layer stack an overlay goes (MapKit's `MKOverlayLevel`).
    public enum Level: String, Sendable, Hashable, Codable, CaseIterable {
        /// Above roads and buildings, below labels.
        case aboveRoads = "above-roads"
        /// Above labels (below annotations).
        case aboveLabels = "above-labels"
    }

    /// The shape.
    public enum Geometry: Sendable, Hashable {
        /// A line through the coordinates. `geodesic`: segments longer than
        /// ``MapOverlay/geodesicSegmentMeters`` follow the WGS84 geodesic (a great-circle-like arc, which
        /// crosses the 180th meridian when that is shorter) instead of a straight Mercator line.
        case polyline([GeoCoordinate], geodesic: Bool)
        /// A polygon: an outer ring and holes (rings need not repeat their first point).
        case polygon(outer: [GeoCoordinate], holes: [[GeoCoordinate]])
        /// A circle on the ground: all points `radiusMeters` (geodesic) from `center`.
        case circle(center: GeoCoordinate, radiusMeters: Double)
    }

    /// Segments longer than this (metres) are densified along the geodesic for geodesic polylines.
    public static let geodesicSegmentMeters = 1_000.0

    /// The shape.
    public var geometry: Geometry
    /// Line colour; nil for no line.
    public var strokeColor: RGBAColor?
    /// Fill colour (polygons and circles); nil for no fill.
    public var fillColor: RGBAColor?
    /// Line width, points (> 0).
    public var lineWidthPoints: Double
    /// Opacity of the whole overlay, 0…1 (applied once to the layer, so fill and line do not add up).
    public var alpha: Double
    /// How the layer combines with the map under it (the 12 W3C modes).
    public var blendMode: BlendMode
    /// Above roads or above labels.
    public var level: Level

    /// An overlay; `lineWidthPoints` in points, `alpha` 0…1.
    public init(geometry: Geometry, strokeColor: RGBAColor? = RGBAColor(red: 0, green: 122, blue: 255),
                fillColor: RGBAColor? = nil, lineWidthPoints: Double = 4, alpha: Double = 1,
                blendMode: BlendMode = .normal, level: Level = .aboveRoads) {
        self.geometry = geometry
        self.strokeColor = strokeColor
        self.fillColor = fillColor
        self.lineWidthPoints = lineWidthPoints
        self.alpha = alpha
        self.blendMode = blendMode
        self.level = level
    }

    /// Throws unless the width and alpha are in range and the geometry has enough points.
    func validate() throws(MapSnapshotError) {
        try MapSnapshotError.check(lineWidthPoints, "overlay lineWidthPoints", in: 0...200, allowed: "0…200 points")
        try MapSnapshotError.check(alpha, "overlay alpha", in: 0...1)
        switch geometry {
        case .polyline(let points, _):
            guard points.count >= 2 else {
                throw .valueOutOfRange(parameter: "polyline point count", value: Double(points.count), allowed: "at least 2")
            }
        case .polygon(let outer, _):
            guard outer.count >= 3 else {
                throw .valueOutOfRange(parameter: "polygon point count", value: Double(outer.count), allowed: "at least 3")
            }
        case .circle(_, let radius):
            try MapSnapshotError.check(radius, "circle radiusMeters", in: 0.01...10_000_000, allowed: "0.01…10,000,000 metres")
        }
    }
}
