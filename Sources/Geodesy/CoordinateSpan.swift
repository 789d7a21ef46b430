/// The extent of a ``CoordinateRegion`` in degrees, as MapKit's `MKCoordinateSpan`.
///
/// Encodes as `{"latitudeDelta": …, "longitudeDelta": …}`; decoding validates.
public struct CoordinateSpan: Sendable, Hashable, Codable {
    /// North-south extent, degrees, in [0, 180].
    public let latitudeDelta: Double
    /// East-west extent, degrees, in [0, 360].
    public let longitudeDelta: Double

    /// Creates a span, rejecting NaN, infinities and out-of-range deltas.
    ///
    /// - Throws: ``GeodesyError/latitudeDeltaOutOfRange(_:)`` unless `latitudeDelta` ∈ [0, 180];
    ///   ``GeodesyError/longitudeDeltaOutOfRange(_:)`` unless `longitudeDelta` ∈ [0, 360].
    public init(latitudeDelta: Double, longitudeDelta: Double) throws(GeodesyError) {
        guard (0...180).contains(latitudeDelta) else { throw .latitudeDeltaOutOfRange(latitudeDelta) }
        guard (0...360).contains(longitudeDelta) else { throw .longitudeDeltaOutOfRange(longitudeDelta) }
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }

    init(uncheckedLatitudeDelta latitudeDelta: Double, longitudeDelta: Double) {
        assert((0...180).contains(latitudeDelta) && (0...360).contains(longitudeDelta))
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }

    /// Also the keys of the synthesized `encode(to:)`, in this order.
    private enum CodingKeys: String, CodingKey { case latitudeDelta, longitudeDelta }

    /// Decodes and validates like ``init(latitudeDelta:longitudeDelta:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(latitudeDelta: try container.decode(Double.self, forKey: .latitudeDelta),
                      longitudeDelta: try container.decode(Double.self, forKey: .longitudeDelta))
    }
}
