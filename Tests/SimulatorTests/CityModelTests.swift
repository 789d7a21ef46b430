import Foundation
import Geodesy
import Imaging
import Testing
@testable import Simulator

@Suite struct CityModelTests {
    @Test func shopSignCarriesThePOIsNameAndLandsInTheLabelMap() throws {
        let model = try CityModel(dataset: TestScenes.town(), options: CityModelOptions(marginMeters: 50))
        let sign = try #require(model.signs.first { $0.kind == .shopSign })
        #expect(sign.text == "Café Test")
        #expect(sign.center.up > 3 && sign.center.up < 4.5)
        #expect(abs(sign.center.north - -7.94) < 0.01)      // 6 cm proud of the south block's north wall (north = −8)
        #expect(abs(sign.facingDegrees - 0) < 1e-6 || abs(sign.facingDegrees - 360) < 1e-6)   // faces the street (north)
        // Look at the sign's centre from across the street.
        let eye = EastNorthUp(east: sign.center.east - 2, north: 4, up: 2.5)
        let dx = sign.center.east - eye.east, dy = sign.center.north - eye.north, dz = sign.center.up - eye.up
        let camera = try PinholeCamera(position: eye, headingDegrees: atan2(dx, dy) * 180 / .pi,
                                       pitchDegrees: atan2(dz, (dx * dx + dy * dy).squareRoot()) * 180 / .pi,
                                       fieldOfViewDegrees: 40, width: 33, height: 21)
        let p = try #require(camera.pixel(for: sign.center))
        let maps = model.renderDepthAndLabels(camera)
        #expect(maps.labels[Int(p.x), Int(p.y), 0] == LabelClass.sign.rawValue)
        #expect(maps.labels[16, 0, 0] != LabelClass.sign.rawValue)
    }

    /// Shop fronts only where there are shops: along Testikatu the block with the café has shop
    /// windows on its ground floor; the block across the street, with nothing mapped, has windows down
    /// to the ground, entrance doors and no shop glass.
    @Test func shopFrontsOnlyWhereShopsAre() throws {
        let model = try CityModel(dataset: TestScenes.town(), options: CityModelOptions(marginMeters: 50, includeSigns: false,
                                                                                     includeStreetPlates: false))
        let stack = UnsafeMutablePointer<UInt32>.allocate(capacity: model.bvh.stackCapacity)
        let atlasPixels = UnsafeMutablePointer<UInt8>.allocate(capacity: 1), atlasEntries = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
        defer { stack.deallocate(); atlasPixels.deallocate(); atlasEntries.deallocate() }
        let shader = SurfaceShader(atlasPixels: atlasPixels, atlasWidth: 1, atlasEntries: atlasEntries)
        /// The facade seen from the street's centre line at `height`, every 0.25 m from east −50 to 50,
        /// looking south (−1) or north (+1): its records and patterns.
        func facade(lookingNorth: Bool, height: Float) -> [(record: SurfaceRecord, albedo: Vec3, gloss: Float)] {
            stride(from: Float(-50), through: 50, by: 0.25).compactMap { x in
                let origin = Vec3(x, 0, height), direction = Vec3(0, lookingNorth ? 1 : -1, 0)
                guard let hit = model.query.closest(origin: origin, direction: direction, stack: stack), hit.record.material == .facade else { return nil }
                let pattern = shader.pattern(hit.record, at: origin + direction * hit.t)
                return (hit.record, pattern.albedo, pattern.gloss)
            }
        }
        let shopGlass: Float = 0.6
        let cafeBlock = facade(lookingNorth: false, height: 2), otherBlock = facade(lookingNorth: true, height: 2)
        #expect(cafeBlock.count > 350 && otherBlock.count > 350, "\(cafeBlock.count), \(otherBlock.count) facade hits")
        #expect(cafeBlock.allSatisfy { $0.record.style & (1 << 31) == 0 }, "the café's block has shop fronts")
        #expect(otherBlock.allSatisfy { $0.record.style & (1 << 31) != 0 }, "the block across has none")
        let cafeGlass = cafeBlock.filter { $0.gloss == shopGlass }.count
        #expect(cafeGlass * 3 > cafeBlock.count, "shop glass on \(cafeGlass) of \(cafeBlock.count) points at 2 m")
        #expect(!otherBlock.contains { $0.gloss == shopGlass }, "no shop glass across the street")
        // Doors at 1.2 m: runs of door leaf (dark wood) along the block without shops, none on the café's.
        func doors(_ points: [(record: SurfaceRecord, albedo: Vec3, gloss: Float)]) -> Int {
            var runs = 0, inDoor = false
            for p in points {
                let leaf = p.gloss == 0.05 && p.albedo.x < 0.11 && p.albedo.y < 0.07 && p.albedo.z < 0.05
                if leaf && !inDoor { runs += 1 }
                inDoor = leaf
            }
            return runs
        }
        let otherDoors = doors(facade(lookingNorth: true, height: 1.2))
        #expect(otherDoors >= 5 && otherDoors <= 8, "\(otherDoors) doors along 100 m of the block without shops")
    }

