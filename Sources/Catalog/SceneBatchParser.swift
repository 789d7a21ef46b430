import Foundation
import Geodesy

/// Reads batch scene requests, one per line, in either format (lines may mix):
///
/// - CSV: `latitude,longitude[,radius_meters[,id]]`; a first line with letters is a header and is skipped.
/// - JSON Lines: `{"latitude": 60.17, "longitude": 24.95, "radius_meters": 50, "id": "a",
///   "preference": "best", "source": "photo"}` (`lat`/`lon` also accepted); `"zoom": 17` instead of a
///   radius searches as a click on a web map at that zoom does (``SceneRequest/clickRadiusMeters(zoom:latitude:)``).
///
/// Blank lines and lines starting with `#` are skipped. Missing fields take the defaults given.
public struct SceneBatchParser: Sendable {
    /// Radius, preference, source and date window for lines that do not set them.
    public var defaults: SceneRequest

    /// The web-map zoom of lines that give neither a radius nor a zoom: their radius is then a click's at
    /// that zoom (``SceneRequest/clickRadiusMeters(zoom:latitude:)``) instead of the defaults'.
    public var zoom: Double?

    /// A parser with these defaults (the defaults' coordinate is ignored).
    public init(defaults: SceneRequest, zoom: Double? = nil) {
        self.defaults = defaults
        self.zoom = zoom
    }

    private struct JSONLine: Decodable {
        var latitude: Double?, longitude: Double?, lat: Double?, lon: Double?
        var radiusMeters: Double?, id: String?, preference: ScenePreference?, source: SourceFilter?
        var zoom: Double?
    }

    /// Parses line `number` (1-based). Returns nil for lines to skip.
    /// - Throws: `CatalogError.badBatchLine` naming the line, or `.invalidParameter` for out-of-range values.
    public func parse(_ line: String, number: Int) throws(CatalogError) -> (request: SceneRequest, id: String?)? {
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty || text.hasPrefix("#") { return nil }
        var request = defaults
        var latitude: Double?, longitude: Double?, id: String?
        // A line's own radius, else its zoom, else the parser's zoom, else the defaults' radius.
        var radiusGiven = false, zoom = self.zoom
        if text.hasPrefix("{") {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let value: JSONLine
            do { value = try decoder.decode(JSONLine.self, from: Data(text.utf8)) } catch {
                throw .badBatchLine(line: number, text: text, detail: "not a JSON object with numeric latitude/longitude")
            }
            latitude = value.latitude ?? value.lat
            longitude = value.longitude ?? value.lon
            if let radius = value.radiusMeters { request.radiusMeters = radius; radiusGiven = true }
            if let lineZoom = value.zoom { zoom = lineZoom }
            if value.radiusMeters != nil && value.zoom != nil {
                throw .badBatchLine(line: number, text: text, detail: "give radius_meters or zoom, not both")
            }
            if let preference = value.preference { request.preference = preference }
            if let source = value.source { request.source = source }
            id = value.id
        } else {
            let fields = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if number == 1 && fields.first.map({ Double($0) == nil && $0.contains(where: \.isLetter) }) == true { return nil }
            guard fields.count >= 2 && fields.count <= 4 else {
                throw .badBatchLine(line: number, text: text, detail: "expected 2 to 4 comma-separated fields, found \(fields.count)")
            }
            latitude = Self.decimal(fields[0])
            longitude = Self.decimal(fields[1])
            if fields.count >= 3 && !fields[2].isEmpty {
                guard let radius = Self.decimal(fields[2]) else {
                    throw .badBatchLine(line: number, text: text, detail: "radius '\(fields[2])' is not a finite decimal number")
                }
                request.radiusMeters = radius
                radiusGiven = true
            }
            if fields.count == 4 && !fields[3].isEmpty { id = fields[3] }
        }
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite else {
            throw .badBatchLine(line: number, text: text, detail: "latitude and longitude must be finite numbers")
        }
        do {
            request.coordinate = try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
        } catch {
            throw .badBatchLine(line: number, text: text, detail: "\(error)")
        }
        guard longitude >= -180 && longitude <= 180 else {
            throw .badBatchLine(line: number, text: text, detail: "longitude \(longitude) is outside -180…180 degrees")
        }
        if !radiusGiven, let zoom {
            guard zoom.isFinite, SceneRequest.zoomRange.contains(zoom) else {
                throw .badBatchLine(line: number, text: text, detail: "zoom \(zoom) is outside 0…24")
            }
            request.radiusMeters = SceneRequest.clickRadiusMeters(zoom: zoom, latitude: latitude)
        }
        do { try request.validate() } catch { throw .badBatchLine(line: number, text: text, detail: error.description) }
        return (request, id)
    }

    /// A CSV field as a finite decimal number: only digits, a sign, a point and an exponent may appear
    /// (`Double(_:)` alone also reads `0x3cp0` as 60 and `inf`), as in the HTTP queries and on the command line.
    static func decimal(_ field: String) -> Double? {
        guard !field.isEmpty, field.utf8.allSatisfy({ (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 || $0 == 101 || $0 == 69 }),
              let value = Double(field), value.isFinite else { return nil }
        return value
    }
}
