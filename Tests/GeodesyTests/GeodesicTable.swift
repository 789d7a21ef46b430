import Foundation
@testable import Geodesy

/// One row of `Fixtures/geodesic-table.csv` (made by `scripts/make-geodesic-table.py` with geographiclib).
struct GeodesicTableRow: Sendable, CustomStringConvertible {
    let line: Int
    let category: String
    let latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double
    let distanceMeters: Double
    let azimuth1Degrees: Double, azimuth2Degrees: Double

    var start: GeoCoordinate { GeoCoordinate(uncheckedLatitude: latitude1, longitude: longitude1) }
    var end: GeoCoordinate { GeoCoordinate(uncheckedLatitude: latitude2, longitude: longitude2) }

    var description: String {
        "line \(line) [\(category)] (\(latitude1), \(longitude1)) → (\(latitude2), \(longitude2))"
    }
}

enum GeodesicTable {
    struct LoadError: Error, CustomStringConvertible { let description: String }

    /// All rows of the reference table, loaded once.
    static let rows: [GeodesicTableRow] = {
        do { return try load() } catch { fatalError("cannot load geodesic-table.csv: \(error)") }
    }()

    static func load() throws -> [GeodesicTableRow] {
        guard let url = Bundle.module.url(forResource: "geodesic-table", withExtension: "csv",
                                          subdirectory: "Fixtures") else {
            throw LoadError(description: "Fixtures/geodesic-table.csv is missing from the test bundle")
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        var rows: [GeodesicTableRow] = []
        var sawHeader = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            if line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",").map(String.init)
            if !sawHeader {
                guard fields == ["category", "lat1_deg", "lon1_deg", "lat2_deg", "lon2_deg", "distance_m",
                                 "azi1_deg", "azi2_deg"] else {
                    throw LoadError(description: "unexpected header \(fields)")
                }
                sawHeader = true
                continue
            }
            let numbers = fields.dropFirst().compactMap(Double.init)
            guard fields.count == 8, numbers.count == 7 else {
                throw LoadError(description: "line \(index + 1): expected 8 fields, got \(line)")
            }
            rows.append(GeodesicTableRow(line: index + 1, category: fields[0],
                                         latitude1: numbers[0], longitude1: numbers[1],
                                         latitude2: numbers[2], longitude2: numbers[3],
                                         distanceMeters: numbers[4],
                                         azimuth1Degrees: numbers[5], azimuth2Degrees: numbers[6]))
        }
        return rows
    }
}

/// Earth-centred Cartesian position of a point on the WGS84 ellipsoid, written out independently of the
/// module so destination checks do not depend on the code under test.
func referenceECEF(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
    let a = 6_378_137.0, f = 1 / 298.257223563
    let e2 = f * (2 - f)
    let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
    let sinPhi = latitude == 90 ? 1 : latitude == -90 ? -1 : sin(phi)
    let cosPhi = abs(latitude) == 90 ? 0 : cos(phi)
    let nu = a / (1 - e2 * sinPhi * sinPhi).squareRoot()
    return (nu * cosPhi * cos(lambda), nu * cosPhi * sin(lambda), nu * (1 - e2) * sinPhi)
}

/// Straight-line distance between two surface points, metres (equal to the geodesic distance to
/// far better than a micrometre at the millimetre scale these tests use it for).
func chordMeters(_ p: GeoCoordinate, _ q: GeoCoordinate) -> Double {
    let u = referenceECEF(latitude: p.latitude, longitude: p.longitude)
    let v = referenceECEF(latitude: q.latitude, longitude: q.longitude)
    let dx = u.x - v.x, dy = u.y - v.y, dz = u.z - v.z
    return (dx * dx + dy * dy + dz * dz).squareRoot()
}

/// Smallest absolute difference between two directions in degrees, in [0, 180].
func azimuthDifferenceDegrees(_ a: Double, _ b: Double) -> Double {
    abs((a - b).remainder(dividingBy: 360))
}
