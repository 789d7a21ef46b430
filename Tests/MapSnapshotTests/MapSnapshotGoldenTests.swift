import Foundation
import Geodesy
import Imaging
@testable import MapSnapshot
import Testing
import TestSupport

/// Golden images of every map type, a pitched camera, overlays with blend modes, grouped annotations and
/// a flight. Each was looked at before it was committed; regenerate with LOOKAROUND_REGENERATE_GOLDEN=1.
@Suite struct MapSnapshotGoldenTests {
    static let size = PointSize(width: 352, height: 352)
    static let red = RGBAColor(red: 234, green: 67, blue: 53)

    static func coverage() throws -> PanoramaLocations {
        PanoramaLocations(try GeoJSONReader.read(file: MapTestFixtures.fixture("coverage.geojson")).points)
    }

    @Test func standardWithPinsAndCoverage() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        var options = MapSnapshotOptions(region: try MapTestFixtures.region(meters: 700), size: Self.size)
        options.coverage = try Self.coverage()
        options.annotations = [MapAnnotation(coordinate: MapTestFixtures.centre, title: "Kluuvi"),
                               MapAnnotation(coordinate: try GeoCoordinate(latitude: 60.1686, longitude: 24.9414), title: "Rautatientori",
                                             appearance: .pin(color: RGBAColor(red: 0, green: 122, blue: 255)))]
        let snapshot = try snapshotter.snapshot(options)
        GoldenImage.check(snapshot.image, named: "standard")
    }

    @Test func muted() throws {
        let options = MapSnapshotOptions(region: try MapTestFixtures.region(meters: 700), size: Self.size, mapType: .muted)
        GoldenImage.check(try MapTestFixtures.snapshotter().snapshot(options).image, named: "muted")
    }

    @Test func imageryAndHybridDrawFromTheProvider() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        var options = MapSnapshotOptions(region: try MapTestFixtures.region(meters: 700), size: Self.size, mapType: .imagery)
        #expect { try snapshotter.snapshot(options) } throws: { error in
            guard case MapSnapshotError.mapTypeUnavailable(.imagery, let reason) = error else { return false }
            return reason.contains("orthophoto provider")
        }
        options.orthophotoProvider = SyntheticOrthophoto(snapshotter: snapshotter)
        GoldenImage.check(try snapshotter.snapshot(options).image, named: "imagery")
        options.mapType = .hybrid
        GoldenImage.check(try snapshotter.snapshot(options).image, named: "hybrid")
    }

    @Test func pitchedCameraExtrudesBuildings() throws {
        let camera = try MapCamera(centerCoordinate: GeoCoordinate(latitude: 60.1680, longitude: 24.9440),
                                   centerCoordinateDistanceMeters: 600, heading: .degrees(25), pitch: MapCameraPitch(degrees: 62))
        let snapshot = try MapTestFixtures.snapshotter().snapshot(MapSnapshotOptions(camera: camera, size: Self.size))
        GoldenImage.check(snapshot.image, named: "pitched")
    }

    @Test func overlaysWithBlendModes() throws {
        let c = MapTestFixtures.centre
        func at(_ north: Double, _ east: Double) throws -> GeoCoordinate {
            try c.destination(azimuth: .degrees(atan2(east, north) * 180 / .pi), distanceMeters: (north * north + east * east).squareRoot())
        }
        var options = MapSnapshotOptions(region: try MapTestFixtures.region(meters: 700), size: Self.size, mapType: .standard)
        let modes: [BlendMode] = [.multiply, .screen, .colorBurn, .hardLight, .hue, .saturation]
        let colors = [RGBAColor(red: 230, green: 60, blue: 60), RGBAColor(red: 40, green: 90, blue: 220),
                      RGBAColor(red: 250, green: 170, blue: 30), RGBAColor(red: 40, green: 180, blue: 90),
                      RGBAColor(red: 200, green: 40, blue: 200), RGBAColor(red: 255, green: 0, blue: 0)]
        // Hue and saturation change only coloured ground (roads, the Esplanadi park): those two sit there.
        let centres: [(Double, Double)] = [(130, -200), (130, 0), (130, 200), (-130, -200), (-285, -20), (-285, 190)]
        for (i, mode) in modes.enumerated() {
            let (north, east) = centres[i]
            options.overlays.append(MapOverlay(geometry: .circle(center: try at(north, east), radiusMeters: 95),
                                               strokeColor: colors[i], fillColor: colors[i], lineWidthPoints: 3,
                                               alpha: 0.9, blendMode: mode))
        }
        // A polygon with a hole, above labels, translucent, and a route line.
        options.overlays.append(MapOverlay(geometry: .polygon(outer: [try at(60, -320), try at(60, 320), try at(-60, 320), try at(-60, -320)],
                                                              holes: [[try at(25, -60), try at(25, 60), try at(-25, 60), try at(-25, -60)]]),
                                           strokeColor: RGBAColor(red: 20, green: 20, blue: 20), fillColor: RGBAColor(red: 255, green: 230, blue: 0),
                                           lineWidthPoints: 2, alpha: 0.45, level: .aboveLabels))
        options.overlays.append(MapOverlay(geometry: .polyline([try at(-330, -330), try at(-200, 0), try at(330, 330)], geodesic: true),
                                           strokeColor: RGBAColor(red: 0, green: 122, blue: 255), lineWidthPoints: 6))
        GoldenImage.check(try MapTestFixtures.snapshotter().snapshot(options).image, named: "overlays-blend-modes")
    }

    /// 1,000 seeded pins: counted groups when zoomed out, split when zoomed in.
    @Test func groupedAnnotations() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var annotations: [MapAnnotation] = []
        for _ in 0..<1000 {
            // Clustered around a few centres, like shops along streets.
            let hub = Int(random() * 5)
            let lat = 60.1655 + Double(hub) * 0.0018 + (random() - 0.5) * 0.004
            let lon = 24.9380 + Double(hub % 3) * 0.006 + (random() - 0.5) * 0.006
            annotations.append(MapAnnotation(coordinate: try GeoCoordinate(latitude: lat, longitude: lon), clusteringIdentifier: "shops"))
        }
        let snapshotter = try MapTestFixtures.snapshotter()
        var options = MapSnapshotOptions(region: try MapTestFixtures.region(meters: 1600), size: Self.size, mapType: .muted)
        options.annotations = annotations
        options.pointOfInterestFilter = .excludingAll
        let far = try snapshotter.snapshot(options)
        GoldenImage.check(far.image, named: "grouped-far")
        options.framing = .region(try MapTestFixtures.region(try GeoCoordinate(latitude: 60.1672, longitude: 24.9410), meters: 250))
        GoldenImage.check(try snapshotter.snapshot(options).image, named: "grouped-near")
    }

    /// Four frames of a flight across the extract, as a 2 × 2 contact sheet.
    @Test func flightContactSheet() throws {
        let start = try MapCamera(centerCoordinate: GeoCoordinate(latitude: 60.1655, longitude: 24.9395), centerCoordinateDistanceMeters: 500,
                                  heading: .degrees(0), pitch: MapCameraPitch(degrees: 45))
        let end = try MapCamera(centerCoordinate: MapTestFixtures.senateSquare, centerCoordinateDistanceMeters: 500,
                                heading: .degrees(90), pitch: MapCameraPitch(degrees: 45))
        let flight = MapCameraFlight(from: start, to: end)
        #expect(flight.kind == .direct)
        let snapshotter = try MapTestFixtures.snapshotter()
        var sheet = Canvas(width: 320, height: 320, background: .white)
        for (i, camera) in try flight.cameras(frameCount: 4).enumerated() {
            var options = MapSnapshotOptions(camera: camera, size: PointSize(width: 159, height: 159))
            options.pointOfInterestFilter = .excludingAll
            options.annotations = [MapAnnotation(coordinate: MapTestFixtures.senateSquare)]
            sheet.draw(try snapshotter.snapshot(options).image, x: (i % 2) * 161, y: (i / 2) * 161)
        }
        GoldenImage.check(sheet.image, named: "flight")
    }
}

