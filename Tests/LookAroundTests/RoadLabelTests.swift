import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import Reprojection
import Simulator
import Testing

/// Street names painted on the ground: on the street, in perspective, hidden behind walls, switchable.
@Suite struct RoadLabelTests {
    /// How far (view pixels) the painted text's middle line may be from the street centreline as the
    /// simulator's own pinhole camera sees it.
    static let tolerancePixels = 3.0
    /// How far the text's reading direction may be from the street's (either way), degrees.
    static let directionToleranceDegrees = 1.0

    /// A point of Testikatu's centreline in the simulator's scene coordinates (its own frame, not the
    /// catalog's), `east` metres along the town's frame.
    func testikatu(east: Double, _ town: TinyTown) throws -> EastNorthUp {
        try town.model.frame.enu(from: try town.coordinate(east: east, north: 0))
    }

    @Test func labelLiesOnTheStreetCentrelineInPerspective() async throws {
        let town = try TinyTown.shared.get()
        let west = try testikatu(east: -80, town), east = try testikatu(east: 80, town)
        let streetBearing = atan2(east.east - west.east, east.north - west.north) * 180 / .pi
        var checked = 0
        var worst = 0.0
        for capture in town.captures {
            let scene = try await town.scene(at: capture)
            let options = LookAroundSnapshotter.Options(pointOfInterestFilter: .excludingAll)
            for (heading, pitch) in [(90.0, -8.0), (270, -8), (78, -12), (258, -4), (100, -20)] {
                let camera = try ViewCamera(headingDegrees: heading, pitchDegrees: pitch, fieldOfViewDegrees: 90,
                                            width: 640, height: 360)
                let labels = try LookAroundSnapshotter(scene: scene, options: options).roadLabels(for: camera, catalog: town.catalog)
                guard let label = labels.first(where: { $0.name == "Testikatu" }) else {
                    Issue.record("no Testikatu label from \(capture.id) heading \(heading)° pitch \(pitch)°: \(labels)")
                    continue
                }
                #expect(!labels.contains { $0.name.hasPrefix("Piilo") })
                // The centreline ahead, as the simulator's camera projects it (ground at up = 0).
                let pinhole = try PinholeCamera(position: capture.scenePosition, headingDegrees: heading, pitchDegrees: pitch,
                                                fieldOfViewDegrees: 90, width: 640, height: 360)
                let ahead = heading < 180 ? 1.0 : -1.0
                func onStreet(_ metres: Double) throws -> EastNorthUp {
                    let t = (capture.scenePosition.east + ahead * metres - west.east) / (east.east - west.east)
                    return EastNorthUp(east: west.east + t * (east.east - west.east), north: west.north + t * (east.north - west.north), up: 0)
                }
                let a = try #require(pinhole.pixel(for: try onStreet(6))), b = try #require(pinhole.pixel(for: try onStreet(40)))
                let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
                #expect(label.centerline.count == LookAroundRoadLabel.centerlineSampleCount)
                for p in label.centerline {
                    let error = abs((p.x - a.x) * dy - (p.y - a.y) * dx) / length
                    worst = max(worst, error)
                    #expect(error <= Self.tolerancePixels, "\(capture.id) heading \(heading)°: \(p) is \(error) px off the street")
                }
                // Along the street, either way.
                var turn = (label.readingBearingDegrees - streetBearing).truncatingRemainder(dividingBy: 180)
                if turn < 0 { turn += 180 }
                #expect(min(turn, 180 - turn) <= Self.directionToleranceDegrees, "reads at \(label.readingBearingDegrees)°")
                // Readable: left to right (bottom to top when it runs up the view), and not mirrored
                // (the letters' up is a quarter turn anticlockwise from the reading direction on screen).
                let reading = label.corners[1] - label.corners[0], up = label.corners[3] - label.corners[0]
                #expect(abs(reading.x) >= 0.2 * abs(reading.y) ? reading.x > 0 : reading.y < 0, "reads along \(reading)")
                #expect(reading.x * up.y - reading.y * up.x < 0, "mirrored: reading \(reading), up \(up)")
                // In perspective: the letters are smaller at the far end.
                let startHeight = (label.corners[3] - label.corners[0]).length, endHeight = (label.corners[2] - label.corners[1]).length
                let nearStart = label.groundStart.east * label.groundStart.east + label.groundStart.north * label.groundStart.north
                    < label.groundEnd.east * label.groundEnd.east + label.groundEnd.north * label.groundEnd.north
                #expect(nearStart ? startHeight > endHeight * 1.2 : endHeight > startHeight * 1.2,
                        "letter heights \(startHeight) → \(endHeight) px")
                // On the ground, below the camera by its height.
                #expect(abs(label.groundStart.up + capture.cameraHeightMeters) < 1e-9)
                #expect(LookAroundRoadLabelPlacer().distanceRangeMeters.contains(label.distanceMeters))
                checked += 1
            }
        }
        #expect(checked >= 12)
        print("road label vs street centreline: \(checked) views, largest error \(String(format: "%.2f", worst)) px")
    }

    /// Piilotie and Piilokuja run 4 m behind the blocks: inside the view, in range, but never in sight.
    @Test func streetBehindABuildingGetsNoLabel() async throws {
        let town = try TinyTown.shared.get()
        let capture = try #require(town.captures.first { abs($0.scenePosition.east) < 5 })
        let scene = try await town.scene(at: capture)
        let snapshotter = LookAroundSnapshotter(scene: scene, options: .init(pointOfInterestFilter: .excludingAll))
        // Permissive limits, so that only the depth check can keep the name off: a street 34 m away
        // across the view is otherwise too thin to read.
        var blind = LookAroundRoadLabelPlacer(distanceRangeMeters: 5...60, minimumLetterPixels: 0)
        blind.checksOcclusion = false
        var seeing = blind
        seeing.checksOcclusion = true
        var offered = 0
        let hidden = ["Piilotie", "Piilokuja"]
        for heading in [-20.0, 0, 20, 160, 180, 200] {
            let camera = try ViewCamera(headingDegrees: heading, pitchDegrees: -5, fieldOfViewDegrees: 90, width: 640, height: 360)
            let withoutDepth = try snapshotter.roadLabels(for: camera, catalog: town.catalog, placer: blind)
            if withoutDepth.contains(where: { hidden.contains($0.name) }) { offered += 1 }
            let withDepth = try snapshotter.roadLabels(for: camera, catalog: town.catalog, placer: seeing)
            #expect(!withDepth.contains { hidden.contains($0.name) }, "heading \(heading)°: \(withDepth)")
            #expect(try snapshotter.roadLabels(for: camera, catalog: town.catalog).isEmpty)
        }
        #expect(offered >= 4, "the hidden streets should be candidates when depth is ignored")
    }

    @Test func languageFallsBackToTheLocalNameAndCJKRenders() async throws {
        let town = try TinyTown.shared.get()
        let capture = try #require(town.captures.first { abs($0.scenePosition.east) < 5 })
        let scene = try await town.scene(at: capture)
        var options = LookAroundSnapshotter.Options(size: PixelSize(width: 640, height: 360),
                                                    camera: .init(headingDegrees: 90, pitchDegrees: -8),
                                                    pointOfInterestFilter: .excludingAll)
        var names: [String: LookAroundSnapshotter.Snapshot] = [:]
        for language in ["sv", "ja", "de"] {
            options.language = language
            let snapshot = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
            names[language] = snapshot
        }
        #expect(names["sv"]?.roadLabels.map(\.name) == ["Testgatan"])
        #expect(names["ja"]?.roadLabels.map(\.name) == ["テスト通り"])
        #expect(names["de"]?.roadLabels.map(\.name) == ["Testikatu"])
        // The CJK name is painted (the fallback font has the glyphs): it differs from the plain view
        // in the label's box, and from the Finnish name.
        options.showsRoadLabels = false
        let plain = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
        let japanese = try #require(names["ja"]), german = try #require(names["de"])
        #expect(ImageMetrics.differingPixelFraction(japanese.image, plain.image, threshold: 40) > 0.002)
        #expect(japanese.image != german.image)
    }
}

