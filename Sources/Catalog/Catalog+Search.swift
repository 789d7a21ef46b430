import Foundation
import Geodesy

/// Searches over panoramas and sequences as a whole (what a STAC API lists and searches), the same for
/// both stores.
extension Catalog {
    /// The panoramas `search` finds, one page of them, and where the next page starts.
    /// - Throws: `CatalogError.invalidParameter` for a limit outside 1…10,000 or a box with south > north
    ///   or west > east.
    public func searchPanoramas(_ search: PanoramaSearch) throws(CatalogError) -> PanoramaPage {
        guard PanoramaSearch.limitRange.contains(search.limit) else {
            throw .invalidParameter(name: "limit", value: "\(search.limit)", allowed: "1…10000")
        }
        if let box = search.box, box.south > box.north || box.west > box.east {
            throw .invalidParameter(name: "bbox", value: "\(box.west),\(box.south),\(box.east),\(box.north)",
                                    allowed: "west,south,east,north with west ≤ east and south ≤ north, degrees")
        }
        var probe = search
        probe.limit = search.limit + 1
        let found = try store.panoramas(matching: probe)
        let page = Array(found.prefix(search.limit))
        let more = found.count > search.limit
        let last = page.last.map { search.order == .row ? $0.row : $0.record.sequenceIndex }
        return PanoramaPage(records: page.map(\.record), next: more ? last : nil)
    }

    /// Sequences ordered by name (byte order), `limit` of them after `name` (nil: from the first), and
    /// the name the next page starts after (nil: this is the last page).
    /// - Throws: `CatalogError.invalidParameter` for a limit outside 1…10,000.
    public func sequences(after name: String? = nil, limit: Int) throws(CatalogError) -> (sequences: [CatalogSequence], next: String?) {
        guard PanoramaSearch.limitRange.contains(limit) else {
            throw .invalidParameter(name: "limit", value: "\(limit)", allowed: "1…10000")
        }
        let found = try store.sequences(after: name, named: nil, limit: limit + 1)
        let page = Array(found.prefix(limit))
        return (page, found.count > limit ? page.last?.name : nil)
    }

    /// The sequence named `name`, nil when there is none.
    public func sequence(named name: String) throws(CatalogError) -> CatalogSequence? {
        try store.sequences(after: nil, named: [name], limit: 1).first
    }

    /// The panoramas before and after `record` in its sequence (nil at either end).
    public func sequenceNeighbours(of record: PanoramaRecord) throws(CatalogError) -> (previous: PanoramaRecord?, next: PanoramaRecord?) {
        let around = try store.panoramas(matching: PanoramaSearch(sequences: [record.sequenceName], limit: 3,
                                                                  after: record.sequenceIndex - 2, order: .sequenceIndex))
        return (around.first { $0.record.sequenceIndex < record.sequenceIndex }?.record,
                around.first { $0.record.sequenceIndex > record.sequenceIndex }?.record)
    }

    /// What ``panoramasLooking(at:distanceMeters:toleranceDegrees:filter:)`` may consider at most: the
    /// panoramas in the place's surroundings (a street's worth within 1 km).
    public static let placeCandidateLimit = 10_000

    /// The panoramas that show `place` (Panoramax's `place_position` search): captured between
    /// `distanceMeters` of it (geodesic), and either full 360° panoramas or facing it within
    /// `toleranceDegrees / 2` of their heading; nearest first. `filter`'s other conditions (time, ids,
    /// sequences) apply; its box, limit and start are ignored.
    /// - Throws: `CatalogError.invalidParameter` for a distance range outside 0…1000 m or a tolerance outside 2…180°.
    public func panoramasLooking(at place: GeoCoordinate, distanceMeters: ClosedRange<Double>, toleranceDegrees: Double,
                                 filter: PanoramaSearch = PanoramaSearch()) throws(CatalogError) -> [(record: PanoramaRecord, distanceMeters: Double)] {
        guard distanceMeters.lowerBound >= 0, distanceMeters.upperBound <= 1000 else {
            throw .invalidParameter(name: "place_distance", value: "\(distanceMeters.lowerBound)-\(distanceMeters.upperBound)",
                                    allowed: "MIN-MAX metres within 0-1000")
        }
        guard toleranceDegrees.isFinite, (2...180).contains(toleranceDegrees) else {
            throw .invalidParameter(name: "place_fov_tolerance", value: "\(toleranceDegrees)", allowed: "2…180 degrees")
        }
        let scale = SceneQueryIndex.metersPerE7(atLatitude: place.latitude)
        let reach = distanceMeters.upperBound * 1.01 + 1
        let latitudeSpan = reach / (scale.latitude * 1e7), longitudeSpan = reach / max(scale.longitude * 1e7, 1e-9)
        var search = filter
        search.box = PanoramaSearch.Box(south: max(-90, place.latitude - latitudeSpan), west: max(-180, place.longitude - longitudeSpan),
                                        north: min(90, place.latitude + latitudeSpan), east: min(180, place.longitude + longitudeSpan))
        search.limit = Self.placeCandidateLimit
        search.after = -1
        search.order = .row
        var found: [(record: PanoramaRecord, distanceMeters: Double)] = []
        for (_, record) in try store.panoramas(matching: search) {
            let inverse = Geodesic.wgs84.inverse(from: record.coordinate, to: place)
            guard distanceMeters.contains(inverse.distanceMeters) else { continue }
            if record.horizontalCoverageDegrees < 360 {
                var difference = abs(inverse.initialAzimuth.degrees - record.headingDegrees).truncatingRemainder(dividingBy: 360)
                if difference > 180 { difference = 360 - difference }
                guard difference <= toleranceDegrees / 2 else { continue }
            }
            found.append((record, inverse.distanceMeters))
        }
        return found.sorted { ($0.distanceMeters, $0.record.id) < ($1.distanceMeters, $1.record.id) }
    }
}
