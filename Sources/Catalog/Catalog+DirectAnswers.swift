import Foundation
import Geodesy
import MapData

/// The box around a catalog's panoramas (what TileJSON's `bounds`, the page's first view and `lookaround
/// map`'s default camera show when no place is named).
public struct CoverageBounds: Sendable, Hashable, Codable {
    /// The southernmost and northernmost panoramas' latitudes, degrees.
    public var south: Double, north: Double
    /// The westernmost and easternmost panoramas' longitudes, degrees (west ≤ east: a catalog across the
    /// 180th meridian gets the box the long way round).
    public var west: Double, east: Double
    /// Panoramas inside.
    public var panoramaCount: Int

    /// A box from its sides.
    public init(south: Double, north: Double, west: Double, east: Double, panoramaCount: Int) {
        self.south = south
        self.north = north
        self.west = west
        self.east = east
        self.panoramaCount = panoramaCount
    }

    /// The box's centre.
    public var center: GeoCoordinate {
        // The sides are panorama coordinates, so their means are in range.
        do { return try GeoCoordinate(latitude: (south + north) / 2, normalizingLongitude: (west + east) / 2) } catch {
            preconditionFailure("the centre of \(self) is out of range: \(error)")
        }
    }

    /// The region a map of the coverage frames: the box widened by `paddingFraction` of its size on each
    /// side and to at least `minimumMeters` each way (one panorama, or a short sequence: its street).
    public func region(paddingFraction: Double = 0.1, minimumMeters: Double = 400) -> CoordinateRegion {
        let metersPerDegree = WGS84.metersPerDegreeOfArc
        let height = max(minimumMeters, (north - south) * metersPerDegree * (1 + 2 * paddingFraction))
        let width = max(minimumMeters, (east - west) * metersPerDegree * cos(center.latitude * .pi / 180) * (1 + 2 * paddingFraction))
        do {
            return try CoordinateRegion(center: center, latitudinalMeters: min(height, 19_000_000), longitudinalMeters: min(width, 39_000_000))
        } catch {
            // Near a pole the box may not widen: the box as it is.
            do { return try CoordinateRegion(north: north, south: south, west: west, east: max(east, west + 1e-6)) } catch {
                preconditionFailure("the coverage box \(self) is not a region: \(error)")
            }
        }
    }

    /// The largest whole web-map zoom (256-pixel tiles) at which the box, widened by `paddingFraction` of
    /// its size on each side, fits a `widthPoints` × `heightPoints` view, within `range` (one panorama,
    /// or several metres apart: the top of the range).
    public func fittingZoom(widthPoints: Double, heightPoints: Double, paddingFraction: Double = 0.1,
                            range: ClosedRange<Int> = 1...17) -> Int {
        func mercator(_ latitude: Double) -> Double {
            let clamped = min(MapPoint.maximumLatitudeDegrees, max(-MapPoint.maximumLatitudeDegrees, latitude)) * .pi / 180
            return 0.5 - atanh(sin(clamped)) / (2 * .pi)
        }
        let xSpan = (east - west) / 360, ySpan = abs(mercator(south) - mercator(north))
        let grow = 1 + 2 * paddingFraction
        var zoom = range.upperBound
        while zoom > range.lowerBound {
            let worldPoints = 256 * pow(2, Double(zoom))
            if xSpan * grow * worldPoints <= widthPoints && ySpan * grow * worldPoints <= heightPoints { break }
            zoom -= 1
        }
        return zoom
    }
}

extension Catalog {
    /// The first panorama indexed (row 1), nil for an empty catalog: a point the catalog has imagery at.
    public func firstPanorama() throws(CatalogError) -> PanoramaRecord? {
        panoramaCount > 0 ? try panorama(row: 1) : nil
    }

    /// The box around the catalog's panoramas; nil when it holds none.
    public func coverageBounds() throws(CatalogError) -> CoverageBounds? { try store.coverageBounds() }

