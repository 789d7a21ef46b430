@testable import Catalog
import Foundation
import Geodesy
import Testing
import TestSupport

@Suite struct SceneQueryIndexTests {
    static func entries(around center: (Double, Double), count: Int, spreadDegrees: Double, seed: UInt64)
        -> [SceneQueryIndex.Entry] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { i in
            let lat = max(-90, min(90, center.0 + (random.unit() - 0.5) * spreadDegrees))
            var lon = center.1 + (random.unit() - 0.5) * spreadDegrees * 2
            if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            return SceneQueryIndex.Entry(latitudeE7: Int32((lat * 1e7).rounded()), longitudeE7: Int32((lon * 1e7).rounded()),
                                         row: UInt32(i + 1), captureMinute: Int32(i % 1000), flags: UInt8(i % 8))
        }
    }

    /// The plain reference: every point, Karney distance.
    static func bruteForce(_ entries: [SceneQueryIndex.Entry], _ query: GeoCoordinate, radius: Double) -> (row: UInt32, distance: Double)? {
        var best: (UInt32, Double)?
        for entry in entries {
            guard let c = try? GeoCoordinate(latitude: Double(entry.latitudeE7) / 1e7,
                                             normalizingLongitude: Double(entry.longitudeE7) / 1e7) else { continue }
            let d = Geodesic.wgs84.inverse(from: query, to: c).distanceMeters
            if d <= radius && (best == nil || d < best!.1) { best = (entry.row, d) }
        }
        return best
    }

    @Test(arguments: [(60.17, 24.95), (0.0, 179.9995), (-33.86, 151.2), (0.0, -179.9995), (89.9990, 10.0)])
    func nearestMatchesBruteForceKarney(center: (Double, Double)) throws {
        let entries = Self.entries(around: center, count: 600, spreadDegrees: 0.01, seed: 7)
        let index = SceneQueryIndex(entries: entries)
        var random = SeededRandom(seed: 99)
        for _ in 0..<60 {
            let lat = max(-90, min(90, center.0 + (random.unit() - 0.5) * 0.012))
            let query = try GeoCoordinate(latitude: lat, normalizingLongitude: center.1 + (random.unit() - 0.5) * 0.024)
            let radius = [5.0, 20, 50, 200, 2000][Int(random.unit() * 5)]
            let hit = index.search(SceneQueryIndex.Query(coordinate: query, radiusMeters: radius))
            let reference = Self.bruteForce(entries, query, radius: radius)
            if let reference, reference.distance < radius * 0.999 {
                #expect(hit.found, "query \(query) radius \(radius)")
                guard hit.found else { continue }
                // The chosen panorama is the reference one, or one at the same distance within the approximation error.
                let chosen = entries[Int(index.rows[hit.position]) - 1]
                let c = try GeoCoordinate(latitude: Double(chosen.latitudeE7) / 1e7, normalizingLongitude: Double(chosen.longitudeE7) / 1e7)
                let d = Geodesic.wgs84.inverse(from: query, to: c).distanceMeters
                #expect(abs(d - reference.distance) <= 0.01 + reference.distance * 1e-3, "\(d) vs \(reference.distance)")
                #expect(abs(hit.approximateDistanceMeters - d) <= 0.01 + d * 1e-3)
            } else if reference == nil {
                #expect(!hit.found || hit.approximateDistanceMeters > radius * 0.998)
            }
        }
    }

    /// The plain reference for ``SceneQueryIndex/search(_:)``'s exact answer: every point ranked by
    /// ``SceneQueryIndex/rank(_:for:)`` (the same distance formula, filters, preference and ties, no cells).
    static func exactReference(_ entries: [SceneQueryIndex.Entry], _ query: SceneQueryIndex.Query) -> CatalogStoreHit {
        SceneQueryIndex.rank(entries, for: query)
    }

    /// The index's search done plainly, without its cell tables: the points of the cells the query's plan
    /// visits, found by scanning every point, taken in the order the search visits them and chosen by the
    /// same rules. Above 80° the cells are chosen by the equirectangular box while distances are Karney's,
    /// so there this, not the brute force over all points, is what the search must equal.
    static func plainSearch(_ index: SceneQueryIndex, _ query: SceneQueryIndex.Query) -> SceneQueryIndex.Hit {
        let plan = SceneQueryIndex.plan(latitude: query.coordinate.latitude, longitude: query.coordinate.longitude,
                                        radiusMeters: query.radiusMeters)
        var byFine: [UInt64: [Int]] = [:], byCoarse: [UInt64: [Int]] = [:]
        for i in 0..<index.count {
            let r = SceneQueryIndex.row(latitudeE7: Int64(index.latitudesE7[i])), c = SceneQueryIndex.column(longitudeE7: Int64(index.longitudesE7[i]))
            byFine[SceneQueryIndex.fineKey(row: r, column: c), default: []].append(i)
            byCoarse[SceneQueryIndex.coarseKey(row: r >> 6, column: c >> 6), default: []].append(i)
        }
        var order: [Int] = []
        if plan.fineCellCount > SceneQueryIndex.maximumFineCells {
            let coarseColumns = SceneQueryIndex.fineColumns >> 6, c0 = plan.column0 >> 6
            let n = min((plan.column0 + plan.columnCount - 1) >> 6 - c0 + 1, coarseColumns)
            for r in (plan.row0 >> 6)...(plan.row1 >> 6) {
                for k in 0..<n { order += byCoarse[SceneQueryIndex.coarseKey(row: r, column: (c0 + k) % coarseColumns)] ?? [] }
            }
        } else {
            for r in plan.row0...plan.row1 {
                for k in 0..<plan.columnCount {
                    order += byFine[SceneQueryIndex.fineKey(row: r, column: (plan.column0 + k) % SceneQueryIndex.fineColumns)] ?? []
                }
            }
        }
        var hit = SceneQueryIndex.Hit(position: -1, approximateDistanceMeters: .infinity, withinRadius: 0, accepted: 0)
        var bestD2 = Double.infinity, bestRank = Int64.min
        for i in order {
            let d2 = SceneQueryIndex.approximateDistanceSquared(from: query.coordinate, latitudeE7: index.latitudesE7[i],
                                                                longitudeE7: index.longitudesE7[i])
            guard d2 <= query.radiusMeters * query.radiusMeters else { continue }
            hit.withinRadius += 1
            guard SceneQueryIndex.passesFilters(flags: index.flags[i], minute: index.captureMinutes[i], query) else { continue }
            hit.accepted += 1
            if query.preference == .best {
                let rank = SceneQueryIndex.preferenceRank(flags: index.flags[i], minute: index.captureMinutes[i])
                if rank > bestRank || (rank == bestRank && d2 < bestD2) { bestRank = rank; bestD2 = d2; hit.position = i }
            } else if d2 < bestD2 || (d2 == bestD2 && i < hit.position) {
                bestD2 = d2
                hit.position = i
            }
        }
        if hit.found { hit.approximateDistanceMeters = bestD2.squareRoot() }
        return hit
    }

    /// Entries around `center` plus what the cell table has to get right: a dense cluster (cells of more than
    /// the twelve points a slot holds), points on and beside fine-cell edges, duplicates, and ±180°.
    static func hardEntries(around center: (Double, Double), seed: UInt64) -> [SceneQueryIndex.Entry] {
        var entries = Self.entries(around: center, count: 500, spreadDegrees: 0.01, seed: seed)
        var random = SeededRandom(seed: seed &+ 1)
        var row = UInt32(entries.count)
        func add(_ latitudeE7: Int64, _ longitudeE7: Int64) {
            var lon = longitudeE7
            if lon > 1_800_000_000 { lon -= 3_600_000_000 } else if lon < -1_800_000_000 { lon += 3_600_000_000 }
            row += 1
            entries.append(SceneQueryIndex.Entry(latitudeE7: Int32(max(-900_000_000, min(900_000_000, latitudeE7))),
                                                 longitudeE7: Int32(lon), row: row, captureMinute: Int32(random.unit() * 2000),
                                                 flags: UInt8(random.unit() * 8)))
        }
        let cLat = Int64((center.0 * 1e7).rounded()), cLon = Int64((center.1 * 1e7).rounded())
        for _ in 0..<200 { add(cLat + Int64((random.unit() - 0.5) * 4000), cLon + Int64((random.unit() - 0.5) * 8000)) }
        let r0 = SceneQueryIndex.row(latitudeE7: cLat), c0 = SceneQueryIndex.column(longitudeE7: cLon)
        for dr in -3...3 {
            for dc in -3...3 {
                let lat = SceneQueryIndex.latitudeOriginE7(row: r0 + Int64(dr))
                let lon = SceneQueryIndex.longitudeOriginE7(column: (c0 + Int64(dc) + SceneQueryIndex.fineColumns) % SceneQueryIndex.fineColumns)
                for (a, b) in [(0, 0), (-1, 0), (0, -1), (-1, -1), (1, 1)] { add(lat + Int64(a), lon + Int64(b)) }
            }
        }
        for i in 0..<20 { let e = entries[i * 7]; add(Int64(e.latitudeE7), Int64(e.longitudeE7)) }
        add(cLat, 1_800_000_000)
        add(cLat + 100, -1_800_000_000)
        return entries
    }

    /// The cell table answers exactly as the plain search and, below 80°, as the brute-force ranking of every
    /// point (same panorama, same distance to the bit, same counts), unfiltered and filtered, nearest and
    /// best, single and batched, at the poles, across the antimeridian, on cell edges, with cells fuller
    /// than a slot.
    @Test(arguments: [(60.17, 24.95), (0.0, 179.9995), (0.0, -179.9995), (-33.86, 151.2), (89.9990, 10.0), (-89.9995, -170.0),
                      (79.9995, 5.0), (60.17, 179.9999)])
    func searchIsExactlyTheBruteForceRanking(center: (Double, Double)) throws {
        let entries = Self.hardEntries(around: center, seed: 11)
        let index = SceneQueryIndex(entries: entries)
        var random = SeededRandom(seed: 123)
        var queries: [SceneQueryIndex.Query] = []
        let cLat = Int64((center.0 * 1e7).rounded()), cLon = Int64((center.1 * 1e7).rounded())
        let r0 = SceneQueryIndex.row(latitudeE7: cLat), c0 = SceneQueryIndex.column(longitudeE7: cLon)
        for q in 0..<240 {
            var lat = max(-90, min(90, center.0 + (random.unit() - 0.5) * 0.012))
            var lon = center.1 + (random.unit() - 0.5) * 0.024
            if q % 4 == 1 {
                // On a fine-cell edge or corner.
                lat = Double(SceneQueryIndex.latitudeOriginE7(row: r0 + Int64(random.unit() * 5) - 2)) / 1e7
                lon = Double(SceneQueryIndex.longitudeOriginE7(column: (c0 + Int64(random.unit() * 5) - 2 + SceneQueryIndex.fineColumns)
                                                                % SceneQueryIndex.fineColumns)) / 1e7
            }
            lat = max(-90, min(90, lat))
            let coordinate = try GeoCoordinate(latitude: lat, normalizingLongitude: lon)
            let radius = [5.0, 20, 50, 50, 120, 400, 2000, 30_000][Int(random.unit() * 8)]
            let source = [SourceFilter.any, .any, .simulated, .photo][Int(random.unit() * 4)]
            let window = Int(random.unit() * 3)
            queries.append(SceneQueryIndex.Query(
                coordinate: coordinate, radiusMeters: radius, preference: random.unit() < 0.3 ? .best : .nearest, source: source,
                capturedAfter: window == 1 ? Date(timeIntervalSince1970: 60 * 300) : nil,
                capturedBefore: window == 2 ? Date(timeIntervalSince1970: 60 * 900) : nil))
        }
        var batched = [SceneQueryIndex.Hit](repeating: .init(position: -2, approximateDistanceMeters: 0, withinRadius: 0, accepted: 0),
                                            count: queries.count)
        queries.withUnsafeBufferPointer { q in batched.withUnsafeMutableBufferPointer { index.search(q, into: $0) } }
        var found = 0
        for (k, query) in queries.enumerated() {
            let hit = index.search(query)
            #expect(hit == batched[k], "query \(k): batched \(batched[k]), single \(hit)")
            #expect(hit == Self.plainSearch(index, query), "query \(k) \(query.coordinate) radius \(query.radiusMeters)")
            if hit.found { found += 1 }
            guard abs(query.coordinate.latitude) <= SceneQueryIndex.polarLatitude else { continue }
            let reference = Self.exactReference(entries, query)
            #expect(hit.withinRadius == reference.withinRadius, "query \(k) \(query.coordinate) radius \(query.radiusMeters)")
            #expect(hit.found == (reference.row != nil), "query \(k) \(query.coordinate) radius \(query.radiusMeters)")
            guard hit.found, let row = reference.row else { continue }
            #expect(Int(index.rows[hit.position]) == row, "query \(k) \(query.coordinate) radius \(query.radiusMeters) \(query.preference)")
            #expect(hit.approximateDistanceMeters == reference.approximateDistanceMeters, "query \(k)")
        }
        #expect(found > 20, "only \(found) of \(queries.count) queries found a panorama: the test would prove little")
    }

    @Test func approximationErrorIsWithinTheDocumentedBound() throws {
        let origin = try GeoCoordinate(latitude: 60.17, longitude: 24.95)
        // 1e-7° storage rounding adds up to 8 mm to the approximation's own error.
        for (distance, tolerance) in [(50.0, 0.01), (1000, 0.1), (10_000, 10.0)] {
            for bearing in stride(from: 0.0, to: 360, by: 15) {
                let point = try Geodesic.wgs84.direct(from: origin, azimuth: Angle(degrees: bearing), distanceMeters: distance).destination
                let entry = SceneQueryIndex.Entry(latitudeE7: Int32((point.latitude * 1e7).rounded()),
                                                  longitudeE7: Int32((point.longitude * 1e7).rounded()), row: 1,
                                                  captureMinute: 0, flags: 0)
                let hit = SceneQueryIndex(entries: [entry]).search(.init(coordinate: origin, radiusMeters: distance * 1.01))
                #expect(abs(hit.approximateDistanceMeters - distance) < tolerance, "\(distance) m at \(bearing)°")
            }
        }
    }

    @Test func filtersAndPreference() throws {
        let base = try GeoCoordinate(latitude: 60.17, longitude: 24.95)
        func entry(_ metersNorth: Double, row: UInt32, minute: Int32, flags: UInt8) -> SceneQueryIndex.Entry {
            SceneQueryIndex.Entry(latitudeE7: Int32(((60.17 + metersNorth / 111_400) * 1e7).rounded()),
                                  longitudeE7: 249_500_000, row: row, captureMinute: minute, flags: flags)
        }
        let index = SceneQueryIndex(entries: [
            entry(5, row: 1, minute: 100, flags: SceneQueryIndex.simulatedFlag | SceneQueryIndex.croppedFlag),
            entry(10, row: 2, minute: 50, flags: 0),
            entry(20, row: 3, minute: 5000, flags: SceneQueryIndex.depthFlag),
        ])
        func row(_ query: SceneQueryIndex.Query) -> UInt32? {
            let hit = index.search(query)
            return hit.found ? index.rows[hit.position] : nil
        }
        #expect(row(.init(coordinate: base, radiusMeters: 50)) == 1)
        #expect(row(.init(coordinate: base, radiusMeters: 50, preference: .best)) == 3)
        #expect(row(.init(coordinate: base, radiusMeters: 50, source: .photo)) == 2)
        #expect(row(.init(coordinate: base, radiusMeters: 50, source: .simulated)) == 1)
        #expect(row(.init(coordinate: base, radiusMeters: 50, capturedBefore: Date(timeIntervalSince1970: 60 * 60))) == 2)
        let none = index.search(.init(coordinate: base, radiusMeters: 15, capturedAfter: Date(timeIntervalSince1970: 60 * 200)))
        #expect(!none.found && none.withinRadius == 2 && none.accepted == 0)
    }

    @Test func storedBlobRoundTrips() throws {
        let index = SceneQueryIndex(entries: Self.entries(around: (60.17, 24.95), count: 1000, spreadDegrees: 0.1, seed: 3))
        let blob = index.serialized()
        #expect(blob.count == 12 + 17 * 1000)
        let loaded = try blob.withUnsafeBytes { try SceneQueryIndex(serialized: $0, path: "test") }
        #expect(loaded.rows == index.rows && loaded.latitudesE7 == index.latitudesE7 && loaded.flags == index.flags)
        let query = SceneQueryIndex.Query(coordinate: try GeoCoordinate(latitude: 60.17, longitude: 24.95), radiusMeters: 500)
        #expect(loaded.search(query) == index.search(query))
        var offTheGlobe = blob
        withUnsafeBytes(of: Int32(900_000_001).littleEndian) { offTheGlobe.replaceSubrange(12..<16, with: $0) }
        #expect(throws: CatalogError.corruptIndex(path: "test", detail: "panorama 0 has latitude × 1e7 900000001, outside ±900000000")) {
            try offTheGlobe.withUnsafeBytes { try SceneQueryIndex(serialized: $0, path: "test") }
        }
        var damaged = blob
        damaged.removeLast()
        #expect(throws: CatalogError.corruptIndex(path: "test", detail: "17011 bytes for 1000 panoramas, expected 17012")) {
            try damaged.withUnsafeBytes { try SceneQueryIndex(serialized: $0, path: "test") }
        }
    }
}

