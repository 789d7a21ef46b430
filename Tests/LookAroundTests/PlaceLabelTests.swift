import Catalog
import Foundation
import Geodesy
import Imaging
@testable import LookAround
import Reprojection
import Simulator
import Testing

/// DESIGN §7: labels must land where the sign is.
@Suite struct PlaceLabelTests {
    /// How far (view pixels) a label's anchor may be from the simulator's sign centre.
    static let tolerancePixels = 3.0

    /// The scene of the capture in the middle of the street (|east| < 25 m), the café's sign south of it.
    static func middleScene(_ town: TinyTown) async throws -> LookAroundScene {
        let capture = try #require(town.captures.first { abs($0.scenePosition.east) < 25 })
        return try await town.scene(at: capture)
    }

    @Test func cafeLabelLandsOnItsSign() async throws {
        let town = try TinyTown.shared.get()
        let sign = try #require(town.model.signs.first { $0.text == "Café Test" })
        var checked = 0
        var worst = 0.0
        for capture in town.captures {
            let scene = try await town.scene(at: capture)
            let toSign = EastNorthUp(east: sign.center.east - capture.scenePosition.east,
                                     north: sign.center.north - capture.scenePosition.north, up: 0)
            let heading = atan2(toSign.east, toSign.north) * 180 / .pi
            for offset in [0.0, 12, 25] {
                let camera = try ViewCamera(headingDegrees: heading + offset, pitchDegrees: 5, fieldOfViewDegrees: 90,
                                            width: 320, height: 240)
                // Only the café's group, so that a nearer shop's label cannot declutter it away: this test
                // is about where the anchor lands (declutter has its own test).
                let snapshotter = LookAroundSnapshotter(scene: scene, options: .init(pointOfInterestFilter: .including([.food])))
                let labels = try snapshotter.placeLabels(for: camera, catalog: town.catalog)
                let pinhole = try PinholeCamera(position: capture.scenePosition, headingDegrees: camera.headingDegrees,
                                                pitchDegrees: 5, fieldOfViewDegrees: 90, width: 320, height: 240)
                let expected = try #require(pinhole.pixel(for: sign.center))
                guard let label = labels.first(where: { $0.name == "Café Test" }) else {
                    Issue.record("no café label from \(capture.id) at \(capture.scenePosition), heading \(camera.headingDegrees): \(labels), sign at \(expected)")
                    continue
                }
                let error = hypot(label.anchor.x - expected.x, label.anchor.y - expected.y)
                #expect(error <= Self.tolerancePixels,
                        "\(capture.id) heading \(camera.headingDegrees): label at \(label.anchor.x), \(label.anchor.y), sign at \(expected)")
                checked += 1
                worst = max(worst, error)
            }
        }
        #expect(checked >= 6)
        print("café label vs sign: \(checked) views, largest error \(String(format: "%.2f", worst)) px")
    }

    @Test func filterAndLanguage() async throws {
        let town = try TinyTown.shared.get()
        let scene = try await Self.middleScene(town)
        let camera = try ViewCamera(headingDegrees: 180, fieldOfViewDegrees: 120, width: 320, height: 240)
        var options = LookAroundSnapshotter.Options()
        options.language = "sv"
        let swedish = try LookAroundSnapshotter(scene: scene, options: options).placeLabels(for: camera, catalog: town.catalog)
        #expect(swedish.contains { $0.name == "Kafé Test" })
        options.pointOfInterestFilter = .excluding([.food])
        let noFood = try LookAroundSnapshotter(scene: scene, options: options).placeLabels(for: camera, catalog: town.catalog)
        #expect(!noFood.contains { $0.categoryGroup == .food })
    }
}

extension PlaceLabelTests {
    @Test func snapshotDrawsItsLabelsAndNoneWhenExcluded() async throws {
        let town = try TinyTown.shared.get()
        let scene = try await Self.middleScene(town)
        var options = LookAroundSnapshotter.Options(size: PixelSize(width: 320, height: 240))
        options.camera = .init(headingDegrees: 180, fieldOfViewDegrees: 100)
        let labelled = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
        #expect(labelled.labels.contains { $0.name == "Café Test" })
        options.pointOfInterestFilter = .excludingAll
        let plain = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
        #expect(plain.labels.isEmpty)
        #expect(labelled.image != plain.image)
        // Only pixels around the labels change.
        let changed = ImageMetrics.differingPixelFraction(labelled.image, plain.image, threshold: 0)
        #expect(changed > 0 && changed < 0.1)
    }
}

