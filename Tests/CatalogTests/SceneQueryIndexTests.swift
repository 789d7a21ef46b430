@testable import Catalog
import Foundation
import Geodesy
import Testing
import TestSupport

@Suite struct SceneQueryIndexTests {
    /// A deterministic generator.
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    static func entries(around center: (Double, Double), count: Int, spreadDegrees: Double, seed: UInt64)
        -> [SceneQueryIndex.Entry] {
        var random = Random(state: seed)
        return (0..<count).map { i in
            let lat = max(-90, min(90, center.0 + (random.next() - 0.5) * spreadDegrees))
            var lon = center.1 + (random.next() - 0.5) * spreadDegrees * 2
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
        var random = Random(state: 99)
        for _ in 0..<60 {
            let lat = max(-90, min(90, center.0 + (random.next() - 0.5) * 0.012))
            let query = try GeoCoordinate(latitude: lat, normalizingLongitude: center.1 + (random.next() - 0.5) * 0.024)
            let radius = [5.0, 20, 50, 200, 2000][Int(random.next() * 5)]
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
        var random = SceneQueryIndexTests.Random(state: 5)
        let records = try (0..<800).map { i in
            PanoramaRecord(id: "p\(i)", coordinate: try GeoCoordinate(latitude: 60.16 + random.next() * 0.02,
                                                                     longitude: 24.93 + random.next() * 0.04),
                           captureTime: Date(timeIntervalSince1970: 1.7e9), headingDegrees: 0, imageWidth: 64,
                           imageHeight: 32, imagePath: "/p\(i).jpg")
        }
        let path = root.appendingPathComponent("r.sqlite").path
        _ = try CatalogBuilder.write(records: records, to: path, proximityLinkMeters: 0)
        let catalog = try Catalog(path: path)
        for _ in 0..<300 {
            let query = SceneQueryIndex.Query(coordinate: try GeoCoordinate(latitude: 60.16 + random.next() * 0.02,
                                                                            longitude: 24.93 + random.next() * 0.04),
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
