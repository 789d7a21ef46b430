import Foundation
import Geodesy
import Imaging
import MapData
@testable import MapSnapshot
import Testing
import TestSupport

/// The world layer around and below the extract: golden images of a region, the whole world, the
/// harbour, the extract's edge and two long flights (each looked at before it was committed;
/// regenerate with LOOKAROUND_REGENERATE_GOLDEN=1), and properties that hold whatever the style.
@Suite struct WorldMapGoldenTests {
    static let size = PointSize(width: 352, height: 352)
    static let helsinki = try! GeoCoordinate(latitude: 60.1699, longitude: 24.9450)
    static let tokyo = try! GeoCoordinate(latitude: 35.6812, longitude: 139.7671)
    static let sanFrancisco = try! GeoCoordinate(latitude: 37.7749, longitude: -122.4194)

    static func region(_ center: GeoCoordinate, meters: Double) throws -> CoordinateRegion {
        try CoordinateRegion(center: center, latitudinalMeters: meters, longitudinalMeters: meters)
    }

    /// How many pixels have exactly `color` (opaque).
    static func count(_ color: RGBAColor, in image: RGBA8Image, x: Range<Int>? = nil, y rows: Range<Int>? = nil) -> Int {
        var n = 0
        for y in rows ?? 0..<image.height {
            for x in (x ?? 0..<image.width) where image[x, y, 0] == color.red && image[x, y, 1] == color.green
                && image[x, y, 2] == color.blue { n += 1 }
        }
        return n
    }

    /// How many pixels are within 2 levels of `color` seen through the wash outside the extract
    /// (``MapStyle/outsideExtract`` composited over it).
    static func countWashed(_ color: RGBAColor, style: MapStyle = .standard, in image: RGBA8Image, x: Range<Int>? = nil) -> Int {
        let wash = style.outsideExtract, alpha = Double(wash.alpha) / 255
        func over(_ below: UInt8, _ above: UInt8) -> Double { Double(above) * alpha + Double(below) * (1 - alpha) }
        let want = [over(color.red, wash.red), over(color.green, wash.green), over(color.blue, wash.blue)]
        var n = 0
        for y in 0..<image.height {
            for x in (x ?? 0..<image.width) where (0..<3).allSatisfy({ abs(Double(image[x, y, $0]) - want[$0]) <= 2 }) { n += 1 }
        }
        return n
    }

    /// Pixels tinted like the (anti-aliased, thin) border lines: red and blue above green.
    static func borderPixels(in image: RGBA8Image) -> Int {
        var n = 0
        for y in 0..<image.height {
            for x in 0..<image.width where Int(image[x, y, 0]) - Int(image[x, y, 1]) > 12 && Int(image[x, y, 2]) - Int(image[x, y, 1]) > 12 { n += 1 }
        }
        return n
    }

    /// `lookaround map --center 60.1699,24.9450 --span-meters 300000`: the Gulf of Finland, Estonia.
    @Test func regionOfSouthernFinland() throws {
        let snapshot = try MapTestFixtures.snapshotter().snapshot(MapSnapshotOptions(region: try Self.region(Self.helsinki, meters: 300_000), size: Self.size))
        let image = snapshot.image
        let total = image.width * image.height
        #expect(Self.count(MapStyle.standard.sea, in: image) > total / 5, "the gulf is sea")
        #expect(Self.count(MapStyle.standard.worldLand, in: image) > total / 5, "Finland and Estonia are land")
        GoldenImage.check(image, named: "world-region-southern-finland")
    }

    /// The whole world in Web Mercator at zoom 1 (512 × 512 points), with country names and borders.
    @Test func wholeWorldAtZoom1() throws {
        let options = MapSnapshotOptions(framing: .mapRect(.world), size: PointSize(width: 512, height: 512))
        let snapshot = try MapTestFixtures.snapshotter().snapshot(options)
        #expect(abs(snapshot.camera.zoomLevel(viewHeightPoints: 512) - 1) < 0.01)
        GoldenImage.check(snapshot.image, named: "world-zoom1")
    }