extension PlaceLabelTests {
    /// Every pixel a place label changes lies inside that label's measured box, and no two boxes overlap.
    @Test func measuredBoxesHoldWhatIsDrawnAndNeverOverlap() async throws {
        let town = try TinyTown.shared.get()
        var checkedLabels = 0
        for capture in town.captures.prefix(4) {
            let scene = try await town.scene(at: capture)
            for heading in stride(from: 0.0, to: 360, by: 90) {
                var options = LookAroundSnapshotter.Options(size: PixelSize(width: 320, height: 240), showsRoadLabels: false)
                options.camera = .init(headingDegrees: heading, fieldOfViewDegrees: 100)
                let labelled = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
                options.pointOfInterestFilter = .excludingAll
                let plain = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
                let boxes = labelled.labels.map(\.box)
                for (i, a) in boxes.enumerated() {
                    #expect(a.maxX > a.minX && a.maxY > a.minY)
                    for b in boxes[(i + 1)...] {
                        #expect(!(a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY), "\(a) overlaps \(b)")
                    }
                }
                for y in 0..<240 {
                    for x in 0..<320 where (0..<3).contains(where: { labelled.image.components[(y * 320 + x) * 3 + $0]
                                                                    != plain.image.components[(y * 320 + x) * 3 + $0] }) {
                        let px = Double(x) + 0.5, py = Double(y) + 0.5
                        let inside = boxes.contains { px >= $0.minX && px <= $0.maxX && py >= $0.minY && py <= $0.maxY }
                        #expect(inside, "pixel (\(x), \(y)) changed outside every label box, heading \(heading)")
                        if !inside { return }
                    }
                }
                checkedLabels += labelled.labels.count
            }
        }
        #expect(checkedLabels >= 3, "the views must show some labels to check")
    }

    /// Nearer labels are larger and more opaque: 22 px and fully opaque up close, 11 px and 45 % from 55 m
    /// (size) and 55 m (opacity) on; a drawn near name is taller than a far one.
    @Test func sizeAndOpacityFollowDistance() throws {
        #expect(LookAroundSnapshotter.labelPixelSize(distanceMeters: 0) == 22)
        #expect(LookAroundSnapshotter.labelPixelSize(distanceMeters: 55) == 11)
        #expect(LookAroundSnapshotter.labelPixelSize(distanceMeters: 200) == 11)
        #expect(LookAroundSnapshotter.labelOpacity(distanceMeters: 0) == 1)
        #expect(LookAroundSnapshotter.labelOpacity(distanceMeters: 55) == 0.45)
        let distances = stride(from: 0.0, through: 80, by: 5).map { $0 }
        for (near, far) in zip(distances, distances.dropFirst()) {
            #expect(LookAroundSnapshotter.labelPixelSize(distanceMeters: near) >= LookAroundSnapshotter.labelPixelSize(distanceMeters: far))
            #expect(LookAroundSnapshotter.labelOpacity(distanceMeters: near) >= LookAroundSnapshotter.labelOpacity(distanceMeters: far))
        }
        let renderer = TextRenderer(fonts: try LookAroundSnapshotter.fonts.get())
        func label(_ distance: Double) -> LookAroundPlaceLabel {
            LookAroundPlaceLabel(name: "Café Test", category: "cafe", categoryGroup: .food, anchor: PixelPoint(x: 160, y: 120),
                                 distanceMeters: distance)
        }
        let near = try LookAroundSnapshotter.layout(of: label(5), viewWidth: 320, renderer: renderer)
        let far = try LookAroundSnapshotter.layout(of: label(60), viewWidth: 320, renderer: renderer)
        #expect(near.box.maxY - near.box.minY > far.box.maxY - far.box.minY + 5)
        #expect(near.box.maxX - near.box.minX > 1.5 * (far.box.maxX - far.box.minX))
        #expect(near.halo.alpha > far.halo.alpha)
    }
}

extension PlaceLabelTests {
    /// A depth map (cm, 65535 sky) of a camera 2.5 m up on flat ground inside a ring of 15 m walls
    /// `radius` metres away.
    static func ringDepth(radius: Double) -> Gray16Image {
        var depth = Gray16Image(width: 512, height: 256)
        for y in 0..<256 {
            let elevation = (0.5 - (Double(y) + 0.5) / 256) * .pi
            var range = Double.infinity
            let wallHeight = radius * tan(elevation) + 2.5
            if wallHeight >= 0 && wallHeight <= 15 { range = radius / cos(elevation) }
            if elevation < 0 { range = min(range, 2.5 / sin(-elevation)) }
            let value = range.isFinite ? UInt16(min(65534, (range * 100).rounded())) : 65535
            for x in 0..<512 { depth.components[y * 512 + x] = value }
        }
        return depth
    }

