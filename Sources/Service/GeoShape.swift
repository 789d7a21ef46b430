import Catalog
import Foundation
import Geodesy

/// A GeoJSON geometry a STAC search's `intersects` gives: a Point, Polygon or MultiPolygon (rings of
/// `[longitude, latitude]`, holes after the outer ring), with its bounding box and a point-in-shape
/// test (even-odd rule in longitude/latitude, as GeoJSON's planar semantics).
struct GeoShape {
    struct Failure: Error { var message: String }

    /// Polygons, each its rings (the first outer, the rest holes), each ring `(longitude, latitude)` points.
    private(set) var polygons: [[[(x: Double, y: Double)]]] = []
    /// A Point's position (searches for a point match panoramas within a centimetre of it).
    private(set) var point: (x: Double, y: Double)?

    /// Parses a GeoJSON geometry.
    init(geoJSON bytes: [UInt8]) throws(Failure) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any], let type = object["type"] as? String else {
            throw Failure(message: "not a GeoJSON geometry ({\"type\": \"Polygon\", \"coordinates\": [...]})")
        }
        let coordinates = object["coordinates"]
        func position(_ value: Any?) throws(Failure) -> (x: Double, y: Double) {
            guard let pair = value as? [NSNumber], pair.count >= 2 else { throw Failure(message: "a position is not [longitude, latitude]") }
            let x = pair[0].doubleValue, y = pair[1].doubleValue
            guard x.isFinite, y.isFinite, (-180...180).contains(x), (-90...90).contains(y) else {
                throw Failure(message: "position [\(x), \(y)] is outside longitude -180…180, latitude -90…90")
            }
            return (x, y)
        }
        func polygon(_ value: Any?) throws(Failure) -> [[(x: Double, y: Double)]] {
            guard let rings = value as? [Any], !rings.isEmpty else { throw Failure(message: "a polygon has no rings") }
            var result: [[(x: Double, y: Double)]] = []
            for ring in rings {
                guard let points = ring as? [Any], points.count >= 4 else { throw Failure(message: "a polygon ring has fewer than 4 positions") }
                var parsed: [(x: Double, y: Double)] = []
                for point in points { parsed.append(try position(point)) }
                result.append(parsed)
            }
            return result
        }
        switch type {
        case "Point": point = try position(coordinates)
        case "Polygon": polygons = [try polygon(coordinates)]
        case "MultiPolygon":
            guard let list = coordinates as? [Any], !list.isEmpty else { throw Failure(message: "a MultiPolygon has no polygons") }
            for item in list { polygons.append(try polygon(item)) }
        default:
            throw Failure(message: "geometry type '\(type)' is not searched; give a Point, Polygon or MultiPolygon")
        }
    }

    /// The shape's bounding box.
    var box: PanoramaSearch.Box {
        if let point { return PanoramaSearch.Box(south: point.y - 1e-7, west: point.x - 1e-7, north: point.y + 1e-7, east: point.x + 1e-7) }
        let all = polygons.flatMap { $0.first ?? [] }
        return PanoramaSearch.Box(south: all.map(\.y).min() ?? 0, west: all.map(\.x).min() ?? 0,
                                  north: all.map(\.y).max() ?? 0, east: all.map(\.x).max() ?? 0)
    }

    /// Whether `coordinate` lies in the shape (inside a polygon and outside its holes).
    func contains(_ coordinate: GeoCoordinate) -> Bool {
        if point != nil { return box.contains(coordinate) }
        let x = coordinate.longitude, y = coordinate.latitude
        return polygons.contains { rings in
            var inside = false
            for ring in rings {
                var j = ring.count - 1
                for i in ring.indices {
                    let a = ring[i], b = ring[j]
                    if (a.y > y) != (b.y > y), x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                    j = i
                }
            }
            return inside
        }
    }
}
