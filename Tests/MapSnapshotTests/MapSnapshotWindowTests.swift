import Foundation
import Geodesy
import Imaging
@testable import MapSnapshot
import Testing

/// `MapSnapshotOptions.window`: drawing only a part of the picture gives exactly the whole picture's
/// pixels there (the map tiles draw their label margin this way), for every map type, at 1× and 2×,
/// over the extract and at its edge (world layer), with labels placed as over the whole picture.
@Suite struct MapSnapshotWindowTests {
    /// Differences allowed between the window and the whole picture cut to it: none. Fills are rasterised
    /// per row with the same arithmetic, glyphs and images are copied by whole pixels, and rotated labels
    /// are sampled at the same picture coordinates.
    static let maximumChannelDifference = 0

    /// A tile as `lookaround serve` frames it: 64 points of margin, labels kept off the tile's edges.
    static func tileOptions(_ tile: SlippyTile, scale: Int, type: MapType) -> MapSnapshotOptions {
        var options = MapSnapshotOptions(tile: tile, marginPoints: 64, scale: scale, mapType: type)
        options.showsAttribution = false
        return options
    }

    static let cases: [(zoom: Int, latitude: Double, longitude: Double, scale: Int)] = [
        (14, 60.1700, 24.9450, 1),  // the centre, with the world layer around the extract
        (16, 60.16952, 24.95239, 1),
        (17, 60.1686, 24.9414, 2),
        (18, 60.16952, 24.95239, 1),  // street names along their streets (rotated)
        (18, 60.1700, 24.9450, 2),
    ]

    @Test(arguments: [MapType.standard, .muted, .hybrid, .imagery])
    func windowEqualsTheCroppedPicture(type: MapType) throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        for c in Self.cases {
            let tile = try SlippyTile(containing: try GeoCoordinate(latitude: c.latitude, longitude: c.longitude), zoom: c.zoom)
            var options = Self.tileOptions(tile, scale: c.scale, type: type)
            options.orthophotoProvider = SyntheticOrthophoto(snapshotter: snapshotter)
            let whole = try snapshotter.snapshot(options).image
            let m = 64 * c.scale, side = 256 * c.scale
            options.window = (x: m, y: m, width: side, height: side)
            let window = try snapshotter.snapshot(options).image
            let expected = whole.cropped(x: m, y: m, width: side, height: side)
            #expect(window.width == side && window.height == side)
            var worst = 0, differing = 0
            for (a, b) in zip(window.components, expected.components) where a != b {
                worst = max(worst, abs(Int(a) - Int(b)))
                differing += 1
            }
            #expect(worst <= Self.maximumChannelDifference,
                    "\(type) tile \(tile) @\(c.scale)x: \(differing) channels differ, by up to \(worst)")
        }
    }

    @Test func coverageOverlayWindowEqualsTheCroppedPicture() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        let tile = try SlippyTile(containing: MapTestFixtures.centre, zoom: 16)
        var options = Self.tileOptions(tile, scale: 1, type: .standard)
        options.showsBaseMap = false
        options.coverage = try MapSnapshotGoldenTests.coverage()
        let whole = try snapshotter.snapshot(options).image
        options.window = (x: 64, y: 64, width: 256, height: 256)
        #expect(try snapshotter.snapshot(options).image == whole.cropped(x: 64, y: 64, width: 256, height: 256))
    }

    /// Tiles just inside the extract's north edge (7.7 pixels above the tile at z18: inside its label
    /// margin, beyond the reach of the edge's stroke, so the window leaves the world layer out) and
    /// across its west edge (the world layer drawn in the window), at 1× and 2×.
    @Test func windowAtTheExtractEdgeEqualsTheCroppedPicture() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        for (x, y, scale) in [(149235, 75865, 1), (149235, 75865, 2), (149229, 75870, 1), (149229, 75870, 2)] {
            let tile = try SlippyTile(x: x, y: y, zoom: 18)
            var options = Self.tileOptions(tile, scale: scale, type: .standard)
            let whole = try snapshotter.snapshot(options).image
            let m = 64 * scale, side = 256 * scale
            options.window = (x: m, y: m, width: side, height: side)
            #expect(try snapshotter.snapshot(options).image == whole.cropped(x: m, y: m, width: side, height: side),
                    "tile \(tile) @\(scale)x")
        }
    }

    @Test func aWindowOutsideThePictureIsRefused() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        var options = Self.tileOptions(try SlippyTile(containing: MapTestFixtures.centre, zoom: 16), scale: 1, type: .standard)
        options.window = (x: 200, y: 64, width: 256, height: 256)
        #expect(throws: MapSnapshotError.self) { try snapshotter.snapshot(options) }
    }
}
