extension MapRect {
    /// The map rectangle covering a region, as MapKit's `MKMapRect` for an `MKCoordinateRegion`.
    ///
    /// The origin x is normalised into the world; a region across the 180th meridian gives a rectangle
    /// extending beyond the world width (``spans180thMeridian``). Latitude edges beyond
    /// ±``MapPoint/maximumLatitudeDegrees`` land on the world's top/bottom edge.
    public init(_ region: CoordinateRegion) {
        let world = MapSize.world
        let west = region.center.longitude - region.span.longitudeDelta / 2
        let x = (west + 180) / 360 * world.width
        let top = MapPoint(GeoCoordinate(uncheckedLatitude: region.northLatitude, longitude: 0)).y
        let bottom = MapPoint(GeoCoordinate(uncheckedLatitude: region.southLatitude, longitude: 0)).y
        self = MapRect(x: x, y: top, width: region.span.longitudeDelta / 360 * world.width,
                       height: bottom - top).normalizedToWorld
    }
}

extension CoordinateRegion {
    /// The region covered by a map rectangle.
    ///
    /// The span runs from the latitude of the top edge to that of the bottom edge and over the rectangle's
    /// width; the centre is the midpoint of those edges in degrees (not the Mercator midpoint), so that
    /// region → rectangle → region round-trips.
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a null or non-finite rectangle;
    ///   ``GeodesyError/longitudeDeltaOutOfRange(_:)`` when it is wider than the world or has negative size.
    public init(_ rect: MapRect) throws(GeodesyError) {
        let world = MapSize.world
        for (name, value) in [("map rect x", rect.minX), ("map rect y", rect.minY),
                              ("map rect width", rect.width), ("map rect height", rect.height)] where !value.isFinite {
            throw .notFinite(parameter: name, value: value)
        }
        let longitudeDelta = rect.width / world.width * 360
        guard (0...360).contains(longitudeDelta) else { throw .longitudeDeltaOutOfRange(longitudeDelta) }
        let north = try MapPoint(x: rect.minX, y: rect.minY).coordinate.latitude
        let south = try MapPoint(x: rect.minX, y: rect.maxY).coordinate.latitude
        guard south <= north else { throw .latitudeDeltaOutOfRange(north - south) }
        let west = rect.minX / world.width * 360 - 180
        self.init(unchecked: GeoCoordinate(uncheckedLatitude: (north + south) / 2,
                                           longitude: GeoCoordinate.normalizedLongitude(west + longitudeDelta / 2)),
                  span: CoordinateSpan(uncheckedLatitudeDelta: north - south, longitudeDelta: longitudeDelta))
    }
}
