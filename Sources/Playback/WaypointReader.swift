import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Geodesy

/// Reads the line a walk follows from a GeoJSON or GPX file.
///
/// - GeoJSON (RFC 7946): a `LineString`, `MultiLineString`, `MultiPoint` or `Point`, bare, in a `Feature` or in a
///   `FeatureCollection` (their coordinates joined in document order); positions are `[longitude, latitude]`.
///   Errors name the JSON path of the bad value (`features[1].geometry.coordinates[3]`).
/// - GPX 1.0/1.1: the points of its tracks (`trkpt`), else of its routes (`rtept`), else its waypoints
///   (`wpt`), in document order. Errors name the line.
///
/// The format is chosen by the extension (`.gpx`, else GeoJSON).
public enum WaypointReader {
    /// What a file holds: the line and whether its vertices are stops to pause at (points, a GPX route)
    /// or just the shape of a track (a LineString, a GPX track).
    public struct Line: Sendable, Hashable {
        /// Positions in order (at least 2).
        public var points: [GeoCoordinate]
        /// True for points and routes, false for lines and tracks.
        public var pausesAtVertices: Bool
    }

    /// Reads a file.
    /// - Throws: ``PlaybackError/missingInput(file:detail:)``, ``PlaybackError/malformedWaypoints(file:location:detail:)``.
    public static func read(file: String) throws(PlaybackError) -> Line {
        guard FileManager.default.fileExists(atPath: file) else { throw .missingInput(file: file, detail: "no such file; check the path") }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .missingInput(file: file, detail: "cannot be read; check its permissions")
        }
        return (file as NSString).pathExtension.lowercased() == "gpx" ? try parseGPX(data, file: file) : try parseGeoJSON(data, file: file)
    }

    // MARK: GeoJSON

    /// Parses GeoJSON text; `file` names it in errors.
    public static func parseGeoJSON(_ data: Data, file: String) throws(PlaybackError) -> Line {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw .malformedWaypoints(file: file, location: "", detail: "not valid JSON (\(Self.jsonDetail(error)))")
        }
        var points: [GeoCoordinate] = []
        var lines = false
        try geoJSONObject(root, path: "", file: file, into: &points, sawLine: &lines)
        guard points.count >= 2 else {
            throw .malformedWaypoints(file: file, location: "", detail: "\(points.count) position(s); a walk needs at least 2")
        }
        return Line(points: points, pausesAtVertices: !lines)
    }

    private static func jsonDetail(_ error: any Error) -> String {
        let text = (error as NSError).userInfo["NSDebugDescription"] as? String ?? error.localizedDescription
        return text
    }

    private static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private static func geoJSONObject(_ value: Any, path: String, file: String, into points: inout [GeoCoordinate], sawLine: inout Bool) throws(PlaybackError) {
        func fail(_ at: String, _ detail: String) -> PlaybackError { .malformedWaypoints(file: file, location: at, detail: detail) }
        guard let object = value as? [String: Any] else { throw fail(path, "expected a JSON object") }
        guard let type = object["type"] as? String else { throw fail(join(path, "type"), "missing \"type\"") }
        switch type {
        case "FeatureCollection":
            guard let features = object["features"] as? [Any] else { throw fail(join(path, "features"), "expected an array of features") }
            for (i, feature) in features.enumerated() { try geoJSONObject(feature, path: "\(join(path, "features"))[\(i)]", file: file, into: &points, sawLine: &sawLine) }
        case "Feature":
            guard let geometry = object["geometry"], !(geometry is NSNull) else { throw fail(join(path, "geometry"), "missing geometry") }
            try geoJSONObject(geometry, path: join(path, "geometry"), file: file, into: &points, sawLine: &sawLine)
        case "GeometryCollection":
            guard let geometries = object["geometries"] as? [Any] else { throw fail(join(path, "geometries"), "expected an array") }
            for (i, g) in geometries.enumerated() { try geoJSONObject(g, path: "\(join(path, "geometries"))[\(i)]", file: file, into: &points, sawLine: &sawLine) }
        case "Point", "MultiPoint", "LineString", "MultiLineString":
            let at = join(path, "coordinates")
            guard let coordinates = object["coordinates"] as? [Any] else { throw fail(at, "expected an array of coordinates") }
            if type.hasSuffix("LineString") { sawLine = true }
            switch type {
            case "Point": points.append(try position(coordinates, path: at, file: file))
            case "MultiLineString":
                for (i, line) in coordinates.enumerated() {
                    guard let line = line as? [Any] else { throw fail("\(at)[\(i)]", "expected an array of positions") }
                    for (j, p) in line.enumerated() { points.append(try position(p, path: "\(at)[\(i)][\(j)]", file: file)) }
                }
            default:
                for (i, p) in coordinates.enumerated() { points.append(try position(p, path: "\(at)[\(i)]", file: file)) }
            }
        default:
            throw fail(join(path, "type"), "type \"\(type)\" is not a line or points (Polygon areas cannot be walked)")
        }
    }

    private static func position(_ value: Any, path: String, file: String) throws(PlaybackError) -> GeoCoordinate {
        guard let array = value as? [Any], array.count >= 2,
              let lon = (array[0] as? NSNumber)?.doubleValue, let lat = (array[1] as? NSNumber)?.doubleValue,
              !(array[0] is Bool), !(array[1] is Bool) else {
            throw .malformedWaypoints(file: file, location: path, detail: "expected a position [longitude, latitude]")
        }
        do { return try GeoCoordinate(latitude: lat, longitude: lon) } catch {
            throw .malformedWaypoints(file: file, location: path,
                                      detail: "[\(lon), \(lat)] is not a position (latitude -90…90, longitude -180…180, in that order: [longitude, latitude])")
        }
    }

    // MARK: GPX

    /// Parses GPX text; `file` names it in errors.
    public static func parseGPX(_ data: Data, file: String) throws(PlaybackError) -> Line {
        // Foundation's XMLParser traps on element names that are not UTF-8 (found by FuzzGeoJSON):
        // GPX is UTF-8, so anything else is refused before it gets there, with the line it is on.
        if String(validating: data, as: UTF8.self) == nil {
            throw .malformedWaypoints(file: file, location: "", detail: "not UTF-8 text (GPX is UTF-8); save the file as UTF-8")
        }
        if let line = emptyProcessingInstructionLine(data) {
            throw .malformedWaypoints(file: file, location: "line \(line)",
                                      detail: "a processing instruction without data (<?name?>) cannot be read; remove it or give it data (<?name data?>)")
        }
        let parser = XMLParser(data: data)
        let delegate = GPXDelegate(file: file)
        parser.delegate = delegate
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        if !ok || parser.parserError != nil {
            let detail = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not well-formed XML"
            throw .malformedWaypoints(file: file, location: "line \(parser.lineNumber)", detail: "not well-formed XML (\(detail))")
        }
        guard delegate.sawGPX else { throw .malformedWaypoints(file: file, location: "line 1", detail: "the root element is not <gpx>") }
        let points = !delegate.track.isEmpty ? delegate.track : (!delegate.route.isEmpty ? delegate.route : delegate.waypoints)
        guard points.count >= 2 else {
            throw .malformedWaypoints(file: file, location: "", detail: "\(points.count) point(s) in its tracks, routes and waypoints; a walk needs at least 2")
        }
        return Line(points: points, pausesAtVertices: delegate.track.isEmpty)
    }

    /// The line of the first `<?` followed by a name and `?>` (a processing instruction with a target
    /// and no data, `<?a?>`); nil when there is none.
    ///
    /// libxml2 reports such an instruction with a NULL data pointer, and Foundation's XMLParser (Swift
    /// 6.3) passes that to `strlen`: a segmentation fault, whatever the delegate does (found by
    /// FuzzGeoJSON, now FuzzGPX). XMLParser parses in libxml2's recovery mode, which goes on after
    /// errors and may see an instruction where a well-formed reading sees a comment or an attribute
    /// value, so every `<?` is checked, in comments and CDATA sections too (those are refused as
    /// well: an error, never a crash). O(n): the name after one `<?` ends at the next `?`.
    static func emptyProcessingInstructionLine(_ data: Data) -> Int? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int? in
            let bytes = buffer.bindMemory(to: UInt8.self)
            let n = bytes.count
            let question = UInt8(ascii: "?"), newline = UInt8(ascii: "\n")
            var line = 1, i = 0
            while i + 1 < n {
                if bytes[i] == newline { line += 1 }
                guard bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == question else { i += 1; continue }
                // The target: up to white space or a question mark; then "?>" directly means no data.
                var j = i + 2
                targetLoop: while j < n {
                    switch bytes[j] {
                    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), newline, question: break targetLoop
                    default: j += 1
                    }
                }
                if j > i + 2, j + 1 < n, bytes[j] == question, bytes[j + 1] == UInt8(ascii: ">") { return line }
                i += 2
            }
            return nil
        }
    }

    private final class GPXDelegate: NSObject, XMLParserDelegate {
        let file: String
        var track: [GeoCoordinate] = [], route: [GeoCoordinate] = [], waypoints: [GeoCoordinate] = []
        var error: PlaybackError?
        var sawGPX = false

        init(file: String) { self.file = file }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            let name = elementName.split(separator: ":").last.map(String.init) ?? elementName
            if name == "gpx" { sawGPX = true; return }
            guard name == "trkpt" || name == "rtept" || name == "wpt" else { return }
            let line = parser.lineNumber
            guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
                fail(parser, line, "<\(name)> lacks its lat and lon attributes")
                return
            }
            guard let lat = Double(latText), let lon = Double(lonText),
                  let coordinate = try? GeoCoordinate(latitude: lat, longitude: lon) else {
                fail(parser, line, "<\(name) lat=\"\(latText)\" lon=\"\(lonText)\"> is not a position (latitude -90…90, longitude -180…180, in degrees)")
                return
            }
            switch name {
            case "trkpt": track.append(coordinate)
            case "rtept": route.append(coordinate)
            default: waypoints.append(coordinate)
            }
        }

        private func fail(_ parser: XMLParser, _ line: Int, _ detail: String) {
            error = .malformedWaypoints(file: file, location: "line \(line)", detail: detail)
            parser.abortParsing()
        }
    }
}
