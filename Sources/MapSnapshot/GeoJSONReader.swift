import Foundation
import Geodesy
import Imaging

/// Reads overlays, pins and panorama positions from GeoJSON (RFC 7946), with styling properties after
/// the simplestyle spec plus a few of ours:
///
/// | property | applies to | meaning |
/// |---|---|---|
/// | `stroke` | lines, polygons, circles | line colour, `#rrggbb`, `#rgb` or `#rrggbbaa` |
/// | `stroke-width` | lines, polygons, circles | line width, points (0…200) |
/// | `stroke-opacity` | lines, polygons, circles | line colour alpha, 0…1 |
/// | `fill`, `fill-opacity` | polygons, circles | fill colour and its alpha |
/// | `opacity` | any overlay | alpha of the whole overlay, 0…1 |
/// | `blend-mode` | any overlay | `normal`, `multiply`, `screen`, `overlay`, `darken`, `lighten`, `color-burn`, `hard-light`, `hue`, `saturation`, `color`, `luminosity` |
/// | `level` | any overlay | `above-roads` (default) or `above-labels` |
/// | `geodesic` | lines | `false` for straight Mercator lines (default `true`) |
/// | `radius-meters` | points | draw a circle overlay of this radius instead of a pin |
/// | `title` (or `name`) | points | the pin's title |
/// | `marker-color` | points | the pin's colour |
/// | `cluster` | points | clustering identifier: dense pins with the same value are grouped |
///
/// Geometries: `Point`, `MultiPoint`, `LineString`, `MultiLineString`, `Polygon` (first ring outer, the
/// rest holes), `MultiPolygon`, `GeometryCollection`; inside a `FeatureCollection`, a `Feature` or bare.
public enum GeoJSONReader {
    /// What a GeoJSON document holds.
    public struct Content: Sendable {
        /// Lines, polygons and circles, in document order.
        public var overlays: [MapOverlay] = []
        /// Pins for points without `radius-meters`, in document order.
        public var annotations: [MapAnnotation] = []
        /// Every point position (for coverage files), in document order.
        public var points: [GeoCoordinate] = []
    }

    /// Reads a GeoJSON file. `defaults` gives the style for features without styling properties.
    /// - Throws: ``MapSnapshotError/missingInput(file:detail:)`` when the file cannot be read;
    ///   ``MapSnapshotError/malformedGeoJSON(file:path:detail:)`` naming the JSON path of the bad value.
    public static func read(file: String, defaults: MapOverlay = MapOverlay(geometry: .polyline([], geodesic: true))) throws(MapSnapshotError) -> Content {
        guard FileManager.default.fileExists(atPath: file) else {
            throw .missingInput(file: file, detail: "no such file; check the path")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .missingInput(file: file, detail: "cannot be read; check its permissions")
        }
        return try parse(data, file: file, defaults: defaults)
    }