    /// The world at zoom 2 over East Asia with Japanese names.
    @Test func countryNamesInJapanese() throws {
        var options = MapSnapshotOptions(region: try CoordinateRegion(center: GeoCoordinate(latitude: 40, longitude: 120),
                                                                       span: CoordinateSpan(latitudeDelta: 60, longitudeDelta: 80)), size: Self.size)
        options.labelLanguage = "ja"
        let japanese = try MapTestFixtures.snapshotter().snapshot(options).image
        options.labelLanguage = "xx"
        let fallback = try MapTestFixtures.snapshotter().snapshot(options).image
        options.labelLanguage = nil
        let local = try MapTestFixtures.snapshotter().snapshot(options).image
        #expect(fallback.components == local.components, "an unknown language falls back to name")
        #expect(japanese.components != local.components)
        GoldenImage.check(japanese, named: "world-east-asia-ja")
    }

    /// The harbour beside Kauppatori: the extract's sea (the boat basin, the quay's edge of Eteläsatama)
    /// is water. The extract ends at 24.9534 E, at the quay; east of it the world layer takes over.
    @Test func kauppatoriHarbour() throws {
        let center = try GeoCoordinate(latitude: 60.1670, longitude: 24.9522)
        let snapshot = try MapTestFixtures.snapshotter().snapshot(MapSnapshotOptions(region: try Self.region(center, meters: 400), size: Self.size))
        let basin = try #require(snapshot.point(for: try GeoCoordinate(latitude: 60.1671, longitude: 24.9530)))
        let water = MapStyle.standard.areas[.water]!
        let pixel = (0..<3).map { snapshot.image[Int(basin.x), Int(basin.y), $0] }
        #expect(pixel == [water.red, water.green, water.blue], "the boat basin is drawn as water: \(pixel)")
        GoldenImage.check(snapshot.image, named: "world-kauppatori-harbour")
    }

    /// A view across the extract's eastern edge at zoom 13: OSM inside, Natural Earth land and sea
    /// outside, never blank.
    @Test func straddlingTheExtractsEdge() throws {
        let center = try GeoCoordinate(latitude: 60.1700, longitude: 24.9534)
        let snapshot = try MapTestFixtures.snapshotter().snapshot(MapSnapshotOptions(region: try Self.region(center, meters: 5_000), size: Self.size))
        let image = snapshot.image
        let east = image.width * 3 / 4 ..< image.width
        #expect(Self.countWashed(MapStyle.standard.sea, in: image, x: east) > 1_000, "the world layer's sea east of the extract, washed")
        #expect(Self.count(MapStyle.standard.sea, in: image, x: east) == 0, "nothing outside the extract looks like data")
        GoldenImage.check(image, named: "world-extract-edge")
    }