extension RoadLabelTests {
    /// Pixels of `a` and `b` that differ, as (x, y).
    static func differing(_ a: RGB8Image, _ b: RGB8Image) -> [(x: Int, y: Int)] {
        var result: [(x: Int, y: Int)] = []
        for y in 0..<a.height {
            for x in 0..<a.width {
                let i = (y * a.width + x) * 3
                if a.components[i] != b.components[i] || a.components[i + 1] != b.components[i + 1]
                    || a.components[i + 2] != b.components[i + 2] { result.append((x, y)) }
            }
        }
        return result
    }

    /// showsRoadLabels decides the street names and changes nothing else: without them the view is
    /// the unlabelled one except around the place labels, and with them it changes only inside the
    /// painted text's box.
    @Test func showsRoadLabelsSwitchesOnlyTheStreetNames() async throws {
        let town = try TinyTown.shared.get()
        let capture = try #require(town.captures.min { $0.scenePosition.east < $1.scenePosition.east })
        let scene = try await town.scene(at: capture)
        var options = LookAroundSnapshotter.Options(size: PixelSize(width: 640, height: 360),
                                                    camera: .init(headingDegrees: 90, pitchDegrees: -8))
        func render() async throws -> LookAroundSnapshotter.Snapshot {
            try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
        }
        let everything = try await render()
        options.showsRoadLabels = false
        let placesOnly = try await render()
        options.pointOfInterestFilter = .excludingAll
        let nothing = try await render()
        #expect(!everything.roadLabels.isEmpty)
        #expect(placesOnly.roadLabels.isEmpty && nothing.roadLabels.isEmpty && nothing.labels.isEmpty)
        #expect(!placesOnly.labels.isEmpty, "the café should be labelled in this view")
        #expect(everything.labels == placesOnly.labels)

        // Places only vs nothing: differences only around the place labels (name above the anchor).
        let placeChanges = Self.differing(placesOnly.image, nothing.image)
        #expect(!placeChanges.isEmpty)
        for p in placeChanges {
            let near = placesOnly.labels.contains { label in
                let half = Double(label.name.count) * 22 * 0.6 / 2 + 20
                return abs(Double(p.x) + 0.5 - label.anchor.x) <= half && Double(p.y) + 0.5 >= label.anchor.y - 40
                    && Double(p.y) + 0.5 <= label.anchor.y + 8
            }
            #expect(near, "pixel \(p) changed away from every place label")
            if !near { break }
        }
        // Everything vs places only: differences only inside the street names' boxes (plus 2 px of
        // bilinear fringe), and plenty of them.
        let roadChanges = Self.differing(everything.image, placesOnly.image)
        #expect(roadChanges.count > 500)
        for p in roadChanges {
            let inside = everything.roadLabels.contains { label in
                let xs = label.corners.map(\.x), ys = label.corners.map(\.y)
                return Double(p.x) >= xs.min()! - 3 && Double(p.x) <= xs.max()! + 3
                    && Double(p.y) >= ys.min()! - 3 && Double(p.y) <= ys.max()! + 3
            }
            #expect(inside, "pixel \(p) changed outside every street name")
            if !inside { break }
        }
    }
}

