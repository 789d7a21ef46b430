import Foundation
import Geodesy
import Imaging
import MapData
import Testing
@testable import Simulator

/// Trees, shrubs and street furniture as placed copies of a few prototypes (Embree instances; our BVH
/// traces the same two levels) against the same objects written out as triangles, on the shipped
/// Helsinki extract: the same pictures, depth and labels up to the rounding of the copies' transforms.
///
/// Why not byte for byte: a flat triangle's vertices are the prototype's taken into the scene and
/// rounded to `Float` once; an instance keeps the prototype's vertices and takes each ray into the
/// prototype's coordinates instead (`Float` again), so the two compute a crossing point that differs in
/// the last bits. On a silhouette that decides hit or miss for a ray grazing it, and on foliage the
/// pattern's 0.4 m cells, read at the crossing point, can flip. Tolerances below: a pixel differs on
/// at most 0.5 % of the panorama, PSNR ≥ 45 dB, depth within 1 cm + 0.01 % wherever both hit.
@Suite struct InstancingTests {
    /// Helsinki without signs (they need fonts and change nothing here), with copies and flat.
    static let models: Result<(instanced: CityModel, flat: CityModel, flatReference: CityModel), any Error> = Result {
        let dataset = try MapDataset(contentsOfFile: HelsinkiCityTests.osm)
        func model(_ instancing: Bool, _ engine: RayEngine) throws -> CityModel {
            try CityModel(dataset: dataset, options: CityModelOptions(includeSigns: false, includeStreetPlates: false,
                                                                      engine: engine, instancing: instancing))
        }
        return (try model(true, .embree), try model(false, .embree), try model(false, .bvh))
    }

    static func psnr(_ a: RGB8Image, _ b: RGB8Image) -> (psnr: Double, differing: Int, diff: RGB8Image) {
        var squares = 0.0, differing = 0
        var diff = [UInt8](repeating: 0, count: a.width * a.height * 3)
        for y in 0..<a.height {
            for x in 0..<a.width {
                var largest = 0
                for c in 0..<3 {
                    let d = Int(a[x, y, c]) - Int(b[x, y, c])
                    squares += Double(d * d)
                    largest = max(largest, abs(d))
                }
                if largest > 0 {
                    differing += 1
                    for c in 0..<3 { diff[(y * a.width + x) * 3 + c] = UInt8(min(255, 40 + 4 * largest)) }
                }
            }
        }
        let mse = squares / Double(a.width * a.height * 3)
        return (mse == 0 ? .infinity : 10 * log10(255 * 255 / mse), differing, RGB8Image(width: a.width, height: a.height, components: diff))
    }