    @Test func plannerFollowsTheStreetOutsideBuildings() throws {
        let model = try CityModel(dataset: TestScenes.town(), options: CityModelOptions(marginMeters: 50, includeSigns: false))
        let start = Date(timeIntervalSince1970: 1_781_514_000)
        let planner = try CapturePlanner(spacingMeters: 10, startTime: start, imageWidth: 64, depthWidth: 32)
        let captures = try planner.plan(model: model, streetNames: ["testikatu"])
        #expect(captures.count >= 15 && captures.count <= 17)
        for (i, c) in captures.enumerated() {
            #expect(c.sequenceID == "testikatu" && c.sequenceOrder == i && c.id == String(format: "testikatu-%03d", i))
            #expect(abs(c.headingDegrees - 90) < 1, "heading \(c.headingDegrees)")
            #expect(abs(c.scenePosition.north + 1.875) < 0.01 && c.scenePosition.up == 2.5)   // right-hand lane of a 7.5 m road
            #expect(!model.isInsideBuilding(east: c.scenePosition.east, north: c.scenePosition.north))
            if i > 0 {
                #expect(c.captureTime > captures[i - 1].captureTime)
                let step = c.scenePosition.east - captures[i - 1].scenePosition.east
                #expect(step > 8 && step < 12)
            }
        }
        #expect { try planner.plan(model: model, streetNames: ["Nowhere Street"]) } throws: { error in
            guard case SimulatorError.unknownStreets(let requested, let available) = error else { return false }
            return requested == ["Nowhere Street"] && available.contains("Testikatu")
        }
        #expect(CapturePlanner.slug("Eteläesplanadi") == "etelaesplanadi")
    }

    @Test func captureFilesCarryCompleteMetadata() throws {
        let model = try CityModel(dataset: TestScenes.town(), options: CityModelOptions(marginMeters: 50, includeSigns: false))
        let planner = try CapturePlanner(spacingMeters: 40, startTime: Date(timeIntervalSince1970: 1_781_514_000), imageWidth: 64, depthWidth: 32)
        let capture = try #require(try planner.plan(model: model, streetNames: ["Testikatu"]).first)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try CaptureWriter(model: model, directory: folder.path, samplesPerPixel: 1)
        try writer.write(capture)
        #expect(writer.exists(capture))
        let jpeg = try ImageFile.read(folder.appendingPathComponent(capture.imageFileName).path)
        let read = try ImageMetadata.read(fromJPEG: jpeg).metadata
        #expect(abs((read.latitudeDegrees ?? 0) - capture.latitude) < 1e-6)
        #expect(abs((read.longitudeDegrees ?? 0) - capture.longitude) < 1e-6)
        #expect(abs((read.altitudeMeters ?? 0) - 2.5) < 0.01)
        #expect(abs((read.imageDirectionDegrees ?? 0) - capture.headingDegrees) < 0.01)
        #expect(read.dateTimeOriginal == "2026:06:15 09:00:00")
        #expect(read.gpsTimestamp.map { abs($0.timeIntervalSince(capture.captureTime)) < 1 } == true)
        let pano = try #require(read.panorama)
        #expect(pano.projectionType == "equirectangular" && pano.fullPanoWidthPixels == 64 && pano.fullPanoHeightPixels == 32)
        #expect(abs((pano.poseHeadingDegrees ?? -1) - capture.headingDegrees) < 0.01)
        let depth = try PNGCodec.decodeGray16(ImageFile.read(folder.appendingPathComponent(capture.depthFileName).path))
        #expect(depth.width == 32 && depth.height == 16)
        let labels = try PNGCodec.decodeGray8(ImageFile.read(folder.appendingPathComponent(capture.labelFileName).path))
        #expect(labels[0, 0, 0] == LabelClass.sky.rawValue)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let sidecar = try decoder.decode(CaptureMetadata.self, from: Data(contentsOf: folder.appendingPathComponent(capture.sidecarFileName)))
        #expect(sidecar.id == capture.id && sidecar.sequenceOrder == 0 && abs(sidecar.latitude - capture.latitude) < 1e-12)
    }

    @Test func labelTableIsStable() {
        #expect(LabelClass.table.map(\.name) == ["sky", "road", "road_marking", "sidewalk", "pedestrian_area", "building", "sign",
                                                 "street_plate", "vegetation", "water", "ground",
                                                 "pole", "traffic_light", "street_furniture", "monument", "rail_track", "shrub"])
        // Ids are stable: 0…10 as before the city got furniture, new classes after them.
        #expect(LabelClass.table.map(\.value) == Array(0...16))
    }
}