    /// The same ring seen by a camera with `pose`: each depth pixel's ray through the pose's
    /// equirectangular frame, traced against the walls and the ground in the world.
    static func ringDepth(radius: Double, pose: PanoramaPose) -> Gray16Image {
        let frame = EquirectangularFrame(pose: pose)
        var depth = Gray16Image(width: 512, height: 256)
        for y in 0..<256 {
            for x in 0..<512 {
                let d = frame.direction(u: (Double(x) + 0.5) / 512, v: (Double(y) + 0.5) / 256)
                let horizontal = (d.east * d.east + d.north * d.north).squareRoot()
                var range = Double.infinity
                if horizontal > 1e-9 {
                    let toWall = radius / horizontal
                    let height = 2.5 + d.up * toWall
                    if height >= 0 && height <= 15 { range = toWall }
                }
                if d.up < 0 { range = min(range, 2.5 / -d.up) }
                depth.components[y * 512 + x] = range.isFinite ? UInt16(min(65534, (range * 100).rounded())) : 65535
            }
        }
        return depth
    }

    /// A panorama with pose pitch and roll (real cameras write them): its depth map is read through
    /// the posed frame, so places hang on the wall at sign height as on a level panorama. Read as level
    /// (what the placer did before), the same depth map puts them metres off or hides them.
    @Test(arguments: [PanoramaPose(headingDegrees: 30, pitchDegrees: 12, rollDegrees: -8),
                      PanoramaPose(headingDegrees: 200, pitchDegrees: -6, rollDegrees: 15)])
    func labelsOnATiltedPanoramaStayOnTheirFacades(pose: PanoramaPose) throws {
        let depth = Self.ringDepth(radius: 25, pose: pose)
        let placer = LookAroundLabelPlacer(depth: depth, pose: pose, cameraHeightMeters: 2.5)
        let asLevel = LookAroundLabelPlacer(depth: depth, pose: PanoramaPose(headingDegrees: pose.headingDegrees), cameraHeightMeters: 2.5)
        var levelErrors: [Double] = []
        for bearing in stride(from: 0.0, to: 360, by: 30) {
            let place = EastNorthUp(east: 22 * sin(bearing * .pi / 180), north: 22 * cos(bearing * .pi / 180), up: 0)
            let anchor = try #require(placer.anchor(forPlaceAt: place), "bearing \(bearing)")
            let distance = (anchor.east * anchor.east + anchor.north * anchor.north).squareRoot()
            #expect(abs(distance - 25) < 0.4, "bearing \(bearing): anchor \(distance) m out, the wall is at 25")
            #expect(abs(anchor.up - (LookAroundLabelPlacer.signHeightMeters - 2.5)) < 0.4, "bearing \(bearing): \(anchor)")
            let wrong = asLevel.anchor(forPlaceAt: place)
            levelErrors.append(wrong.map { abs(($0.east * $0.east + $0.north * $0.north).squareRoot() - 25) + abs($0.up - (LookAroundLabelPlacer.signHeightMeters - 2.5)) } ?? .infinity)
        }
        #expect(levelErrors.contains { $0 > 1 }, "read as level the labels should go wrong somewhere: \(levelErrors)")
    }

    /// "Their facade, else 3 m": a place near a wall hangs on it at sign height; one out in the open
    /// gets its own position 3 m up; one behind the wall is hidden.
    @Test func openAirPlacesAnchorThreeMetresUpUnlessCovered() throws {
        let placer = LookAroundLabelPlacer(depth: Self.ringDepth(radius: 25), pose: PanoramaPose(headingDegrees: 30), cameraHeightMeters: 2.5)
        let nearWall = try #require(placer.anchor(forPlaceAt: EastNorthUp(east: 0, north: 22, up: 0)))
        #expect(abs((nearWall.east * nearWall.east + nearWall.north * nearWall.north).squareRoot() - 25) < 0.3, "\(nearWall)")
        #expect(abs(nearWall.up - (LookAroundLabelPlacer.signHeightMeters - 2.5)) < 1e-9)
        let open = try #require(placer.anchor(forPlaceAt: EastNorthUp(east: 8, north: -6, up: 0)))
        #expect(open.east == 8 && open.north == -6 && abs(open.up - 0.5) < 1e-9, "\(open)")
        #expect(placer.anchor(forPlaceAt: EastNorthUp(east: -30, north: 30, up: 0)) == nil, "42 m out, behind the 25 m wall")
        // With no walls at all (sky everywhere above the ground) a place is seen at its own position.
        let openField = LookAroundLabelPlacer(depth: Self.ringDepth(radius: 10_000), pose: .north, cameraHeightMeters: 2.5)
        #expect(openField.anchor(forPlaceAt: EastNorthUp(east: 40, north: 0, up: 0)) != nil)
    }
}

