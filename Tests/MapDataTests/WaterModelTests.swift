import Foundation
import Testing
@testable import MapData

/// The sea assembled from coastline pieces: synthetic boxes with known answers, and the Helsinki
/// extract's harbour.
@Suite("Water model")
struct WaterModelTests {
    /// A 0.02° × 0.01° box at 60 N, 25 E.
    static let box = OSMBoundingBox(minLatitude: 60.0, minLongitude: 25.0, maxLatitude: 60.01, maxLongitude: 25.02)

    static func c(_ lat: Double, _ lon: Double) -> OSMCoordinate { OSMCoordinate(latitude: lat, longitude: lon) }

    static func coast(_ id: Int64, _ points: [(Double, Double)]) -> Coastline {
        Coastline(source: OSMElementReference(.way, id), points: points.map { c($0.0, $0.1) })
    }

    /// West to east across the box: land on the left (north), sea on the right (south); in two ways.
    static let straightCoast = [coast(1, [(60.005, 25.0), (60.005, 25.01)]), coast(2, [(60.005, 25.01), (60.006, 25.02)])]

    @Test("a coastline across the box: the sea is on its right, closed along the bounds")
    func seaOnTheRight() {
        let water = WaterModel(coastlines: Self.straightCoast, areas: [], bounds: Self.box)
        #expect(water.sea.count == 1)
        #expect(water.diagnostics.isEmpty, "\(water.diagnostics)")
        #expect(water.isSea(Self.c(60.002, 25.005)))
        #expect(water.isSea(Self.c(60.0001, 25.0199)), "the south-east corner")
        #expect(!water.isSea(Self.c(60.008, 25.005)))
        #expect(!water.isSea(Self.c(60.0099, 25.0001)), "the north-west corner is land")
        // Reversed, the same line puts the sea in the north.
        let reversed = [Self.coast(3, [(60.006, 25.02), (60.005, 25.01), (60.005, 25.0)])]
        let north = WaterModel(coastlines: reversed, areas: [], bounds: Self.box)
        #expect(north.isSea(Self.c(60.008, 25.005)) && !north.isSea(Self.c(60.002, 25.005)))
    }

    @Test("an island is a hole in the sea; a lake is inland water")
    func islandAndLake() {
        // Counter-clockwise (land on the left = inside).
        let island = Self.coast(4, [(60.001, 25.004), (60.001, 25.006), (60.003, 25.006), (60.003, 25.004), (60.001, 25.004)])
        let lake = AreaFeature(source: OSMElementReference(.way, 9), kind: .water, polygons: [OSMPolygon(outer: [
            Self.c(60.008, 25.014), Self.c(60.008, 25.016), Self.c(60.009, 25.016), Self.c(60.009, 25.014), Self.c(60.008, 25.014)])])
        let water = WaterModel(coastlines: Self.straightCoast + [island], areas: [lake], bounds: Self.box)
        #expect(water.sea.count == 1 && water.sea[0].inners.count == 1)
        #expect(!water.isSea(Self.c(60.002, 25.005)), "on the island")
        #expect(water.isSea(Self.c(60.002, 25.008)), "beside it")
        #expect(water.isInlandWater(Self.c(60.0085, 25.015)) && water.isWater(Self.c(60.0085, 25.015)))
        #expect(!water.isSea(Self.c(60.0085, 25.015)))
        // Only an island: the rest of the box is sea.
        let only = WaterModel(coastlines: [island], areas: [], bounds: Self.box)
        #expect(only.isSea(Self.c(60.008, 25.015)) && !only.isSea(Self.c(60.002, 25.005)))
        // No coastline: no sea.
        #expect(WaterModel(coastlines: [], areas: [lake], bounds: Self.box).sea.isEmpty)
    }