    /// What `text` names by itself, with or without any map data: a coordinate in any common form
    /// (``CoordinateText``: `43.6124,1.4564`, `43°36′44.6″N 1°27′23″E`, `geo:…`, a map URL), a panorama by
    /// its id or its file's name (`gopro-max-sequence/3`, `R0014760`), a sequence by its name or part of it
    /// (`gopro-max-sequence`). A coordinate is the only answer; otherwise panoramas (exact ids first), then
    /// sequences, at most `limit`, distances from `near` when given.
    /// - Throws: `CatalogError.badCoordinate` for text in a coordinate's form with an impossible part
    ///   (latitude 91, minutes of 60), so a typo is reported rather than looked up as a name.
    public func directAnswers(to text: String, near: GeoCoordinate? = nil, limit: Int = 10) throws(CatalogError) -> [GeocodeResult] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, limit > 0 else { return [] }
        func distance(_ point: GeoCoordinate) -> Double? {
            near.map { Geodesic.wgs84.inverse(from: $0, to: point).distanceMeters }
        }
        do {
            if let point = try CoordinateText.parse(trimmed) {
                let name = String(format: "%.6f, %.6f", point.latitude, point.longitude)
                return [GeocodeResult(coordinate: point, precision: .coordinate, matched: ["coordinate"], name: name, displayName: name,
                                      kind: .exact, score: Self.directAnswerScore, distanceMeters: distance(point))]
            }
        } catch {
            throw .badCoordinate(text: trimmed, reason: error.description)
        }
        // Ids and names are single lines of reasonable length; a sentence is not looked for here.
        guard trimmed.utf8.count <= 512, !trimmed.contains("\n") else { return [] }
        var answers: [GeocodeResult] = []
        for found in try store.panoramas(named: trimmed, limit: limit) {
            guard let point = try? GeoCoordinate(latitude: found.latitude, normalizingLongitude: found.longitude) else { continue }
            let exact = found.id == trimmed
            answers.append(GeocodeResult(coordinate: point, precision: .panorama, matched: ["panorama"], name: found.id,
                                         displayName: "panorama \(found.id)", kind: exact ? .exact : .prefix,
                                         score: Self.directAnswerScore - (exact ? 0 : 500), distanceMeters: distance(point), panoramaID: found.id))
        }
        // Parts of sequence names from three characters on ("a" would name every sequence).
        if answers.count < limit, trimmed.count >= 3 {
            for found in try store.sequences(named: trimmed, limit: limit - answers.count) {
                guard let point = try? GeoCoordinate(latitude: found.latitude, normalizingLongitude: found.longitude) else { continue }
                let exact = found.name.lowercased() == trimmed.lowercased()
                answers.append(GeocodeResult(coordinate: point, precision: .sequence, matched: ["sequence"], name: found.name,
                                             displayName: "sequence \(found.name) (\(found.panoramaCount) panorama\(found.panoramaCount == 1 ? "" : "s"))",
                                             kind: exact ? .exact : .substring, score: exact ? Self.sequenceScore : Self.sequencePartScore,
                                             distanceMeters: distance(point), panoramaID: found.firstPanoramaID))
            }
        }
        return answers
    }

    /// The score of a coordinate or an exact panorama id: above every name match (at most 1200), so what
    /// the text names exactly comes first; a panorama by its file's name, 1500.
    static let directAnswerScore = 2000
    /// A sequence named exactly: just under a place named exactly (1000), whose name it often is (a
    /// sequence shot along "Senaatintori"); part of a sequence's name, under a place's substring match (500).
    static let sequenceScore = 950, sequencePartScore = 450

    /// A direct or geocoded answer as a place search result (what `/v1/search` and `lookaround search`
    /// list): a place of its own kind (`coordinate`, `panorama`, `sequence`, or the locality, street or
    /// address kind), not from the OSM places table (id 0, no `osm`).
    static func placeMatch(_ answer: GeocodeResult, language: String?) -> PlaceMatch {
        if let place = answer.place {
            return PlaceMatch(place: place, displayName: place.name(in: language), matchedName: answer.name, kind: answer.kind,
                              editDistance: 0, score: answer.score, distanceMeters: answer.distanceMeters)
        }
        let category: String = switch answer.precision {
        case .coordinate: "coordinate"
        case .panorama: "panorama"
        case .sequence: "sequence"
        case .house, .interpolated: "address"
        case .street: "street"
        case .postcode: "postcode"
        case .locality: answer.localityKind ?? "locality"
        case .place: "place"
        }
        let place = CatalogPlace(id: 0, osm: answer.osm ?? "", name: answer.name, names: [:], category: category,
                                 categoryGroup: answer.precision == .street || answer.precision == .panorama || answer.precision == .sequence
                                    ? .transport : .service,
                                 address: nil, phone: nil, website: nil, openingHours: nil, coordinate: answer.coordinate)
        return PlaceMatch(place: place, displayName: answer.displayName, matchedName: answer.name, kind: answer.kind, editDistance: 0,
                          score: answer.score, distanceMeters: answer.distanceMeters)
    }
}