extension PlaceLabelTests {
    /// A reserved part of the view (a map inset, a heads-up band) holds no label: one over the nearest
    /// label's box takes that label away and keeps the others as they were (whatever it crowded out
    /// overlaps the reservation too); one away from every label changes nothing; a reservation of the
    /// whole view leaves none.
    @Test func labelsKeepOutOfReservedParts() async throws {
        let town = try TinyTown.shared.get()
        // The first view of the town with a label.
        var found: (LookAroundSnapshotter, ViewCamera, [LookAroundPlaceLabel])?
        search: for capture in town.captures {
            let scene = try await town.scene(at: capture)
            for heading in stride(from: 0.0, to: 360, by: 45) {
                let camera = try ViewCamera(headingDegrees: heading, fieldOfViewDegrees: 120, width: 320, height: 240)
                let snapshotter = LookAroundSnapshotter(scene: scene)
                let labels = try snapshotter.placeLabels(for: camera, catalog: town.catalog)
                if !labels.isEmpty { found = (snapshotter, camera, labels); break search }
            }
        }
        let (snapshotter, camera, free) = try #require(found, "no view of the town shows a label")
        let reserved = try snapshotter.placeLabels(for: camera, catalog: town.catalog, avoiding: [free[0].box])
        #expect(reserved == Array(free.dropFirst()), "without \(free[0].name): \(reserved.map(\.name)), free: \(free.map(\.name))")
        // A reservation away from every label changes nothing.
        let corners = [PixelRect(minX: 0, minY: 0, maxX: 4, maxY: 4), PixelRect(minX: 316, minY: 0, maxX: 320, maxY: 4),
                       PixelRect(minX: 0, minY: 236, maxX: 4, maxY: 240), PixelRect(minX: 316, minY: 236, maxX: 320, maxY: 240)]
        let apart = try #require(corners.first { box in !free.contains { $0.box.overlaps(box) } })
        #expect(try snapshotter.placeLabels(for: camera, catalog: town.catalog, avoiding: [apart]) == free)
        let whole = PixelRect(minX: 0, minY: 0, maxX: 320, maxY: 240)
        #expect(try snapshotter.placeLabels(for: camera, catalog: town.catalog, avoiding: [whole]).isEmpty)
    }