    @Test("broken coastlines are repaired and reported")
    func brokenCoastlines() {
        // The second way drawn the wrong way round.
        let reversed = [Self.coast(5, [(60.005, 25.0), (60.005, 25.005), (60.005, 25.01)]),
                        Self.coast(6, [(60.006, 25.02), (60.005, 25.01)])]
        let fixed = WaterModel(coastlines: reversed, areas: [], bounds: Self.box)
        #expect(fixed.diagnostics.count == 1 && fixed.diagnostics[0].kind == .brokenCoastline
                && fixed.diagnostics[0].detail.contains("reversed"), "\(fixed.diagnostics)")
        #expect(fixed.sea.count == 1 && fixed.isSea(Self.c(60.002, 25.005)) && !fixed.isSea(Self.c(60.008, 25.005)))
        // A gap of about 55 m between the two ways.
        let gap = [Self.coast(7, [(60.005, 25.0), (60.005, 25.009)]), Self.coast(8, [(60.005, 25.01), (60.006, 25.02)])]
        let bridged = WaterModel(coastlines: gap, areas: [], bounds: Self.box)
        #expect(bridged.diagnostics.count == 1 && bridged.diagnostics[0].detail.contains("bridged"), "\(bridged.diagnostics)")
        #expect(bridged.sea.count == 1 && bridged.isSea(Self.c(60.002, 25.005)) && !bridged.isSea(Self.c(60.008, 25.005)))
        // A coastline that stops in the middle of the box is closed along the bounds, and reported.
        let short = WaterModel(coastlines: [Self.coast(9, [(60.005, 25.0), (60.005, 25.01)])], areas: [], bounds: Self.box)
        #expect(short.diagnostics.contains { $0.detail.contains("inside the extract's bounds") }, "\(short.diagnostics)")
        #expect(short.sea.count == 1)
    }

    // MARK: Helsinki

    /// Water points of the extract, checked on the map (the extract ends at 24.9534 E, at the quay of
    /// Kauppatori, so the open harbour east of it is outside; these are the water inside).
    static let harbourWater: [(String, OSMCoordinate)] = [
        ("the boat basin at Kauppatori", c(60.1671, 24.9530)),
        ("Eteläsatama at the quay south of Kauppatori", c(60.1657, 24.9533)),
        ("Kaisaniemenlahti, north of the park", c(60.1785, 24.9425)),
        ("the channel under Pitkäsilta", c(60.1764, 24.9500)),
    ]

    /// Buildings OSM maps on the water: a moored ship (`building=ship`), a floating restaurant pavilion
    /// and a boat club's hut on a pontoon.
    static let buildingsOnTheWater: Set<OSMElementReference> = [
        OSMElementReference(.way, 17028575), OSMElementReference(.way, 24936253), OSMElementReference(.way, 51327608)]

    @Test("Helsinki: the sea covers the harbour and none of the buildings on land")
    func helsinkiHarbour() throws {
        let data = try Fixtures.helsinki.get()
        let water = data.water
        #expect(water.sea.count == 3, "\(water.sea.count) sea polygons")
        #expect(data.diagnostics.contains { $0.kind == .brokenCoastline }, "the clipped coastline is reported")
        for (name, point) in Self.harbourWater {
            #expect(water.isSea(point), "\(name) \(point) should be sea")
        }
        #expect(!water.isSea(c(60.1675, 24.9520)), "Kauppatori itself is land")
        #expect(!water.isSea(c(60.1700, 24.9450)), "Kluuvi is land")
        let wet = data.buildings.filter { b in b.footprint.contains { water.isSea($0.centroid) } }
        #expect(Set(wet.map(\.source)) == Self.buildingsOnTheWater, "buildings in the sea: \(wet.map(\.source))")
        // No building on land has even one corner in the sea (quay-side buildings share nodes with the
        // coastline at most; the point-in-polygon test counts a shared node either way, so allow those).
        let coastNodes = Set(water.sea.flatMap(\.outer))
        let cornersInSea = data.buildings.filter { !Self.buildingsOnTheWater.contains($0.source) }.filter { b in
            b.footprint.contains { $0.outer.contains { !coastNodes.contains($0) && water.isSea($0) } }
        }
        #expect(cornersInSea.isEmpty, "\(cornersInSea.map(\.source))")
    }

    func c(_ lat: Double, _ lon: Double) -> OSMCoordinate { Self.c(lat, lon) }
}
