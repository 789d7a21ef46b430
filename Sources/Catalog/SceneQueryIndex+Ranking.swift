import Geodesy

extension SceneQueryIndex {
    /// The squared distance ``search(_:)`` ranks by, metres²: the local equirectangular approximation
    /// at the query latitude (Karney's geodesic above ``polarLatitude``), from 1e-7° positions.
    @inline(__always)
    static func approximateDistanceSquared(from coordinate: GeoCoordinate, latitudeE7: Int32, longitudeE7: Int32) -> Double {
        let qLat = Int64((coordinate.latitude * 1e7).rounded()), qLon = Int64((coordinate.longitude * 1e7).rounded())
        if abs(coordinate.latitude) > polarLatitude { return geodesicDistanceSquared(from: coordinate, latitudeE7, longitudeE7) }
        let scale = metersPerE7(atLatitude: coordinate.latitude)
        let dLatE7 = Int64(latitudeE7) - qLat
        var dLonE7 = Int64(longitudeE7) - qLon
        if dLonE7 > 1_800_000_000 { dLonE7 -= 3_600_000_000 } else if dLonE7 < -1_800_000_000 { dLonE7 += 3_600_000_000 }
        let dy = Double(dLatE7) * scale.latitude, dx = Double(dLonE7) * scale.longitude
        return dx * dx + dy * dy
    }

    /// The order ``search(_:)`` visits points in: by fine cell, then row.
    static func storageKey(_ candidate: Entry) -> (UInt64, UInt32) {
        (fineKey(row: row(latitudeE7: Int64(candidate.latitudeE7)), column: column(longitudeE7: Int64(candidate.longitudeE7))),
         candidate.row)
    }

    /// Picks among `candidates` exactly as ``search(_:)`` picks among the points of its cells: the same
    /// radius test, filters, preference and ties. So a store that finds candidates another way (the
    /// PostGIS store's KNN query) answers as the in-memory index does, provided the candidates include
    /// every point that could win.
    static func rank(_ candidates: [Entry], for query: Query) -> CatalogStoreHit {
        let ordered = candidates.sorted { storageKey($0) < storageKey($1) }
        let radiusSquared = query.radiusMeters * query.radiusMeters
        let best = query.preference == .best
        var chosen: Int?
        var withinRadius = 0
        var bestDistanceSquared = Double.infinity
        var bestRank: Int64 = .min
        for (i, candidate) in ordered.enumerated() {
            let d2 = approximateDistanceSquared(from: query.coordinate, latitudeE7: candidate.latitudeE7,
                                                longitudeE7: candidate.longitudeE7)
            guard d2 <= radiusSquared else { continue }
            withinRadius += 1
            guard passesFilters(flags: candidate.flags, minute: candidate.captureMinute, query) else { continue }
            if best {
                let rank = preferenceRank(flags: candidate.flags, minute: candidate.captureMinute)
                if rank > bestRank || (rank == bestRank && d2 < bestDistanceSquared) {
                    bestRank = rank
                    bestDistanceSquared = d2
                    chosen = i
                }
            } else if d2 < bestDistanceSquared {
                bestDistanceSquared = d2
                chosen = i
            }
        }
        return CatalogStoreHit(row: chosen.map { Int(ordered[$0].row) },
                               approximateDistanceMeters: chosen == nil ? .infinity : bestDistanceSquared.squareRoot(),
                               withinRadius: withinRadius)
    }

    /// How many of `positions` (1e-7°) lie within the query's radius by ``search(_:)``'s test.
    static func countWithin(_ positions: [(Int32, Int32)], of query: Query) -> Int {
        let radiusSquared = query.radiusMeters * query.radiusMeters
        return positions.reduce(0) { count, position in
            count + (approximateDistanceSquared(from: query.coordinate, latitudeE7: position.0, longitudeE7: position.1)
                     <= radiusSquared ? 1 : 0)
        }
    }
}
