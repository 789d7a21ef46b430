/// An axis-aligned latitude/longitude box, in degrees.
///
/// The extracts MapData reads are city-sized, so the box never crosses the 180th meridian.
public struct OSMBoundingBox: Sendable, Hashable, Codable {
    /// Southern edge, degrees.
    public var minLatitude: Double
    /// Western edge, degrees.
    public var minLongitude: Double
    /// Northern edge, degrees.
    public var maxLatitude: Double
    /// Eastern edge, degrees.
    public var maxLongitude: Double

    /// A box from its four edges in degrees.
    public init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.minLongitude = minLongitude
        self.maxLatitude = maxLatitude
        self.maxLongitude = maxLongitude
    }

    /// The smallest box around `coordinates`, or nil when there are none.
    public init?<S: Sequence>(enclosing coordinates: S) where S.Element == OSMCoordinate {
        var iterator = coordinates.makeIterator()
        guard let first = iterator.next() else { return nil }
        var box = OSMBoundingBox(point: first)
        while let next = iterator.next() { box.include(next) }
        self = box
    }

    /// The box of one point (its edges all through it).
    public init(point: OSMCoordinate) {
        self.init(minLatitude: point.latitude, minLongitude: point.longitude, maxLatitude: point.latitude, maxLongitude: point.longitude)
    }

    /// Grows `box` to hold `coordinate`; a box not begun yet (nil) becomes the point's (as the readers
    /// grow an extract's box node by node).
    public static func grow(_ box: inout OSMBoundingBox?, toInclude coordinate: OSMCoordinate) {
        if box == nil { box = OSMBoundingBox(point: coordinate) } else { box?.include(coordinate) }
    }

    /// The centre of the box (mean of the edges), degrees.
    public var center: OSMCoordinate {
        OSMCoordinate(latitude: (minLatitude + maxLatitude) / 2, longitude: (minLongitude + maxLongitude) / 2)
    }

    /// Whether `coordinate` lies inside the box or on its edge.
    public func contains(_ coordinate: OSMCoordinate) -> Bool {
        coordinate.latitude >= minLatitude && coordinate.latitude <= maxLatitude
            && coordinate.longitude >= minLongitude && coordinate.longitude <= maxLongitude
    }

    /// Grows the box so that it contains `coordinate`.
    public mutating func include(_ coordinate: OSMCoordinate) {
        minLatitude = Swift.min(minLatitude, coordinate.latitude)
        maxLatitude = Swift.max(maxLatitude, coordinate.latitude)
        minLongitude = Swift.min(minLongitude, coordinate.longitude)
        maxLongitude = Swift.max(maxLongitude, coordinate.longitude)
    }
}
