import Foundation
import Geodesy
import Imaging
import MapData
import Testing
@testable import Simulator

/// The city built from the shipped Helsinki extract: water where MapData's water model puts it, the
/// cathedral's dome where its tags put it, street furniture on its nodes. One model for the suite.
@Suite struct HelsinkiCityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let osm = root.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path

    /// The extract and its city (no signs or plates: they need fonts and change nothing here).
    static let city: Result<(MapDataset, CityModel), any Error> = Result {
        let dataset = try MapDataset(contentsOfFile: osm)
        return (dataset, try CityModel(dataset: dataset, options: CityModelOptions(includeSigns: false, includeStreetPlates: false)))
    }

    static func osmCoordinate(_ model: CityModel, _ p: EastNorthUp) -> OSMCoordinate {
        let g = model.coordinate(of: p)
        return OSMCoordinate(latitude: g.latitude, longitude: g.longitude)
    }

    /// Kauppatori's harbour seen from the square: every label-map pixel whose surface point lies in the
    /// sea of the water model is water, and so is the harbour beyond the extract's eastern edge.
    @Test func harbourAtKauppatoriIsWaterInTheLabelMap() throws {
        let (dataset, model) = try Self.city.get()
        let eye = model.position(of: try GeoCoordinate(latitude: 60.16765, longitude: 24.9520), heightMeters: 2.5)
        #expect(!model.isInsideBuilding(east: eye.east, north: eye.north))
        let camera = try EquirectangularCamera(position: eye, headingDegrees: 0, width: 512)
        let maps = model.renderDepthAndLabels(camera)
        let bounds = try #require(dataset.water.bounds)
        var seaPixels = 0, seaAsWater = 0, beyondEdge = 0, beyondEdgeAsWater = 0
        for y in (camera.height / 2)..<camera.height {
            for x in 0..<camera.width {
                let depth = maps.depth[x, y, 0]
                guard depth != DepthEncoding.skyValue else { continue }
                let d = camera.direction(pixelX: Double(x) + 0.5, pixelY: Double(y) + 0.5)
                let l = (d.east * d.east + d.north * d.north + d.up * d.up).squareRoot()
                let meters = Double(depth) * DepthEncoding.metersPerUnit
                let point = EastNorthUp(east: eye.east + d.east / l * meters, north: eye.north + d.north / l * meters,
                                        up: eye.up + d.up / l * meters)
                guard point.up < 0.05 else { continue }    // only the ground and water surfaces
                let c = Self.osmCoordinate(model, point)
                let isWater = maps.labels[x, y, 0] == LabelClass.water.rawValue
                if dataset.water.isSea(c) {
                    seaPixels += 1
                    if isWater { seaAsWater += 1 }
                } else if c.longitude > bounds.maxLongitude + 0.0002,
                          dataset.water.isSea(OSMCoordinate(latitude: c.latitude, longitude: bounds.maxLongitude - 1e-5)) {
                    // East of the extract where the sea meets its edge: the harbour goes on.
                    beyondEdge += 1
                    if isWater { beyondEdgeAsWater += 1 }
                }
            }
        }
        // The extract ends at 24.9534° E: inside it the harbour is the basin by the market and a strip
        // along Eteläranta (about 66 pixels of this 512 × 256 map).
        #expect(seaPixels >= 50, "sea pixels in view: \(seaPixels)")
        // Lamps, bollards and quay edges cover a few pixels; the rest of the sea is water.
        #expect(Double(seaAsWater) >= 0.97 * Double(seaPixels), "\(seaAsWater) of \(seaPixels) sea pixels labelled water")
        #expect(beyondEdge >= 30 && Double(beyondEdgeAsWater) >= 0.97 * Double(beyondEdge),
                "\(beyondEdgeAsWater) of \(beyondEdge) pixels past the extract's edge labelled water")
    }

    /// Helsinki Cathedral's dome (a part tagged both `building` and `building:part`, `roof:shape=dome`) seen
    /// from Senaatintori: a ray at the dome's middle height meets a building within its radius of the
    /// dome's axis.
    @Test func cathedralDomeStandsWhereItsTagsPutIt() throws {
        let (dataset, model) = try Self.city.get()
        let dome = try #require(dataset.buildings.first { $0.roofShape == "dome" && $0.heightMeters > 35 })
        let footprint = try #require(dome.footprint.first)
        let centre = model.position(of: try GeoCoordinate(latitude: footprint.centroid.latitude, longitude: footprint.centroid.longitude))
        var radius = 0.0
        for c in footprint.outer {
            let p = model.position(of: try GeoCoordinate(latitude: c.latitude, longitude: c.longitude))
            radius = max(radius, hypot(p.east - centre.east, p.north - centre.north))
        }
        let eye = model.position(of: try GeoCoordinate(latitude: 60.16930, longitude: 24.95225), heightMeters: 1.6)
        let target = EastNorthUp(east: centre.east, north: centre.north, up: dome.heightMeters - 0.5 * radius)
        let direction = EastNorthUp(east: target.east - eye.east, north: target.north - eye.north, up: target.up - eye.up)
        let distance = (direction.east * direction.east + direction.north * direction.north + direction.up * direction.up).squareRoot()
        let hit = try #require(model.firstHit(from: eye, direction: direction))
        #expect(hit.label == .building)
        #expect(hit.distanceMeters > distance - radius - 0.5 && hit.distanceMeters < distance, "hit at \(hit.distanceMeters) m, centre at \(distance) m, radius \(radius) m")
    }

    /// Every mapped street lamp and bench stands on its node: placed within 0.5 m of it, and a ray cast
    /// straight down just above the object's top at the node meets the object itself. Nodes inside a
    /// building's footprint (wall lamps mapped on the building) are the only ones not built.
    @Test func everyStreetLampAndBenchStandsOnItsNode() throws {
        let (dataset, model) = try Self.city.get()
        let placed = Dictionary(model.furniture.map { ($0.source, $0) }, uniquingKeysWith: { a, _ in a })
        let (minEast, minNorth, maxEast, maxNorth) = model.bounds
        var checked = 0, insideBuildings = 0
        for item in dataset.furniture where item.kind == .streetLamp || item.kind == .bench {
            let node = model.position(of: try GeoCoordinate(latitude: item.position.latitude, longitude: item.position.longitude))
            guard node.east >= minEast && node.east <= maxEast && node.north >= minNorth && node.north <= maxNorth else { continue }
            guard let placement = placed[item.source] else {
                #expect(model.isInsideBuilding(east: node.east, north: node.north), "\(item.kind) \(item.source) not built")
                insideBuildings += 1
                continue
            }
            checked += 1
            let offset = hypot(placement.position.east - node.east, placement.position.north - node.north)
            #expect(offset <= 0.5, "\(item.kind) \(item.source) stands \(offset) m from its node")
            let start = EastNorthUp(east: node.east, north: node.north, up: placement.topMeters + 0.05)
            let hit = model.firstHit(from: start, direction: EastNorthUp(east: 0, north: 0, up: -1))
            let expected: LabelClass = item.kind == .streetLamp ? .pole : .streetFurniture
            #expect(hit?.label == expected && (hit?.distanceMeters ?? 99) < placement.topMeters,
                    "\(item.kind) \(item.source): \(String(describing: hit)) under the top at the node")
        }
        #expect(checked >= 600, "lamps and benches checked: \(checked), inside buildings: \(insideBuildings)")
    }

    /// Embree (the default engine) and our BVH (the reference) give the same answers on 20,000 seeded
    /// random rays over the Helsinki scene: closest hits (hit or miss, the same surface class, `t` within
    /// 1 mm + 0.01 %) and shadow rays towards random skies, all but a few rays that graze an edge
    /// shared by two triangles.
    @Test func embreeAndReferenceBVHAgreeOnRandomRays() throws {
        let (_, model) = try Self.city.get()
        #expect(model.rayEngine == .embree)
        let fast = model.query, reference = model.referenceQuery
        let stack = UnsafeMutablePointer<UInt32>.allocate(capacity: model.stackCapacity)
        defer { stack.deallocate() }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        let (minEast, minNorth, maxEast, maxNorth) = model.bounds
        let rays = 20_000
        var sameHit = 0, sameSurface = 0, sameShadow = 0, hits = 0
        for _ in 0..<rays {
            let origin = Vec3(Float(minEast) + random() * Float(maxEast - minEast), Float(minNorth) + random() * Float(maxNorth - minNorth),
                              0.5 + 40 * random())
            let z = 2 * random() - 1, phi = 2 * Float.pi * random(), r = (1 - z * z).squareRoot()
            let direction = Vec3(r * cos(phi), r * sin(phi), z)
            let a = fast.closest(origin: origin, direction: direction, stack: stack)
            let b = reference.closest(origin: origin, direction: direction, stack: stack)
            if (a == nil) == (b == nil) { sameHit += 1 }
            if let a, let b {
                hits += 1
                if a.record.material.label == b.record.material.label && abs(a.t - b.t) <= 1e-3 + 1e-4 * b.t { sameSurface += 1 }
            }
            let sz = 0.05 + 0.9 * random(), sphi = 2 * Float.pi * random(), sr = (1 - sz * sz).squareRoot()
            let sun = Vec3(sr * cos(sphi), sr * sin(sphi), sz)
            let inverse = RayIntersection.safeReciprocal(sun)
            let start = origin
            if fast.isOccluded(origin: start, direction: sun, inverseDirection: inverse, tMin: 0, tMax: 1e30, stack: stack)
                == reference.isOccluded(origin: start, direction: sun, inverseDirection: inverse, tMin: 0, tMax: 1e30, stack: stack) {
                sameShadow += 1
            }
        }
        withExtendedLifetime(model) {}
        #expect(hits > 5_000, "\(hits) hits")
        #expect(Double(sameHit) >= 0.999 * Double(rays), "hit/miss agree on \(sameHit) of \(rays)")
        #expect(Double(sameSurface) >= 0.999 * Double(hits), "same surface and t on \(sameSurface) of \(hits) hits")
        #expect(Double(sameShadow) >= 0.999 * Double(rays), "shadow rays agree on \(sameShadow) of \(rays)")
    }
    /// The renderer's batches: camera rays of a panorama on Aleksanterinkatu traced 256 at a time as one
    /// Embree stream (`rtcIntersect1M`), and their shadow rays as another (`rtcOccluded1M`), give the
    /// answers each ray gets alone from Embree and from our BVH, in every batch position: all but a
    /// few rays that graze an edge or fall between two coplanar surfaces (road markings on asphalt).
    @Test func streamedBatchesAgreeWithSingleRays() throws {
        let (_, model) = try Self.city.get()
        #expect(model.rayEngine == .embree)
        let fast = model.query, reference = model.referenceQuery
        let stack = UnsafeMutablePointer<UInt32>.allocate(capacity: model.stackCapacity)
        let batch = RayBatch(capacity: 256), referenceBatch = RayBatch(capacity: 256)
        defer { stack.deallocate(); batch.deallocate(); referenceBatch.deallocate() }
        let eye = model.position(of: try GeoCoordinate(latitude: 60.16905, longitude: 24.9515), heightMeters: 2.5)
        let camera = try EquirectangularCamera(position: eye, headingDegrees: 80, width: 512)
        let sun = Vec3(0.48, 0.62, 0.62).normalized, inverse = RayIntersection.safeReciprocal(sun)
        var rays = 0, hits = 0, sameAsSingle = 0, sameAsReference = 0, shadows = 0, sameShadow = 0
        func same(_ a: (record: SurfaceRecord, t: Float)?, _ b: (record: SurfaceRecord, t: Float)?) -> Bool {
            guard let a, let b else { return (a == nil) == (b == nil) }
            return a.record.material.label == b.record.material.label && abs(a.t - b.t) <= 1e-3 + 1e-4 * b.t
        }
        for y in stride(from: 0, to: camera.height, by: 2) {
            for x0 in stride(from: 0, to: camera.width, by: 256) {
                var cameraRays: [(origin: Vec3, direction: Vec3)] = [], shadowOrigins: [Vec3] = []
                for lane in 0..<256 {
                    let ray = camera.sceneRay(x: Float(x0 + lane) + 0.5, y: Float(y) + 0.5)
                    cameraRays.append((ray.origin.vec3, ray.direction.vec3))
                    fast.prepare(batch.primary + lane, origin: ray.origin.vec3, direction: ray.direction.vec3)
                    reference.prepare(referenceBatch.primary + lane, origin: ray.origin.vec3, direction: ray.direction.vec3)
                }
                fast.closest(batch.primary, count: 256, stack: stack)
                reference.closest(referenceBatch.primary, count: 256, stack: stack)
                var count = 0
                for lane in 0..<256 {
                    let (origin, direction) = cameraRays[lane]
                    let streamed = fast.surface(of: batch.primary[lane])
                    rays += 1
                    if same(streamed, fast.closest(origin: origin, direction: direction, stack: stack)) { sameAsSingle += 1 }
                    if same(streamed, reference.surface(of: referenceBatch.primary[lane])) { sameAsReference += 1 }
                    guard let hit = streamed else { continue }
                    hits += 1
                    let p = origin + direction * (hit.t - 2e-3)
                    batch.setShadowRay(count, origin: p, direction: sun)
                    shadowOrigins.append(p)
                    count += 1
                }
                fast.occlude(batch.shadow, count: count, inverseDirection: inverse, stack: stack)
                for j in 0..<count {
                    shadows += 1
                    let alone = reference.isOccluded(origin: shadowOrigins[j], direction: sun, inverseDirection: inverse,
                                                     tMin: 0, tMax: 1e30, stack: stack)
                    if batch.isShadowRayOccluded(j) == alone { sameShadow += 1 }
                }
            }
        }
        withExtendedLifetime(model) {}
        #expect(hits > rays / 3, "\(hits) hits of \(rays) rays")
        #expect(Double(sameAsSingle) >= 0.999 * Double(rays), "stream and single Embree rays agree on \(sameAsSingle) of \(rays)")
        #expect(Double(sameAsReference) >= 0.999 * Double(rays), "stream and our BVH agree on \(sameAsReference) of \(rays)")
        #expect(shadows > 10_000 && Double(sameShadow) >= 0.999 * Double(shadows), "shadow streams agree on \(sameShadow) of \(shadows)")
    }
}