extension RoadLabelTests {
    /// What is painted of a street name (letters, halo, filtering fringe) keeps a few pixels off the
    /// view's edges: the placer's box is the painted box, and its margin covers the fringe.
    @Test func paintedNamesStayClearOfTheViewEdges() async throws {
        let town = try TinyTown.shared.get()
        let capture = try #require(town.captures.min { $0.scenePosition.east < $1.scenePosition.east })
        let scene = try await town.scene(at: capture)
        var painted = 0
        for (heading, pitch) in [(90.0, -8.0), (100, -20), (60, -12), (120, -12)] {
            var options = LookAroundSnapshotter.Options(size: PixelSize(width: 480, height: 270),
                                                        camera: .init(headingDegrees: heading, pitchDegrees: pitch),
                                                        pointOfInterestFilter: .excludingAll)
            let with = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
            options.showsRoadLabels = false
            let without = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
            let changes = Self.differing(with.image, without.image)
            if !with.roadLabels.isEmpty { painted += 1 }
            let margin = 2
            let touching = changes.filter { $0.x < margin || $0.y < margin || $0.x >= 480 - margin || $0.y >= 270 - margin }
            #expect(touching.isEmpty, "heading \(heading)° pitch \(pitch)°: \(touching.count) painted pixels within \(margin) px of the edge, e.g. \(touching.prefix(3))")
        }
        #expect(painted >= 3, "most of these views should have a street name")
    }
}
