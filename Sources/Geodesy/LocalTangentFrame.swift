/// A local east-north-up (ENU) Cartesian frame anchored at a WGS84 position.
///
/// The origin is the anchor point; east and north span the plane tangent to the ellipsoid there, up is
/// the ellipsoid normal. Positions convert through ECEF with an exact rotation, so a round trip
/// geodetic → ENU → geodetic is exact to far below a millimetre at any distance. For a frame near a
/// street, ENU metres are what a renderer wants: flat, metric, and z up.
public struct LocalTangentFrame: Sendable, Hashable {
    /// The anchor: coordinate and ellipsoidal height of the frame's origin.
    public let origin: GeodeticPosition
    /// The anchor in ECEF, metres.
    public let originECEF: ECEFPosition

    // Rows of the ECEF → ENU rotation.
    private let east: (x: Double, y: Double, z: Double)
    private let north: (x: Double, y: Double, z: Double)
    private let up: (x: Double, y: Double, z: Double)

    /// Creates the frame anchored at a coordinate and ellipsoidal height (metres).
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a NaN or infinite height.
    public init(origin coordinate: GeoCoordinate, heightMeters: Double = 0) throws(GeodesyError) {
        self.init(origin: try GeodeticPosition(coordinate: coordinate, heightMeters: heightMeters))
    }

    /// Creates the frame anchored at a geodetic position.
    public init(origin: GeodeticPosition) {
        self.origin = origin
        originECEF = ECEFPosition(origin)
        let (sinPhi, cosPhi) = Trigonometry.sinCosDegrees(origin.coordinate.latitude)
        let (sinLambda, cosLambda) = Trigonometry.sinCosDegrees(origin.coordinate.longitude)
        east = (-sinLambda, cosLambda, 0)
        north = (-sinPhi * cosLambda, -sinPhi * sinLambda, cosPhi)
        up = (cosPhi * cosLambda, cosPhi * sinLambda, sinPhi)
    }

    /// The ENU vector (metres) from the origin to an ECEF position.
    public func enu(from position: ECEFPosition) -> EastNorthUp {
        let dx = position.x - originECEF.x, dy = position.y - originECEF.y, dz = position.z - originECEF.z
        return EastNorthUp(east: east.x * dx + east.y * dy + east.z * dz,
                           north: north.x * dx + north.y * dy + north.z * dz,
                           up: up.x * dx + up.y * dy + up.z * dz)
    }

    /// The ENU vector (metres) from the origin to a coordinate at an ellipsoidal height (metres).
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a NaN or infinite height.
    public func enu(from coordinate: GeoCoordinate, heightMeters: Double = 0) throws(GeodesyError) -> EastNorthUp {
        enu(from: try ECEFPosition(coordinate, heightMeters: heightMeters))
    }

    /// The ECEF position of an ENU vector (metres) in this frame.
    public func ecef(from vector: EastNorthUp) -> ECEFPosition {
        // The rotation is orthonormal: its inverse is its transpose.
        ECEFPosition(x: originECEF.x + east.x * vector.east + north.x * vector.north + up.x * vector.up,
                     y: originECEF.y + east.y * vector.east + north.y * vector.north + up.y * vector.up,
                     z: originECEF.z + east.z * vector.east + north.z * vector.north + up.z * vector.up)
    }

    /// The geodetic position (coordinate and ellipsoidal height) of an ENU vector in this frame.
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a NaN or infinite component.
    public func geodetic(from vector: EastNorthUp) throws(GeodesyError) -> GeodeticPosition {
        guard vector.east.isFinite else { throw .notFinite(parameter: "east metres", value: vector.east) }
        guard vector.north.isFinite else { throw .notFinite(parameter: "north metres", value: vector.north) }
        guard vector.up.isFinite else { throw .notFinite(parameter: "up metres", value: vector.up) }
        return try ecef(from: vector).geodetic()
    }

    /// Frames are equal when anchored at the same position.
    public static func == (lhs: LocalTangentFrame, rhs: LocalTangentFrame) -> Bool { lhs.origin == rhs.origin }

    /// Hashes the anchor position.
    public func hash(into hasher: inout Hasher) { hasher.combine(origin) }
}
