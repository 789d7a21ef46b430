/// A latitude/longitude rectangle given by its centre and span, as MapKit's `MKCoordinateRegion`.
///
/// The region covers latitudes [center − Δφ/2, center + Δφ/2], which must stay within [-90, 90], and the
/// longitudes from `center.longitude − Δλ/2` eastwards for Δλ degrees, which may cross the 180th
/// meridian (``spans180thMeridian``): a region centred at 179° with Δλ = 4° covers 177°…180° and
/// -180°…-179°. Longitude tests are done on the circle, never by comparing raw numbers.
///
/// Encodes as `{"center": {…}, "span": {…}}`; decoding validates.
public struct CoordinateRegion: Sendable, Hashable, Codable {
    /// The centre of the region.
    public let center: GeoCoordinate
    /// The extent of the region, degrees.
    public let span: CoordinateSpan

    /// Creates a region, checking that its latitude extent stays within [-90, 90] degrees.
    ///
    /// - Throws: ``GeodesyError/regionBeyondPole(centerLatitude:latitudeDelta:)`` when
    ///   `center.latitude ± span.latitudeDelta / 2` leaves [-90, 90].
    public init(center: GeoCoordinate, span: CoordinateSpan) throws(GeodesyError) {
        let half = span.latitudeDelta / 2
        guard center.latitude + half <= 90 + 1e-9, center.latitude - half >= -90 - 1e-9 else {
            throw .regionBeyondPole(centerLatitude: center.latitude, latitudeDelta: span.latitudeDelta)
        }
        self.center = center
        self.span = span
    }

    init(unchecked center: GeoCoordinate, span: CoordinateSpan) {
        self.center = center
        self.span = span
    }

    /// The region bounded by four edges, degrees. `west` to `east` runs eastwards and may cross the 180th
    /// meridian (west 170, east -170 is a 20° wide region); `west == east` is a zero-width region.
    ///
    /// - Throws: ``GeodesyError/latitudeOutOfRange(_:)`` or ``GeodesyError/longitudeOutOfRange(_:)`` for
    ///   invalid edges, ``GeodesyError/latitudeDeltaOutOfRange(_:)`` when `south > north`.
    public init(north: Double, south: Double, west: Double, east: Double) throws(GeodesyError) {
        let northEdge = try GeoCoordinate(latitude: north, longitude: west)
        let southEdge = try GeoCoordinate(latitude: south, longitude: east)
        guard southEdge.latitude <= northEdge.latitude else { throw .latitudeDeltaOutOfRange(north - south) }
        let longitudeDelta = Angle.normalizedHeadingDegrees(southEdge.longitude - northEdge.longitude)
        self.init(unchecked: GeoCoordinate(uncheckedLatitude: (north + south) / 2,
                                           longitude: GeoCoordinate.normalizedLongitude(west + longitudeDelta / 2)),
                  span: CoordinateSpan(uncheckedLatitudeDelta: north - south, longitudeDelta: longitudeDelta))
    }

