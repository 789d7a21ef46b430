import Foundation
import Geodesy
import Imaging
import MapData
@testable import MapSnapshot
import Testing

/// The coverage layer below zoom 14: counted clusters on the world grid, the same in every tile.
@Suite struct CoverageClusterTests {
    /// Seven panoramas a few kilometres apart just west of a zoom-6 tile edge (so their circle crosses it),
    /// and one alone far east.
    static func points() throws -> [GeoCoordinate] {
        let edge = try SlippyTile(x: 35, y: 19, zoom: 6).northWest  // the west edge of tile 35 = the east edge of 34
        var points: [GeoCoordinate] = []
        for k in 0..<7 {
            points.append(try GeoCoordinate(latitude: edge.latitude - 1.2 - 0.02 * Double(k), longitude: edge.longitude - 0.05 - 0.01 * Double(k)))
        }
        points.append(try GeoCoordinate(latitude: edge.latitude - 2, longitude: edge.longitude + 3))
        return points
    }

    @Test func clustersFollowTheWorldGrid() throws {
        let points = try Self.points()
        let clusters = CoverageClustering.clusters(points, zoom: 6)
        #expect(clusters.map(\.count).sorted() == [1, 7])
        let seven = try #require(clusters.first { $0.count == 7 })
        #expect(seven.members == Array(0..<7))
        #expect(seven.zoomToShowMembers(from: 6) > 6)
        // The same clusters from only the points of the cells around them (what a tile asks the coverage for).
        let rect = CoverageClustering.cellAligned(try SlippyTile(x: 34, y: 19, zoom: 6).mapRect, zoom: 6)
        let inside = points.filter { rect.contains(MapPoint($0)) }
        #expect(CoverageClustering.clusters(inside, zoom: 6).map(\.count) == [7])
        // At zoom 13 the kilometres between them part them all.
        #expect(CoverageClustering.clusters(points, zoom: 13).count == 8)
        #expect(MapRenderer.clusterLabel(7) == "7" && MapRenderer.clusterLabel(1234) == "1.2k" && MapRenderer.clusterLabel(45_000) == "45k")
    }

    /// Two neighbouring tiles, each drawn as the tile service draws it (its own picture, a margin, only the
    /// tile's pixels), put side by side: the circle that crosses their edge is whole and the same as in one
    /// picture of both.
    @Test func aClusterAcrossATileEdgeIsWholeInBothTiles() throws {
        let snapshotter = try MapSnapshotter(dataset: .empty())
        let coverage = PanoramaLocations(try Self.points())
        var tiles: [RGBA8Image] = []
        for x in [34, 35] {
            var options = MapSnapshotWindowTests.tileOptions(try SlippyTile(x: x, y: 19, zoom: 6), scale: 1, type: .standard)
            options.showsBaseMap = false
            options.coverage = coverage
            options.window = (x: 64, y: 64, width: 256, height: 256)
            tiles.append(try snapshotter.snapshot(options).image)
        }
        let left = try SlippyTile(x: 34, y: 19, zoom: 6).mapRect
        var both = MapSnapshotOptions(framing: .mapRect(MapRect(x: left.origin.x, y: left.origin.y, width: 2 * left.size.width,
                                                                height: left.size.height)),
                                      size: PointSize(width: 512, height: 256), scale: 1, mapType: .standard)
        both.showsBaseMap = false
        both.showsAttribution = false
        both.coverage = coverage
        let whole = try snapshotter.snapshot(both).image
        var worst = 0, blueAtTheEdge = 0
        for (k, tile) in tiles.enumerated() {
            let expected = whole.cropped(x: 256 * k, y: 0, width: 256, height: 256)
            for (a, b) in zip(tile.components, expected.components) { worst = max(worst, abs(Int(a) - Int(b))) }
            for y in 0..<256 where tile[k == 0 ? 255 : 0, y, 2] > 200 && tile[k == 0 ? 255 : 0, y, 3] > 200 { blueAtTheEdge += 1 }
        }
        #expect(worst <= 2, "tiles and the one picture differ by up to \(worst)")
        #expect(blueAtTheEdge >= 20, "the circle crosses the edge in both tiles: \(blueAtTheEdge) rows")
    }

    /// A map of no OSM data: the world layer alone, crediting Natural Earth only.
    @Test func aWorldOnlyMapCreditsNaturalEarthAlone() throws {
        let dataset = MapDataset.empty()
        #expect(dataset.isEmpty && MapContent(dataset).attribution.isEmpty)
        #expect(MapType.standard.credits(data: "", showsWorld: true) == [WorldBasemap.attribution])
        let snapshotter = try MapSnapshotter(dataset: dataset)
        var options = MapSnapshotOptions(framing: .region(try CoordinateRegion(north: 54, south: 48, west: -3, east: 8)),
                                         size: PointSize(width: 400, height: 300), scale: 1, mapType: .standard)
        options.coverage = PanoramaLocations(try Self.points())
        let image = try snapshotter.snapshot(options).image
        var colours = Set<UInt32>()
        for y in stride(from: 0, to: image.height, by: 7) {
            for x in stride(from: 0, to: image.width, by: 7) {
                colours.insert(UInt32(image[x, y, 0]) << 16 | UInt32(image[x, y, 1]) << 8 | UInt32(image[x, y, 2]))
            }
        }
        #expect(colours.count > 3, "land, sea and borders, not one colour")
    }
}