    /// A snapshotter keeps what its views' labels read of the catalog and the depth map (places,
    /// anchors, streets) after the first view: every later view gets exactly the labels a fresh
    /// snapshotter of the same scene gives it, and another catalog (a second one over the same file)
    /// starts afresh instead of reusing what was read from the first.
    @Test func labelsOfManyViewsMatchAFreshSnapshottersEach() async throws {
        let town = try TinyTown.shared.get()
        var views = 0, labelled = 0, painted = 0
        for capture in town.captures.prefix(2) {
            let scene = try await town.scene(at: capture)
            let kept = LookAroundSnapshotter(scene: scene)
            for heading in stride(from: 0.0, to: 360, by: 60) {
                let camera = try ViewCamera(headingDegrees: heading, fieldOfViewDegrees: 100, width: 320, height: 240)
                let places = try kept.placeLabels(for: camera, catalog: town.catalog)
                let roads = try kept.roadLabels(for: camera, catalog: town.catalog, avoiding: places)
                let fresh = LookAroundSnapshotter(scene: scene)
                let freshPlaces = try fresh.placeLabels(for: camera, catalog: town.catalog)
                #expect(places == freshPlaces, "\(scene.match.panoramaID) heading \(heading)")
                #expect(roads == (try fresh.roadLabels(for: camera, catalog: town.catalog, avoiding: freshPlaces)),
                        "\(scene.match.panoramaID) heading \(heading)")
                views += 1
                labelled += places.isEmpty ? 0 : 1
                painted += roads.isEmpty ? 0 : 1
            }
            #expect(kept.labelSources.holdsPlaces(of: town.catalog))
            let other = try Catalog(path: town.catalogPath)
            let camera = try ViewCamera(headingDegrees: 0, fieldOfViewDegrees: 100, width: 320, height: 240)
            #expect(try kept.placeLabels(for: camera, catalog: other) == (try LookAroundSnapshotter(scene: scene).placeLabels(for: camera, catalog: other)))
            #expect(kept.labelSources.holdsPlaces(of: other))
        }
        // The comparison means something only where there were labels to compare.
        print("\(views) views: \(labelled) with place labels, \(painted) with street names")
        #expect(labelled > 0 && painted > 0, "\(views) views: \(labelled) with place labels, \(painted) with street names")
    }

    /// A snapshotter made from another (``LookAroundSnapshotter/sharingLabels(scene:options:catalog:)``,
    /// as the viewer makes one a frame) of the same panorama, catalog and language starts with what the
    /// other's labels read, and labels its views exactly as a fresh snapshotter does; of another
    /// panorama, or in another language, it starts afresh.
    @Test func aSnapshotterSharingLabelsMatchesAFreshOne() async throws {
        let town = try TinyTown.shared.get()
        var scenes: [LookAroundScene] = []
        for capture in town.captures.prefix(2) {
            scenes.append(try await town.scene(at: capture))
        }
        try #require(scenes.count == 2 && scenes[0].panoramaID != scenes[1].panoramaID)
        let first = LookAroundSnapshotter(scene: scenes[0], catalog: town.catalog)
        var compared = 0
        var previous = first
        for heading in stride(from: 0.0, to: 360, by: 45) {
            var options = LookAroundSnapshotter.Options()
            options.camera = LookAroundSnapshotter.Camera(headingDegrees: heading)
            let next = previous.sharingLabels(scene: scenes[0], options: options, catalog: town.catalog)
            if heading > 0 { #expect(next.labelSources.holdsPlaces(of: town.catalog), "heading \(heading): read again") }
            let camera = try ViewCamera(headingDegrees: heading, fieldOfViewDegrees: 100, width: 320, height: 240)
            let places = try next.placeLabels(for: camera, catalog: town.catalog)
            let fresh = LookAroundSnapshotter(scene: scenes[0], options: options, catalog: town.catalog)
            let freshPlaces = try fresh.placeLabels(for: camera, catalog: town.catalog)
            #expect(places == freshPlaces, "heading \(heading)")
            #expect(try next.roadLabels(for: camera, catalog: town.catalog, avoiding: places)
                    == (try fresh.roadLabels(for: camera, catalog: town.catalog, avoiding: freshPlaces)), "heading \(heading)")
            compared += places.isEmpty ? 0 : 1
            previous = next
        }
        #expect(compared > 0, "no view with place labels to compare")
        #expect(!previous.sharingLabels(scene: scenes[1], options: previous.options, catalog: town.catalog).labelSources.holdsPlaces(of: town.catalog))
        var otherLanguage = previous.options
        otherLanguage.language = "sv"
        #expect(!previous.sharingLabels(scene: scenes[0], options: otherLanguage, catalog: town.catalog).labelSources.holdsPlaces(of: town.catalog))
    }
}

extension PlaceLabelTests {
    /// `labelScale` (pixels per point, for high-density screens) makes a place label's box that many times
    /// as large, on the same anchor; labels at scale 1 are unchanged by it.
    @Test func labelScaleSizesPlaceLabels() async throws {
        let town = try TinyTown.shared.get()
        let scene = try await Self.middleScene(town)
        let camera = try ViewCamera(headingDegrees: 180, fieldOfViewDegrees: 100, width: 960, height: 720)
        func cafe(_ scale: Double) throws -> LookAroundPlaceLabel? {
            let options = LookAroundSnapshotter.Options(pointOfInterestFilter: .including([.food]), labelScale: scale)
            return try LookAroundSnapshotter(scene: scene, options: options).placeLabels(for: camera, catalog: town.catalog)
                .first { $0.name == "Café Test" }
        }
        let one = try #require(try cafe(1)), three = try #require(try cafe(3))
        #expect(one.anchor == three.anchor)
        let ratioW = (three.box.maxX - three.box.minX) / (one.box.maxX - one.box.minX)
        let ratioH = (three.box.maxY - three.box.minY) / (one.box.maxY - one.box.minY)
        #expect((2.6...3.2).contains(ratioW) && (2.6...3.2).contains(ratioH), "box \(one.box) at 1, \(three.box) at 3")
    }
}