    /// A region centred on a coordinate whose sides measure about `latitudinalMeters` north-south and
    /// `longitudinalMeters` east-west at the centre, as `MKCoordinateRegion(center:latitudinalMeters:longitudinalMeters:)`.
    ///
    /// Degrees are derived from the WGS84 radii of curvature at the centre latitude (meridional M and
    /// prime-vertical N cos φ), so the sides are exact for small regions and approximate for large ones.
    ///
    /// At a pole the region covers all longitudes (longitude delta 360°).
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a NaN or infinite size;
    ///   ``GeodesyError/latitudeDeltaOutOfRange(_:)`` or ``GeodesyError/longitudeDeltaOutOfRange(_:)`` (in
    ///   degrees) when a size is negative or longer than the meridian / the parallel through the centre;
    ///   ``GeodesyError/regionBeyondPole(centerLatitude:latitudeDelta:)`` when the region would cross a pole.
    public init(center: GeoCoordinate, latitudinalMeters: Double, longitudinalMeters: Double) throws(GeodesyError) {
        guard latitudinalMeters.isFinite else { throw .notFinite(parameter: "latitudinalMeters", value: latitudinalMeters) }
        guard longitudinalMeters.isFinite else { throw .notFinite(parameter: "longitudinalMeters", value: longitudinalMeters) }
        let (sinPhi, cosPhi) = Trigonometry.sinCosDegrees(center.latitude)
        let e2 = WGS84.eccentricitySquared
        let w = (1 - e2 * sinPhi * sinPhi).squareRoot()
        let meridionalRadius = WGS84.equatorialRadiusMeters * (1 - e2) / (w * w * w)
        let parallelRadius = WGS84.equatorialRadiusMeters / w * cosPhi
        let latitudeDelta = latitudinalMeters / meridionalRadius * 180 / .pi
        let longitudeDelta = parallelRadius > 0 ? longitudinalMeters / parallelRadius * 180 / .pi : 360
        try self.init(center: center, span: try CoordinateSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta))
    }

    /// Northern edge, degrees.
    public var northLatitude: Double { min(90, center.latitude + span.latitudeDelta / 2) }
    /// Southern edge, degrees.
    public var southLatitude: Double { max(-90, center.latitude - span.latitudeDelta / 2) }
    /// Western edge, degrees in [-180, 180).
    public var westLongitude: Double { GeoCoordinate.normalizedLongitude(center.longitude - span.longitudeDelta / 2) }
    /// Eastern edge, degrees in [-180, 180); less than ``westLongitude`` when the region spans the 180th
    /// meridian.
    public var eastLongitude: Double { GeoCoordinate.normalizedLongitude(center.longitude + span.longitudeDelta / 2) }

    /// True when the region crosses the 180th meridian.
    public var spans180thMeridian: Bool {
        let west = center.longitude - span.longitudeDelta / 2
        return west < -180 || west + span.longitudeDelta > 180
    }

    /// True when the coordinate lies inside the region or on its edge.
    public func contains(_ coordinate: GeoCoordinate) -> Bool {
        guard coordinate.latitude >= southLatitude, coordinate.latitude <= northLatitude else { return false }
        return Self.arcOffset(from: westLongitude, to: coordinate.longitude) <= span.longitudeDelta
            || span.longitudeDelta >= 360
    }

    /// True when the two regions share at least one point (edges included).
    public func intersects(_ other: CoordinateRegion) -> Bool {
        guard southLatitude <= other.northLatitude, other.southLatitude <= northLatitude else { return false }
        return Self.arcOffset(from: westLongitude, to: other.westLongitude) <= span.longitudeDelta
            || Self.arcOffset(from: other.westLongitude, to: westLongitude) <= other.span.longitudeDelta
    }

    /// The smallest region containing both: latitudes from the southern to the northern edge, and the
    /// shorter of the two eastward longitude arcs that cover both regions (so the union of regions on
    /// both sides of the 180th meridian spans it), at most 360°.
    public func union(_ other: CoordinateRegion) -> CoordinateRegion {
        let north = max(northLatitude, other.northLatitude), south = min(southLatitude, other.southLatitude)
        let fromSelf = max(span.longitudeDelta,
                           Self.arcOffset(from: westLongitude, to: other.westLongitude) + other.span.longitudeDelta)
        let fromOther = max(other.span.longitudeDelta,
                            Self.arcOffset(from: other.westLongitude, to: westLongitude) + span.longitudeDelta)
        let (west, delta) = fromSelf <= fromOther ? (westLongitude, fromSelf) : (other.westLongitude, fromOther)
        let longitudeDelta = min(360, delta)
        return CoordinateRegion(
            unchecked: GeoCoordinate(uncheckedLatitude: (north + south) / 2,
                                     longitude: GeoCoordinate.normalizedLongitude(west + longitudeDelta / 2)),
            span: CoordinateSpan(uncheckedLatitudeDelta: north - south, longitudeDelta: longitudeDelta))
    }

    /// Also the keys of the synthesized `encode(to:)`, in this order.
    private enum CodingKeys: String, CodingKey { case center, span }

    /// Decodes `{"center": {…}, "span": {…}}` and validates like ``init(center:span:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(center: try container.decode(GeoCoordinate.self, forKey: .center),
                      span: try container.decode(CoordinateSpan.self, forKey: .span))
    }

    /// Eastward angle from one longitude to another, degrees in [0, 360).
    private static func arcOffset(from west: Double, to longitude: Double) -> Double {
        Angle.normalizedHeadingDegrees(longitude - west)
    }
}