    /// The copies really are copies: a few prototypes, thousands of placed trees, shrubs and lamps, and
    /// far fewer stored triangles than the flat build holds; the flat build holds exactly the triangles
    /// the copies stand for.
    @Test func copiesStoreEachPrototypeOnce() throws {
        let (instanced, flat, _) = try Self.models.get()
        #expect(instanced.instanceCount > 2_000, "\(instanced.instanceCount) copies")
        #expect(flat.instanceCount == 0)
        #expect(instanced.instancedTriangleCount == flat.triangleCount,
                "copies stand for \(instanced.instancedTriangleCount) triangles, the flat build has \(flat.triangleCount)")
        #expect(instanced.triangleCount < flat.triangleCount * 3 / 4, "\(instanced.triangleCount) stored against \(flat.triangleCount)")
        #expect(instanced.furniture.count == flat.furniture.count)
    }

    /// A panorama on Pohjoisesplanadi (the park's rows of lime trees, lamps and benches) rendered from
    /// the copies with Embree and with our BVH, against the flat build: see the suite's tolerances.
    @Test func instancedAndFlatRenderTheSamePictures() throws {
        let (instanced, flat, flatReference) = try Self.models.get()
        // The street point nearest the extract's densest mapped trees (Kaisaniemi's edge, 60.174° N
        // 24.947° E) with open sky above it.
        let dataset = try MapDataset(contentsOfFile: HelsinkiCityTests.osm)
        let grove = instanced.position(of: try GeoCoordinate(latitude: 60.1740, longitude: 24.9470), heightMeters: 2.5)
        var candidates: [EastNorthUp] = []
        for street in dataset.streets where street.highwayClass != .footway {
            for c in street.points {
                let p = instanced.position(of: try GeoCoordinate(latitude: c.latitude, longitude: c.longitude), heightMeters: 2.5)
                if !instanced.isInsideBuilding(east: p.east, north: p.north, clearanceMeters: 2),
                   flat.firstHit(from: p, direction: EastNorthUp(east: 0, north: 0, up: 1)) == nil { candidates.append(p) }
            }
        }
        let eye = try #require(candidates.min { hypot($0.east - grove.east, $0.north - grove.north) < hypot($1.east - grove.east, $1.north - grove.north) })
        let camera = try EquirectangularCamera(position: eye, headingDegrees: 80, width: 512)
        let sun = SolarPosition(date: ISO8601DateFormatter().date(from: "2026-06-15T09:00:00Z")!, coordinate: instanced.coordinate(of: eye))
        let settings = try RenderSettings(samplesPerPixel: 1, seed: 1, sun: sun)
        let reference = flat.render(camera, settings: settings)
        let out = ProcessInfo.processInfo.environment["INSTANCING_TEST_OUT"]
        for (name, picture) in [("embree", instanced.render(camera, settings: settings)),
                                ("bvh", instanced.referenceRender(camera, settings: settings)),
                                ("flat-bvh", flatReference.render(camera, settings: settings))] {
            let (psnr, differing, diff) = Self.psnr(picture, reference)
            if let out {
                try ImageFile.write(PNGCodec.encode(picture), to: "\(out)/instanced-\(name).png")
                try ImageFile.write(PNGCodec.encode(diff), to: "\(out)/diff-\(name).png")
            }
            #expect(psnr >= 45, "\(name): PSNR \(psnr) dB against the flat build")
            #expect(differing <= camera.width * camera.height / 200, "\(name): \(differing) pixels differ")
        }
        if let out { try ImageFile.write(PNGCodec.encode(reference), to: "\(out)/flat.png") }

        // Depth and labels, one ray per pixel centre.
        let a = instanced.renderDepthAndLabels(camera), b = flat.renderDepthAndLabels(camera)
        var sameLabel = 0, closeDepth = 0, treePixels = 0
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                let la = a.labels[x, y, 0], lb = b.labels[x, y, 0]
                if la == lb { sameLabel += 1 }
                if lb == LabelClass.vegetation.rawValue { treePixels += 1 }
                let da = Double(a.depth[x, y, 0]), db = Double(b.depth[x, y, 0])
                if abs(da - db) <= 1 + 1e-4 * db { closeDepth += 1 }
            }
        }
        let pixels = camera.width * camera.height
        #expect(treePixels > pixels / 50, "\(treePixels) vegetation pixels in view")
        #expect(sameLabel >= pixels - pixels / 500, "labels agree on \(sameLabel) of \(pixels)")
        #expect(closeDepth >= pixels - pixels / 500, "depth agrees on \(closeDepth) of \(pixels)")
    }

    /// Every lamp and bench copy answers a ray cast down onto it as the flat one does: the label of a
    /// copy's hit comes from its prototype's record (instID/primID), through Embree and our BVH alike.
    @Test func raysDownOntoFurnitureMeetTheSameObject() throws {
        let (instanced, flat, _) = try Self.models.get()
        var checked = 0, same = 0
        for item in instanced.furniture where item.kind == .streetLamp || item.kind == .bench || item.kind == .wasteBasket {
            let start = EastNorthUp(east: item.position.east, north: item.position.north, up: item.topMeters + 0.05)
            let down = EastNorthUp(east: 0, north: 0, up: -1)
            let a = instanced.firstHit(from: start, direction: down), b = flat.firstHit(from: start, direction: down)
            let c = instanced.referenceFirstHit(from: start, direction: down)
            checked += 1
            if let a, let b, let c, a.label == b.label, c.label == b.label, abs(a.distanceMeters - b.distanceMeters) < 1e-3,
               abs(c.distanceMeters - b.distanceMeters) < 1e-3 { same += 1 }
        }
        #expect(checked >= 600 && same == checked, "\(same) of \(checked) copies answer as the flat objects")
    }
}
