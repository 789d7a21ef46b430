import Foundation
import Testing
@testable import MapData

/// The shipped world basemap against its Natural Earth source: every band within its tolerance.
@Suite("World basemap")
struct WorldBasemapTests {
    /// Mercator northing in degrees (360 spans the world's width), as scripts/make-world-basemap.py.
    static func mercatorY(_ latitude: Double) -> Double {
        let lat = min(85.05112878, max(-85.05112878, latitude)) * .pi / 180
        return log(tan(.pi / 4 + lat / 2)) * 180 / .pi
    }

    static func distance(_ p: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let dx = b.0 - a.0, dy = b.1 - a.1, length2 = dx * dx + dy * dy
        let t = length2 == 0 ? 0 : max(0, min(1, ((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length2))
        let ex = p.0 - a.0 - t * dx, ey = p.1 - a.1 - t * dy
        return (ex * ex + ey * ey).squareRoot()
    }

    @Test("reads the shipped file: three bands, countries with names in four languages")
    func shipped() throws {
        let world = try WorldBasemap.shipped()
        #expect(world.bands.map(\.minimumZoom) == [0, 3, 6])
        #expect(world.bands.map(\.toleranceMercatorDegrees) == [0.1, 0.02, 0.004])
        #expect(world.countries.count >= 250)
        let finland = try #require(world.countries.first { $0.code == "FIN" })
        #expect(finland.name(in: "en") == "Finland")
        #expect(finland.name(in: "sv") == "Finland")
        #expect(finland.name(in: "ja") == "フィンランド")
        #expect(finland.name(in: "zh") == "芬兰")
        #expect(finland.name(in: "de") == finland.name, "no German names: falls back to name")
        let sweden = try #require(world.countries.first { $0.code == "SWE" })
        #expect(sweden.name(in: "sv") == "Sverige")
        for band in world.bands {
            #expect(band.polygons.allSatisfy { $0.rings.allSatisfy { $0.count >= 4 && $0.first == $0.last } })
            #expect(band.borders.count > 300, "land borders between countries")
        }
        let size = try FileManager.default.attributesOfItem(atPath: try #require(WorldBasemap.searchPaths.first {
            FileManager.default.fileExists(atPath: $0) }))[.size] as? Int ?? 0
        #expect(size < 4_000_000, "\(size) bytes: the repository keeps a few MB at most")
    }

    @Test("malformed files are rejected with the reason")
    func malformed() {
        #expect(throws: MapDataError.malformedWorldBasemap(
            path: "world basemap", detail: "not a world basemap (no LKWORLD1 header) (at byte 0)")) {
            try WorldBasemap(bytes: Array("LKWORLD0".utf8))
        }
        #expect(throws: MapDataError.malformedWorldBasemap(path: "world basemap", detail: "truncated (at byte 9)")) {
            try WorldBasemap(bytes: Array("LKWORLD1".utf8) + [0x05])
        }
        #expect(throws: MapDataError.fileNotFound(path: "/nonexistent/world.bin")) {
            try WorldBasemap(contentsOfFile: "/nonexistent/world.bin")
        }
    }

    /// Every source vertex of the sample countries lies within the band's tolerance of the country's
    /// simplified outline (rings smaller than twice the tolerance are dropped by design), and every
    /// simplified vertex is a source vertex: a two-sided bound, in Mercator degrees.
    @Test("every band stays within its tolerance of the Natural Earth source")
    func withinTolerance() throws {
        let url = Fixtures.packageRoot.appendingPathComponent("Tests/MapDataTests/Fixtures/natural-earth-sample.json")
        let sample = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: [String: [[[[Int]]]]]])
        let world = try WorldBasemap.shipped()
        let sources = ["ne_110m_admin_0_countries.geojson", "ne_10m_admin_0_countries.geojson", "ne_10m_admin_0_countries.geojson"]
        for (band, sourceName) in zip(world.bands, sources) {
            let tolerance = band.toleranceMercatorDegrees
            let countries = try #require(sample[sourceName])
            #expect(countries.count == 8)
            var checked = 0, worst = 0.0
            for (code, polygons) in countries.sorted(by: { $0.key < $1.key }) {
                let index = try #require(world.countries.firstIndex { $0.code == code })
                let simplified = band.polygons.filter { $0.country == index }.flatMap(\.rings)
                    .map { $0.map { ($0.longitude, Self.mercatorY($0.latitude)) } }
                var sourceVertices = Set<[Int]>()
                for ring in polygons.flatMap({ $0 }) {
                    ring.forEach { sourceVertices.insert($0) }
                    let points = ring.map { (Double($0[0]) / 1e4, Self.mercatorY(Double($0[1]) / 1e4)) }
                    let xs = points.map(\.0), ys = points.map(\.1)
                    guard max(xs.max()! - xs.min()!, ys.max()! - ys.min()!) >= 2 * tolerance else { continue }
                    for p in points {
                        var best = Double.infinity
                        for s in simplified { for i in 1..<s.count { best = min(best, Self.distance(p, s[i - 1], s[i])) } }
                        worst = max(worst, best)
                        checked += 1
                    }
                }
                var invented = 0
                for polygon in band.polygons where polygon.country == index {
                    for point in polygon.rings.joined() {
                        let key: [Int] = [Int((point.longitude * 1e4).rounded()), Int((point.latitude * 1e4).rounded())]
                        if !sourceVertices.contains(key) { invented += 1 }
                    }
                }
                #expect(invented == 0, "\(code): \(invented) vertices not in the source")
            }
            let minimumChecked = sourceName.contains("110m") ? 150 : 5_000
            #expect(checked > minimumChecked, "\(checked) vertices checked")
            #expect(worst <= tolerance * 1.0001, "band \(band.minimumZoom)+: worst distance \(worst) > tolerance \(tolerance)")
        }
    }
}
