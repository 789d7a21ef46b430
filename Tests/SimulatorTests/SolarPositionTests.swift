import Foundation
import Geodesy
import Testing
@testable import Simulator

/// Solar position against NREL's SPA (pysolar), table made by `scripts/make-solar-table.py`.
@Suite struct SolarPositionTests {
    /// Largest allowed difference in elevation and azimuth, degrees (the NOAA algorithm is good to ~0.01°).
    static let toleranceDegrees = 0.05

    struct Row { let line: Int; let utc: Date; let place: String; let latitude, longitude, elevation, azimuth: Double }

    static func table() throws -> [Row] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/solar-table", withExtension: "csv"))
        let text = try String(contentsOf: url, encoding: .utf8)
        let formatter = ISO8601DateFormatter()
        var rows: [Row] = []
        for (index, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") && !line.hasPrefix("utc") {
            let f = line.split(separator: ",").map(String.init)
            guard f.count == 6, let date = formatter.date(from: f[0]), let lat = Double(f[2]), let lon = Double(f[3]),
                  let e = Double(f[4]), let a = Double(f[5]) else { continue }
            rows.append(Row(line: index + 1, utc: date, place: f[1], latitude: lat, longitude: lon, elevation: e, azimuth: a))
        }
        return rows
    }

    @Test func matchesReferenceTable() throws {
        let rows = try Self.table()
        #expect(rows.count == 48)
        for row in rows {
            let sun = SolarPosition(date: row.utc, coordinate: try GeoCoordinate(latitude: row.latitude, longitude: row.longitude))
            #expect(abs(sun.elevationDegrees - row.elevation) < Self.toleranceDegrees, "line \(row.line) \(row.place): elevation \(sun.elevationDegrees) vs \(row.elevation)")
            var da = abs(sun.azimuthDegrees - row.azimuth)
            da = min(da, 360 - da)
            // Azimuth is ill-defined with the sun near the zenith; the table has none above 80°.
            #expect(da < Self.toleranceDegrees, "line \(row.line) \(row.place): azimuth \(sun.azimuthDegrees) vs \(row.azimuth)")
        }
    }

    @Test func directionIsUnitAndPointsUpWhenSunIsUp() {
        let sun = SolarPosition(elevationDegrees: 30, azimuthDegrees: 90)
        let d = sun.direction
        #expect(abs(d.lengthMeters - 1) < 1e-12)
        #expect(abs(d.east - cos(Double.pi / 6)) < 1e-12 && abs(d.up - 0.5) < 1e-12 && abs(d.north) < 1e-12)
        #expect(sun.apparentElevationDegrees > sun.elevationDegrees)
    }
}