    /// Helsinki's South Harbour lies just past the shipped extract's eastern edge, where Natural
    /// Earth's 1:10 m coastline has land: the world layer there is washed out and the edge drawn, so
    /// it cannot be taken for the extract's data; the extract's own water inside stays as it is.
    @Test func theHarbourBeyondTheExtractCannotBeTakenForData() throws {
        let center = try GeoCoordinate(latitude: 60.1665, longitude: 24.9560)
        let snapshotter = try MapTestFixtures.snapshotter()
        let snapshot = try snapshotter.snapshot(MapSnapshotOptions(region: try Self.region(center, meters: 1_600), size: PointSize(width: 450, height: 350)))
        let image = snapshot.image
        let bounds = try #require(try MapDataset(contentsOfFile: MapTestFixtures.helsinkiPath).boundingBox)
        let edge = try #require(snapshot.point(for: try GeoCoordinate(latitude: 60.1665, longitude: bounds.maxLongitude)))
        let outside = (Int(edge.x) + 4)..<image.width
        let style = MapStyle.standard
        // East of the edge: the world layer's land and sea only as washed, never in the data's colours.
        #expect(Self.count(style.worldLand, in: image, x: outside) == 0 && Self.count(style.land, in: image, x: outside) == 0)
        #expect(Self.count(style.sea, in: image, x: outside) == 0)
        #expect(Self.countWashed(style.worldLand, in: image, x: outside) + Self.countWashed(style.sea, in: image, x: outside)
                > outside.count * image.height * 8 / 10)
        // The edge is drawn: along its column, most rows in the edge's grey.
        let column = Int(edge.x.rounded(.down))
        var edgeRows = 0
        for y in 0..<Int(edge.y) where (column - 1...column + 1).contains(where: { x in
            (0..<3).allSatisfy { abs(Int(image[x, y, $0]) - Int([style.extractEdge.red, style.extractEdge.green, style.extractEdge.blue][$0])) <= 40 }
        }) { edgeRows += 1 }
        #expect(edgeRows > Int(edge.y) / 2, "edge drawn on \(edgeRows) of \(Int(edge.y)) rows")
        // Inside, the boat basin by the market is the extract's water.
        let basin = try #require(snapshot.point(for: try GeoCoordinate(latitude: 60.1671, longitude: 24.9530)))
        let water = try #require(style.areas[.water])
        #expect((0..<3).map { image[Int(basin.x), Int(basin.y), $0] } == [water.red, water.green, water.blue])
    }

    /// Six frames of a long flight, 3 × 2, each 159 points square, 300 km camera distance at the ends.
    static func contactSheet(from: GeoCoordinate, to: GeoCoordinate) throws -> (RGBA8Image, [RGBA8Image]) {
        let flight = MapCameraFlight(from: try MapCamera(centerCoordinate: from, centerCoordinateDistanceMeters: 300_000),
                                     to: try MapCamera(centerCoordinate: to, centerCoordinateDistanceMeters: 300_000))
        #expect(flight.kind == .longHaul)
        let snapshotter = try MapTestFixtures.snapshotter()
        var sheet = Canvas(width: 3 * 161 - 2, height: 2 * 161 - 2, background: .white)
        var frames: [RGBA8Image] = []
        for (i, camera) in try flight.cameras(frameCount: 6).enumerated() {
            let frame = try snapshotter.snapshot(MapSnapshotOptions(camera: camera, size: PointSize(width: 159, height: 159))).image
            frames.append(frame)
            sheet.draw(frame, x: (i % 3) * 161, y: (i / 3) * 161)
        }
        return (sheet.image, frames)
    }

    @Test func flightHelsinkiToTokyo() throws {
        let (sheet, frames) = try Self.contactSheet(from: Self.helsinki, to: Self.tokyo)
        for (i, frame) in frames.enumerated() {
            #expect(Self.count(MapStyle.standard.worldLand, in: frame) > 500, "frame \(i) shows land")
        }
        #expect(frames.filter { Self.count(MapStyle.standard.sea, in: $0) > 500 }.count >= 3, "sea at both ends and on the way")
        #expect(frames.filter { Self.borderPixels(in: $0) > 20 }.count >= 3, "borders on the way")
        GoldenImage.check(sheet, named: "world-flight-helsinki-tokyo")
    }

    /// Tokyo to San Francisco crosses the 180th meridian near the Aleutians.
    @Test func flightAcrossThePacific() throws {
        let (sheet, frames) = try Self.contactSheet(from: Self.tokyo, to: Self.sanFrancisco)
        for (i, frame) in frames.enumerated() {
            #expect(Self.count(MapStyle.standard.sea, in: frame) > 500, "frame \(i) shows sea")
        }
        #expect(frames.filter { Self.count(MapStyle.standard.worldLand, in: $0) > 200 }.count >= 4, "land on most frames")
        GoldenImage.check(sheet, named: "world-flight-trans-pacific")
    }
}