@Suite struct MapSnapshotPropertyTests {
    /// No label touches an excluded area: excluding the whole picture draws it as with labels off, and
    /// excluding a line (a map tile's edge) leaves labels elsewhere; the attribution can be left out.
    @Test func labelsKeepOutOfExcludedAreasAndTheAttributionCanGo() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        var options = MapSnapshotOptions(region: try MapTestFixtures.region(meters: 600), size: PointSize(width: 256, height: 256))
        options.showsAttribution = false
        let labelled = try snapshotter.snapshot(options).image
        options.labelExclusions = [PixelRect(minX: 0, minY: 0, maxX: 256, maxY: 256)]
        let excluded = try snapshotter.snapshot(options).image
        options.labelExclusions = []
        options.showsLabels = false
        let unlabelled = try snapshotter.snapshot(options).image
        #expect(excluded == unlabelled)
        #expect(labelled != unlabelled, "the view has labels to exclude")
        // A line down the middle: some labels stay, none covers the line (its column matches the unlabelled map).
        options.showsLabels = true
        options.labelExclusions = [PixelRect(minX: 127.5, minY: 0, maxX: 128.5, maxY: 256)]
        let split = try snapshotter.snapshot(options).image
        #expect(split != unlabelled)
        var differing = 0
        for y in 0..<256 where (0..<4).contains(where: { split[128, y, $0] != unlabelled[128, y, $0] }) { differing += 1 }
        #expect(differing == 0, "\(differing) pixels of the excluded column carry labels")
        // With the attribution (the default), the bottom-right corner differs.
        var withCredit = MapSnapshotOptions(region: try MapTestFixtures.region(meters: 600), size: PointSize(width: 256, height: 256))
        withCredit.showsLabels = false
        #expect(try snapshotter.snapshot(withCredit).image != unlabelled)
    }

    /// The pin's tip (its lowest pin-coloured pixel) is on the coordinate.
    @Test func pinTipIsOnTheCoordinate() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        let magenta = RGBAColor(red: 255, green: 0, blue: 255)
        var options = MapSnapshotOptions(region: try MapTestFixtures.region(MapTestFixtures.senateSquare, meters: 500),
                                         size: PointSize(width: 300, height: 300), scale: 2)
        options.annotations = [MapAnnotation(coordinate: MapTestFixtures.senateSquare, appearance: .pin(color: magenta))]
        options.showsLabels = false
        let snapshot = try snapshotter.snapshot(options)
        let point = try #require(snapshot.point(for: MapTestFixtures.senateSquare))
        let tipX = Int(point.x * 2), tipY = point.y * 2
        var lowest = -1
        for y in 0..<snapshot.image.height {
            for x in (tipX - 3)...(tipX + 3) where Int(snapshot.image[x, y, 0]) - Int(snapshot.image[x, y, 1]) > 60
                && Int(snapshot.image[x, y, 2]) - Int(snapshot.image[x, y, 1]) > 60 {
                lowest = y
            }
        }
        #expect(abs(Double(lowest) + 0.5 - tipY) <= 2, "lowest pin pixel row \(lowest), coordinate at \(tipY)")
    }

    @Test func attributionIsOnEveryMapType() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        for type in MapType.allCases {
            var options = MapSnapshotOptions(region: try MapTestFixtures.region(meters: 300), size: PointSize(width: 240, height: 120), mapType: type)
            options.orthophotoProvider = SyntheticOrthophoto(snapshotter: snapshotter)
            let image = try snapshotter.snapshot(options).image
            // The attribution box: dark text pixels in the bottom-right corner.
            var dark = 0
            for y in (image.height - 12)..<image.height { for x in (image.width - 140)..<image.width where image[x, y, 0] < 120 { dark += 1 } }
            #expect(dark > 40, "\(type): \(dark) dark pixels")
        }
    }

    @Test func badOptionsThrow() throws {
        let snapshotter = try MapTestFixtures.snapshotter()
        let region = try MapTestFixtures.region(meters: 300)
        #expect(throws: MapSnapshotError.invalidSize(width: 0, height: 10, scale: 1)) {
            try snapshotter.snapshot(MapSnapshotOptions(region: region, size: PointSize(width: 0, height: 10)))
        }
        var options = MapSnapshotOptions(region: region, size: PointSize(width: 10, height: 10))
        options.overlays = [MapOverlay(geometry: .polyline([MapTestFixtures.centre], geodesic: false))]
        #expect(throws: MapSnapshotError.valueOutOfRange(parameter: "polyline point count", value: 1, allowed: "at least 2")) {
            try snapshotter.snapshot(options)
        }
    }
}
