import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import Reprojection
import Simulator
import Testing

/// Hit testing against the simulator's ground truth: the point under a pixel is where a ray cast
/// into the 3D town meets its first surface.
@Suite struct HitTestTests {
    /// How far an inspected point may be from the true surface point: 0.5 m plus this fraction of the
    /// distance (depth is stored in centimetres on a 512×256 map: 0.7° per depth pixel).
    static let toleranceMeters = 0.5, toleranceFractionOfDistance = 0.01
    /// A view pixel is on a depth edge when rays half a depth pixel (0.35°) around it meet surfaces
    /// whose inverse depths differ by more than this (1/metres); those are counted, not checked.
    static let edgeInverseMeters = 0.005

    static let viewWidth = 160, viewHeight = 120

    func snapshotter(_ capture: CaptureMetadata, headingDegrees: Double, pitchDegrees: Double = 0,
                     language: String? = nil) async throws -> LookAroundSnapshotter {
        let town = try TinyTown.shared.get()
        let scene = try await town.scene(at: capture)
        var options = LookAroundSnapshotter.Options(size: PixelSize(width: Self.viewWidth, height: Self.viewHeight))
        options.camera = .init(headingDegrees: headingDegrees, pitchDegrees: pitchDegrees, fieldOfViewDegrees: 90)
        options.language = language
        return LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog)
    }

    func pinhole(_ capture: CaptureMetadata, _ snapshotter: LookAroundSnapshotter) throws -> PinholeCamera {
        let camera = try snapshotter.viewCamera()
        return try PinholeCamera(position: capture.scenePosition, headingDegrees: camera.headingDegrees,
                                 pitchDegrees: camera.pitchDegrees, fieldOfViewDegrees: camera.fieldOfViewDegrees,
                                 width: camera.width, height: camera.height)
    }

    /// The inspected point in the town's scene frame (east, north from its coordinate; up = height above ground).
    func scenePoint(_ point: LookAroundHit.Point, town: TinyTown) -> EastNorthUp {
        let horizontal = town.model.position(of: point.coordinate)
        return EastNorthUp(east: horizontal.east, north: horizontal.north, up: point.heightAboveGroundMeters)
    }

    /// A ray rotated by `degrees` about a horizontal axis or about the vertical.
    func turned(_ d: EastNorthUp, headingDegrees: Double, elevationDegrees: Double) -> EastNorthUp {
        let h = atan2(d.east, d.north) + headingDegrees * .pi / 180
        let e = asin(max(-1, min(1, d.up))) + elevationDegrees * .pi / 180
        return EastNorthUp(east: cos(e) * sin(h), north: cos(e) * cos(h), up: sin(e))
    }

    @Test func pointsLieOnTheTrueSurface() async throws {
        let town = try TinyTown.shared.get()
        var checked = 0, edges = 0, sky = 0, worst = 0.0
        for capture in town.captures.prefix(2) {
            for (offset, pitch) in [(0.0, 0.0), (90, -10), (-90, 10), (180, -30), (45, 0)] {
                let snapshotter = try await snapshotter(capture, headingDegrees: capture.headingDegrees + offset, pitchDegrees: pitch)
                let camera = try pinhole(capture, snapshotter)
                for j in 0..<8 {
                    for i in 0..<10 {
                        let x = (Double(i) + 0.5) * Double(Self.viewWidth) / 10 + 0.25
                        let y = (Double(j) + 0.5) * Double(Self.viewHeight) / 8 + 0.25
                        let hit = try snapshotter.hitTest(x: x, y: y)
                        let ray = camera.direction(pixelX: x, pixelY: y)
                        #expect(EastNorthUp(east: hit.direction.east - ray.east, north: hit.direction.north - ray.north,
                                            up: hit.direction.up - ray.up).lengthMeters < 1e-9)
                        let truth = town.model.firstHit(from: capture.scenePosition, direction: ray)
                        let around = [(0.35, 0.0), (-0.35, 0), (0, 0.35), (0, -0.35)].map {
                            town.model.firstHit(from: capture.scenePosition, direction: turned(ray, headingDegrees: $0.0, elevationDegrees: $0.1))
                        }
                        let inverse = { (h: (distanceMeters: Double, label: LabelClass)?) in h.map { 1 / $0.distanceMeters } ?? 0 }
                        if around.contains(where: { abs(inverse($0) - inverse(truth)) > Self.edgeInverseMeters }) {
                            edges += 1
                            continue
                        }
                        guard let truth else {
                            #expect(hit.isSky && hit.point == nil, "\(capture.id) (\(x), \(y)): sky expected, got \(hit)")
                            sky += 1
                            continue
                        }
                        let point = try #require(hit.point, "\(capture.id) heading \(offset) (\(x), \(y)): no point, truth \(truth)")
                        let expected = EastNorthUp(east: capture.scenePosition.east + ray.east * truth.distanceMeters,
                                                   north: capture.scenePosition.north + ray.north * truth.distanceMeters,
                                                   up: capture.scenePosition.up + ray.up * truth.distanceMeters)
                        let got = scenePoint(point, town: town)
                        let error = EastNorthUp(east: got.east - expected.east, north: got.north - expected.north,
                                                up: got.up - expected.up).lengthMeters
                        #expect(error <= Self.toleranceMeters + Self.toleranceFractionOfDistance * truth.distanceMeters,
                                "\(capture.id) heading \(offset) pitch \(pitch) (\(x), \(y)): \(got) vs \(expected) (\(truth.label))")
                        #expect(abs(point.distanceMeters - truth.distanceMeters) <= Self.toleranceMeters + Self.toleranceFractionOfDistance * truth.distanceMeters)
                        if expected.up < 0.2 { #expect(hit.surface == .ground, "\(expected) \(truth.label)") }
                        if expected.up > 0.5 { #expect(hit.surface == .raised, "\(expected) \(truth.label)") }
                        worst = max(worst, error / (Self.toleranceMeters + Self.toleranceFractionOfDistance * truth.distanceMeters))
                        checked += 1
                    }
                }
            }
        }
        let total = checked + edges + sky
        #expect(checked >= total * 6 / 10, "only \(checked) of \(total) pixels away from depth edges")
        #expect(sky >= 10)
        print("hit test vs ray cast: \(checked) points, \(sky) sky, \(edges) on depth edges; largest error \(String(format: "%.2f", worst)) of the tolerance")
    }

    @Test func lookingUpIsSky() async throws {
        let town = try TinyTown.shared.get()
        let capture = try #require(town.captures.first)
        let snapshotter = try await snapshotter(capture, headingDegrees: capture.headingDegrees, pitchDegrees: 60)
        let ray = try pinhole(capture, snapshotter).direction(pixelX: 80, pixelY: 4)
        #expect(town.model.firstHit(from: capture.scenePosition, direction: ray) == nil)
        let hit = try snapshotter.hitTest(x: 80, y: 4)
        #expect(hit.isSky)
        #expect(hit.point == nil && hit.place == nil && hit.street == nil)
        #expect(hit.elevationDegrees > 60)
    }

    @Test func roundTripLandsOnThePixel() async throws {
        let town = try TinyTown.shared.get()
        let capture = try #require(town.captures.last)
        let snapshotter = try await snapshotter(capture, headingDegrees: capture.headingDegrees + 30, pitchDegrees: -15)
        let camera = try snapshotter.viewCamera()
        let projection = ViewProjection(camera: camera, pose: snapshotter.pose, panoramaWidth: TinyTown.imageWidth)
        let coordinate = try #require(capture.coordinate)
        let frame = try LocalTangentFrame(origin: coordinate, heightMeters: capture.groundElevationMeters + capture.cameraHeightMeters)
        var points = 0
        for (x, y) in [(10.5, 100.5), (80.0, 60.0), (150.25, 20.75), (33.3, 110.9), (120.0, 70.0), (0.0, 119.0)] {
            let hit = try snapshotter.hitTest(x: x, y: y)
            guard let point = hit.point else { continue }
            let back = try frame.enu(from: point.coordinate, heightMeters: capture.groundElevationMeters + point.heightAboveGroundMeters)
            let pixel = try #require(projection.viewPixel(forDirection: back))
            #expect(hypot(pixel.x - x, pixel.y - y) <= 1, "(\(x), \(y)) → \(point.coordinate) → \(pixel)")
            points += 1
        }
        #expect(points >= 5)
    }

    @Test func signShowsItsPlaceAndTheRoadItsStreet() async throws {
        let town = try TinyTown.shared.get()
        let sign = try #require(town.model.signs.first { $0.text == "Café Test" })
        let capture = try #require(town.captures.min { abs($0.scenePosition.east - sign.center.east) < abs($1.scenePosition.east - sign.center.east) })
        let toSign = EastNorthUp(east: sign.center.east - capture.scenePosition.east, north: sign.center.north - capture.scenePosition.north, up: 0)
        let heading = atan2(toSign.east, toSign.north) * 180 / .pi + 20
        for (language, place, street) in [(nil, "Café Test", "Testikatu"), ("sv", "Kafé Test", "Testgatan")] {
            let snapshotter = try await snapshotter(capture, headingDegrees: heading, pitchDegrees: -5, language: language)
            let camera = try pinhole(capture, snapshotter)
            let onSign = try #require(camera.pixel(for: sign.center))
            let signHit = try snapshotter.hitTest(x: onSign.x, y: onSign.y)
            #expect(signHit.surface == .raised)
            #expect(signHit.place?.name == place, "\(signHit)")
            #expect(signHit.place?.categoryGroup == .food)
            #expect(signHit.street == nil)
            // Along the street: the road 10 m ahead, 1 m off the centreline, and the strip of ground
            // beside the block 7.5 m off it (beyond the 3.75 m half-width plus the 2.5 m margin).
            let along = try await self.snapshotter(capture, headingDegrees: capture.headingDegrees, pitchDegrees: -10, language: language)
            let alongCamera = try pinhole(capture, along)
            let ahead = capture.headingDegrees * .pi / 180
            let road = try #require(alongCamera.pixel(for: EastNorthUp(east: capture.scenePosition.east + 10 * sin(ahead), north: -1, up: 0)))
            let roadHit = try along.hitTest(x: road.x, y: road.y)
            #expect(roadHit.surface == .ground)
            #expect(roadHit.street?.name == street, "\(roadHit)")
            #expect(roadHit.place == nil)
            let verge = try #require(alongCamera.pixel(for: EastNorthUp(east: capture.scenePosition.east + 12 * sin(ahead), north: -7.5, up: 0)))
            let vergeHit = try along.hitTest(x: verge.x, y: verge.y)
            #expect(vergeHit.surface == .ground)
            #expect(vergeHit.street == nil, "\(vergeHit)")
        }
        // High up the facade, far from any sign: no place.
        let snapshotter = try await snapshotter(capture, headingDegrees: heading, pitchDegrees: 30)
        let camera = try pinhole(capture, snapshotter)
        let high = try #require(camera.pixel(for: EastNorthUp(east: sign.center.east, north: sign.center.north, up: 10)))
        let highHit = try snapshotter.hitTest(x: high.x, y: high.y)
        #expect(highHit.surface == .raised)
        #expect(highHit.place == nil, "\(highHit)")
    }

    @Test func pixelsOutsideTheViewAreErrorsNamingTheRange() async throws {
        let town = try TinyTown.shared.get()
        let snapshotter = try await snapshotter(try #require(town.captures.first), headingDegrees: 0)
        for (x, y) in [(-0.5, 10.0), (160.01, 10), (.nan, 10), (10, 121), (10, .infinity)] {
            do {
                _ = try snapshotter.hitTest(x: x, y: y)
                Issue.record("(\(x), \(y)) was accepted")
            } catch let error as ReprojectionError {
                let text = error.description
                #expect(text.contains(x == 10 ? "0…120" : "0…160"), "\(text)")
                #expect(text.contains(x == 10 ? "view y" : "view x"), "\(text)")
            }
        }
        // The edges themselves are inside.
        _ = try snapshotter.hitTest(x: 0, y: 0)
        _ = try snapshotter.hitTest(x: 160, y: 120)
    }
}