@Suite struct WorldMapPropertyTests {
    /// Chukotka lies across the 180th meridian: a view centred there has land on both sides.
    @Test func landOnBothSidesOfThe180thMeridian() throws {
        let center = try GeoCoordinate(latitude: 66, longitude: -180)
        let image = try MapTestFixtures.snapshotter().snapshot(MapSnapshotOptions(region: try WorldMapGoldenTests.region(center, meters: 1_200_000),
                                                                              size: PointSize(width: 200, height: 200))).image
        let land = MapStyle.standard.worldLand
        let west = WorldMapGoldenTests.count(land, in: image, x: 0..<100), east = WorldMapGoldenTests.count(land, in: image, x: 100..<200)
        #expect(west > 2_000 && east > 2_000, "land west \(west), east \(east) of the meridian")
    }

    /// Two worlds side by side when the view is wider than the world (zoom 0 at 512 points).
    @Test func viewsWiderThanTheWorldRepeatIt() throws {
        let camera = try MapCamera(fitting: MapRect(x: 0, y: 0, width: MapSize.world.width * 2, height: MapSize.world.height),
                                   viewWidthPoints: 512, viewHeightPoints: 256)
        let image = try MapTestFixtures.snapshotter().snapshot(MapSnapshotOptions(camera: camera, size: PointSize(width: 512, height: 256))).image
        let land = MapStyle.standard.worldLand
        // Above the attribution, which covers a corner of the right-hand copy.
        let left = WorldMapGoldenTests.count(land, in: image, x: 0..<256, y: 0..<200)
        let right = WorldMapGoldenTests.count(land, in: image, x: 256..<512, y: 0..<200)
        #expect(left > 5_000 && abs(left - right) < left / 10, "land \(left) | \(right)")
    }

    /// Every map type draws the world layer outside the extract: standard and muted in their colours,
    /// imagery and hybrid (no simulated imagery there) in the standard land and sea colours.
    @Test func everyMapTypeDrawsTheWorldOutsideTheExtract() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        let center = try GeoCoordinate(latitude: 60.1700, longitude: 24.9534)
        for type in MapType.allCases {
            var options = MapSnapshotOptions(region: try WorldMapGoldenTests.region(center, meters: 5_000), size: PointSize(width: 200, height: 200),
                                             mapType: type)
            options.orthophotoProvider = SyntheticOrthophoto(snapshotter: snapshotter)
            let image = try snapshotter.snapshot(options).image
            let style = MapStyle.forType(type)
            let sea = WorldMapGoldenTests.countWashed(style.sea, style: style, in: image, x: 170..<200)
            #expect(sea > 1_500, "\(type): \(sea) washed sea pixels at the east edge")
        }
        #expect(MapStyle.forType(.imagery).sea == MapStyle.standard.sea && MapStyle.forType(.hybrid).sea == MapStyle.standard.sea)
    }

    /// "Made with Natural Earth" is on every image that shows the world layer, and only there.
    @Test func naturalEarthCreditWhereTheWorldShows() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        func creditWidth(_ options: MapSnapshotOptions) throws -> Int {
            let image = try snapshotter.snapshot(options).image
            // The attribution box: the leftmost dark text pixel in the bottom 12 rows.
            var left = image.width
            for y in (image.height - 12)..<image.height { for x in 0..<image.width where image[x, y, 0] < 120 { left = min(left, x) } }
            return image.width - left
        }
        let inside = try creditWidth(MapSnapshotOptions(region: try MapTestFixtures.region(meters: 300), size: PointSize(width: 400, height: 200)))
        let world = try creditWidth(MapSnapshotOptions(region: try WorldMapGoldenTests.region(WorldMapGoldenTests.helsinki, meters: 300_000),
                                                       size: PointSize(width: 400, height: 200)))
        #expect(inside > 100 && inside < 160, "OSM credit only: \(inside) pixels")
        #expect(world > inside + 80, "OSM and Natural Earth credits: \(world) pixels")
    }
}