@Suite struct RTreeReferenceTests {
    /// The in-memory index and the plain SQLite R*Tree query agree on a synthetic catalog.
    @Test func indexAgreesWithTheRTreeQuery() throws {
        let root = try TestSupport.Lookaround.temporaryDirectory()
        var random = SeededRandom(seed: 5)
        let records = try (0..<800).map { i in
            PanoramaRecord(id: "p\(i)", coordinate: try GeoCoordinate(latitude: 60.16 + random.unit() * 0.02,
                                                                     longitude: 24.93 + random.unit() * 0.04),
                           captureTime: Date(timeIntervalSince1970: 1.7e9), headingDegrees: 0, imageWidth: 64,
                           imageHeight: 32, imagePath: "/p\(i).jpg")
        }
        let path = root.appendingPathComponent("r.sqlite").path
        _ = try CatalogBuilder.write(records: records, to: path, proximityLinkMeters: 0)
        let catalog = try Catalog(path: path)
        for _ in 0..<300 {
            let query = SceneQueryIndex.Query(coordinate: try GeoCoordinate(latitude: 60.16 + random.unit() * 0.02,
                                                                            longitude: 24.93 + random.unit() * 0.04),
                                              radiusMeters: 60)
            let hit = catalog.nearest(query)
            let reference = try catalog.nearestByRTreeQuery(query)
            #expect(hit.found == (reference != nil) || abs((reference?.distanceMeters ?? hit.approximateDistanceMeters) - 60) < 0.02)
            if let reference, hit.found {
                #expect(abs(reference.distanceMeters - hit.approximateDistanceMeters) < 0.02)
            }
        }
    }
}