    /// Parses GeoJSON text; `file` names it in errors.
    /// - Throws: ``MapSnapshotError/malformedGeoJSON(file:path:detail:)``.
    public static func parse(_ data: Data, file: String, defaults: MapOverlay = MapOverlay(geometry: .polyline([], geodesic: true))) throws(MapSnapshotError) -> Content {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw .malformedGeoJSON(file: file, path: "", detail: "not valid JSON (\(error.localizedDescription)); check the file is GeoJSON")
        }
        var reader = Reader(file: file, defaults: defaults)
        try reader.object(root, path: "")
        return reader.content
    }

    struct Reader {
        let file: String
        let defaults: MapOverlay
        var content = Content()

        func fail(_ path: String, _ detail: String) -> MapSnapshotError { .malformedGeoJSON(file: file, path: path, detail: detail) }

        func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        mutating func object(_ value: Any, path: String) throws(MapSnapshotError) {
            guard let dict = value as? [String: Any] else { throw fail(path, "expected a JSON object") }
            guard let type = dict["type"] as? String else { throw fail(join(path, "type"), "missing \"type\"; expected FeatureCollection, Feature or a geometry") }
            switch type {
            case "FeatureCollection":
                guard let features = dict["features"] as? [Any] else { throw fail(join(path, "features"), "expected an array of features") }
                for (i, f) in features.enumerated() { try object(f, path: "\(join(path, "features"))[\(i)]") }
            case "Feature":
                let properties = dict["properties"] as? [String: Any] ?? [:]
                guard let geometry = dict["geometry"] else { throw fail(join(path, "geometry"), "missing geometry") }
                if geometry is NSNull { return }
                try self.geometry(geometry, properties: properties, path: join(path, "geometry"), propertiesPath: join(path, "properties"))
            default:
                try geometry(dict, properties: [:], path: path, propertiesPath: path)
            }
        }

        func coordinate(_ value: Any, path: String) throws(MapSnapshotError) -> GeoCoordinate {
            guard let array = value as? [Any], array.count >= 2,
                  let lon = (array[0] as? NSNumber)?.doubleValue, let lat = (array[1] as? NSNumber)?.doubleValue else {
                throw fail(path, "expected a position [longitude, latitude] in degrees")
            }
            do { return try GeoCoordinate(latitude: lat, normalizingLongitude: lon) } catch {
                throw fail(path, "\(error)")
            }
        }

        func positions(_ value: Any, path: String, minimum: Int) throws(MapSnapshotError) -> [GeoCoordinate] {
            guard let array = value as? [Any] else { throw fail(path, "expected an array of positions") }
            guard array.count >= minimum else { throw fail(path, "expected at least \(minimum) positions, found \(array.count)") }
            var out: [GeoCoordinate] = []
            for (i, p) in array.enumerated() { out.append(try coordinate(p, path: "\(path)[\(i)]")) }
            return out
        }

        mutating func geometry(_ value: Any, properties: [String: Any], path: String, propertiesPath: String) throws(MapSnapshotError) {
            guard let dict = value as? [String: Any], let type = dict["type"] as? String else {
                throw fail(path, "expected a geometry object with a \"type\"")
            }
            if type == "GeometryCollection" {
                guard let geometries = dict["geometries"] as? [Any] else { throw fail(join(path, "geometries"), "expected an array") }
                for (i, g) in geometries.enumerated() {
                    try geometry(g, properties: properties, path: "\(join(path, "geometries"))[\(i)]", propertiesPath: propertiesPath)
                }
                return
            }
            guard let coordinates = dict["coordinates"] else { throw fail(join(path, "coordinates"), "missing coordinates") }
            let cpath = join(path, "coordinates")
            switch type {
            case "Point":
                try point(try coordinate(coordinates, path: cpath), properties: properties, path: propertiesPath)
            case "MultiPoint":
                for c in try positions(coordinates, path: cpath, minimum: 0) { try point(c, properties: properties, path: propertiesPath) }
            case "LineString":
                let line = try positions(coordinates, path: cpath, minimum: 2)
                try addOverlay(.polyline(line, geodesic: (properties["geodesic"] as? Bool) ?? true), properties, propertiesPath)
            case "MultiLineString":
                guard let lines = coordinates as? [Any] else { throw fail(cpath, "expected an array of lines") }
                for (i, l) in lines.enumerated() {
                    let line = try positions(l, path: "\(cpath)[\(i)]", minimum: 2)
                    try addOverlay(.polyline(line, geodesic: (properties["geodesic"] as? Bool) ?? true), properties, propertiesPath)
                }
            case "Polygon":
                try polygon(coordinates, path: cpath, properties, propertiesPath)
            case "MultiPolygon":
                guard let polygons = coordinates as? [Any] else { throw fail(cpath, "expected an array of polygons") }
                for (i, p) in polygons.enumerated() { try polygon(p, path: "\(cpath)[\(i)]", properties, propertiesPath) }
            default:
                throw fail(join(path, "type"), "unknown geometry type \"\(type)\"; expected Point, MultiPoint, LineString, "
                           + "MultiLineString, Polygon, MultiPolygon or GeometryCollection")
            }
        }

        mutating func polygon(_ value: Any, path: String, _ properties: [String: Any], _ propertiesPath: String) throws(MapSnapshotError) {
            guard let rings = value as? [Any], !rings.isEmpty else { throw fail(path, "expected an array of linear rings") }
            var parsed: [[GeoCoordinate]] = []
            for (i, r) in rings.enumerated() {
                var ring = try positions(r, path: "\(path)[\(i)]", minimum: 4)
                if ring.first == ring.last { ring.removeLast() }
                parsed.append(ring)
            }
            try addOverlay(.polygon(outer: parsed[0], holes: Array(parsed.dropFirst())), properties, propertiesPath)
        }

        mutating func point(_ c: GeoCoordinate, properties: [String: Any], path: String) throws(MapSnapshotError) {
            content.points.append(c)
            if let radius = properties["radius-meters"] {
                guard let r = (radius as? NSNumber)?.doubleValue else { throw fail(join(path, "radius-meters"), "expected a number of metres") }
                try addOverlay(.circle(center: c, radiusMeters: r), properties, path)
                return
            }
            var color = RGBAColor(red: 234, green: 67, blue: 53)
            if let text = properties["marker-color"] { color = try self.color(text, path: join(path, "marker-color")) }
            let title = (properties["title"] as? String) ?? (properties["name"] as? String)
            content.annotations.append(MapAnnotation(coordinate: c, title: title, appearance: .pin(color: color),
                                                     clusteringIdentifier: properties["cluster"] as? String))
        }

        func number(_ properties: [String: Any], _ key: String, path: String, in range: ClosedRange<Double>) throws(MapSnapshotError) -> Double? {
            guard let value = properties[key] else { return nil }
            guard let n = (value as? NSNumber)?.doubleValue, n.isFinite, range.contains(n) else {
                throw fail(join(path, key), "expected a number in \(range.lowerBound)…\(range.upperBound), found \(value)")
            }
            return n
        }

        func color(_ value: Any, path: String) throws(MapSnapshotError) -> RGBAColor {
            guard let text = value as? String, let c = RGBAColor(hex: text) else {
                throw fail(path, "expected a colour #rrggbb, #rgb or #rrggbbaa, found \(value)")
            }
            return c
        }

        mutating func addOverlay(_ geometry: MapOverlay.Geometry, _ properties: [String: Any], _ path: String) throws(MapSnapshotError) {
            var overlay = defaults
            overlay.geometry = geometry
            if let s = properties["stroke"] { overlay.strokeColor = try color(s, path: join(path, "stroke")) }
            if let o = try number(properties, "stroke-opacity", path: path, in: 0...1) {
                overlay.strokeColor = overlay.strokeColor?.withAlpha(UInt8((o * 255).rounded()))
            }
            if let w = try number(properties, "stroke-width", path: path, in: 0...200) { overlay.lineWidthPoints = w }
            if let f = properties["fill"] { overlay.fillColor = try color(f, path: join(path, "fill")) }
            if let o = try number(properties, "fill-opacity", path: path, in: 0...1) {
                overlay.fillColor = (overlay.fillColor ?? RGBAColor(red: 0, green: 122, blue: 255)).withAlpha(UInt8((o * 255).rounded()))
            }
            if let a = try number(properties, "opacity", path: path, in: 0...1) { overlay.alpha = a }
            if let m = properties["blend-mode"] {
                guard let name = m as? String, let mode = BlendMode(rawValue: name) else {
                    throw fail(join(path, "blend-mode"), "unknown blend mode \(m); expected one of "
                               + BlendMode.allCases.map(\.rawValue).joined(separator: ", "))
                }
                overlay.blendMode = mode
            }
            if let l = properties["level"] {
                guard let name = l as? String, let level = MapOverlay.Level(rawValue: name) else {
                    throw fail(join(path, "level"), "unknown level \(l); expected above-roads or above-labels")
                }
                overlay.level = level
            }
            if case .polygon = geometry, properties["fill"] == nil, properties["fill-opacity"] == nil, overlay.fillColor == nil {
                overlay.fillColor = (overlay.strokeColor ?? RGBAColor(red: 0, green: 122, blue: 255)).withAlpha(80)
            }
            if case .circle = geometry, properties["fill"] == nil, properties["fill-opacity"] == nil, overlay.fillColor == nil {
                overlay.fillColor = (overlay.strokeColor ?? RGBAColor(red: 0, green: 122, blue: 255)).withAlpha(80)
            }
            content.overlays.append(overlay)
        }
    }
}
