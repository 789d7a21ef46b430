/// A Web Mercator map tile in the z/x/y ("slippy map") scheme used by OpenStreetMap, Google and Bing.
///
/// At zoom z the world map (``MapSize/world``) is split into 2^z × 2^z tiles; x grows east from the
/// 180th meridian, y grows south from the top edge (≈85.0511°N). Zoom levels 0...30 are supported.
/// ``quadkey`` gives Bing Maps' one-string form of the same tile.
public struct SlippyTile: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Column, 0 at 180°W, in 0..<2^zoom.
    public let x: Int
    /// Row, 0 at the top (north) edge, in 0..<2^zoom.
    public let y: Int
    /// Zoom level, 0...30.
    public let zoom: Int

    /// The supported zoom levels.
    public static let zoomRange = 0...30

    /// Creates a tile, checking the zoom level and indices.
    ///
    /// - Throws: ``GeodesyError/zoomOutOfRange(_:)`` unless `zoom` ∈ 0...30;
    ///   ``GeodesyError/tileOutOfRange(x:y:zoom:)`` unless x and y ∈ 0..<2^zoom.
    public init(x: Int, y: Int, zoom: Int) throws(GeodesyError) {
        guard Self.zoomRange.contains(zoom) else { throw .zoomOutOfRange(zoom) }
        let count = 1 << zoom
        guard (0..<count).contains(x), (0..<count).contains(y) else { throw .tileOutOfRange(x: x, y: y, zoom: zoom) }
        self.x = x
        self.y = y
        self.zoom = zoom
    }

    /// The tile at `zoom` that contains a coordinate. Latitudes beyond ±``MapPoint/maximumLatitudeDegrees``
    /// belong to the top or bottom row (as on every web map); longitude -180 is column 0.
    ///
    /// - Throws: ``GeodesyError/zoomOutOfRange(_:)`` unless `zoom` ∈ 0...30.
    public init(containing coordinate: GeoCoordinate, zoom: Int) throws(GeodesyError) {
        guard Self.zoomRange.contains(zoom) else { throw .zoomOutOfRange(zoom) }
        let point = MapPoint(coordinate)
        let count = 1 << zoom
        let tileSize = MapSize.world.width / Double(count)
        // The projection maps into [0, W) × [0, H]; the bottom edge itself belongs to the last row.
        x = min(count - 1, max(0, Int((point.x / tileSize).rounded(.down))))
        y = min(count - 1, max(0, Int((point.y / tileSize).rounded(.down))))
        self.zoom = zoom
    }

    /// Decodes a Bing Maps quadkey: one digit 0–3 per zoom level, most significant first
    /// (digit = 2·(y bit) + (x bit)). The empty string is the zoom-0 tile.
    ///
    /// - Throws: ``GeodesyError/invalidQuadkey(_:position:)`` for a character other than 0–3 or more than
    ///   30 digits.
    public init(quadkey: String) throws(GeodesyError) {
        let digits = Array(quadkey)
        guard digits.count <= Self.zoomRange.upperBound else { throw .invalidQuadkey(quadkey, position: nil) }
        var x = 0, y = 0
        for (position, character) in digits.enumerated() {
            guard let value = character.wholeNumberValue, (0...3).contains(value), character.isASCII else {
                throw .invalidQuadkey(quadkey, position: position)
            }
            x = x << 1 | value & 1
            y = y << 1 | value >> 1
        }
        self.x = x
        self.y = y
        zoom = digits.count
    }

    /// The Bing Maps quadkey of the tile ("" at zoom 0), e.g. tile (3, 5) at zoom 3 is "213".
    public var quadkey: String {
        var result = ""
        result.reserveCapacity(zoom)
        for level in stride(from: zoom, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            var digit = 0
            if x & mask != 0 { digit += 1 }
            if y & mask != 0 { digit += 2 }
            result.append(Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8(digit))))
        }
        return result
    }

    /// The tile's area on the world map, map points (exact: tiles are powers of two of a map point).
    public var mapRect: MapRect {
        let size = MapSize.world.width / Double(1 << zoom)
        return MapRect(x: Double(x) * size, y: Double(y) * size, width: size, height: size)
    }

    /// North-west corner of the tile.
    public var northWest: GeoCoordinate { Self.corner(x: x, y: y, zoom: zoom) }

    /// South-east corner of the tile (longitude of the east edge wraps to -180 for the last column).
    public var southEast: GeoCoordinate { Self.corner(x: x + 1, y: y + 1, zoom: zoom) }

    /// The tile's area as a coordinate region (edges exactly the tile's edges).
    public var region: CoordinateRegion {
        let northWest = self.northWest, southEast = self.southEast
        let longitudeDelta = 360 / Double(1 << zoom)
        return CoordinateRegion(
            unchecked: GeoCoordinate(uncheckedLatitude: (northWest.latitude + southEast.latitude) / 2,
                                     longitude: GeoCoordinate.normalizedLongitude(northWest.longitude + longitudeDelta / 2)),
            span: CoordinateSpan(uncheckedLatitudeDelta: northWest.latitude - southEast.latitude,
                                 longitudeDelta: longitudeDelta))
    }

    /// "z/x/y", the path form used by tile servers.
    public var description: String { "\(zoom)/\(x)/\(y)" }

    private static func corner(x: Int, y: Int, zoom: Int) -> GeoCoordinate {
        let size = MapSize.world.width / Double(1 << zoom)
        let point = MapPoint(x: Double(x) * size, y: Double(y) * size)
        // Finite by construction.
        return (try? point.coordinate) ?? GeoCoordinate(uncheckedLatitude: 0, longitude: 0)
    }

    /// Also the keys of the synthesized `encode(to:)`, in this order.
    private enum CodingKeys: String, CodingKey { case x, y, zoom }

    /// Decodes `{"x": …, "y": …, "zoom": …}` and validates like ``init(x:y:zoom:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(x: try container.decode(Int.self, forKey: .x), y: try container.decode(Int.self, forKey: .y),
                      zoom: try container.decode(Int.self, forKey: .zoom))
    }
}
