import Foundation
import Geodesy
import Imaging
import MapData
import Testing
import TestSupport
@testable import Simulator

/// Every common land cover in the simulated streets: a small extract written by the test (a 4 × 3 grid
/// of 50 m squares, one per cover, one left untagged, and a street), rendered from 260 m straight down
/// through a pinhole camera. Each square shows its own surface where its polygon is (its colour apart
/// from the untagged land's, its label class) and its own plants (none on fields, sand, yards, car parks).
@Suite struct LandCoverTests {
    static let origin = (latitude: 60.1000, longitude: 24.8000)
    /// The covers, row by row from the north-west, with their tags (nil: left untagged).
    static let cells: [(name: String, tags: [(String, String)]?)] = [
        ("residential", [("landuse", "residential")]), ("farmland", [("landuse", "farmland")]),
        ("meadow", [("landuse", "meadow")]), ("forest", [("landuse", "forest")]),
        ("scrub", [("natural", "scrub")]), ("orchard", [("landuse", "orchard")]),
        ("sand", [("natural", "sand")]), ("industrial", [("landuse", "industrial")]),
        ("parking", [("amenity", "parking")]), ("grass", [("landuse", "grass")]),
        ("park", [("leisure", "park")]), ("untagged", nil),
    ]
    static let cellMeters = 50.0, gapMeters = 6.0

    /// The (west, south) corner of cell `index`, metres from the origin.
    static func corner(_ index: Int) -> (east: Double, north: Double) {
        let column = Double(index % 4), row = Double(index / 4)
        return (-112 + column * (cellMeters + gapMeters), 56 - row * (cellMeters + gapMeters))
    }

    static func osm(frame: LocalTangentFrame) throws -> String {
        var extract = OSMTestExtract(frame: frame)
        for (index, cell) in cells.enumerated() {
            guard let tags = cell.tags else { continue }
            let (e, n) = corner(index)
            let ring = [try extract.node(e, n), try extract.node(e + cellMeters, n), try extract.node(e + cellMeters, n + cellMeters),
                        try extract.node(e, n + cellMeters)]
            extract.way(100 + index, ring + [ring[0]], tags)
        }
        extract.way(200, [try extract.node(-130, -70), try extract.node(130, -70)], [("highway", "residential"), ("name", "Peltotie")])
        return extract.document
    }

    struct CellLook {
        var meanColour: [Double]
        /// Share of pixels whose surface stands 0.4 m or more above the ground (trees, shrubs).
        var plantShare: Double
        /// The label class most pixels at ground level have.
        var groundLabel: UInt8
    }

    static let looks = Result { () throws -> [String: CellLook] in
        let frame = try LocalTangentFrame(origin: try GeoCoordinate(latitude: origin.latitude, longitude: origin.longitude))
        let path = try Lookaround.temporaryDirectory().appendingPathComponent("land-cover.osm").path
        try Data(try osm(frame: frame).utf8).write(to: URL(fileURLWithPath: path))
        let dataset = try MapDataset(contentsOfFile: path)
        let model = try CityModel(dataset: dataset, options: CityModelOptions(marginMeters: 60, includeSigns: false,
                                                                            includeStreetPlates: false, includeFurniture: false))
        let eye = model.position(of: try GeoCoordinate(latitude: origin.latitude, longitude: origin.longitude), heightMeters: 260)
        let camera = try PinholeCamera(position: eye, headingDegrees: 0, pitchDegrees: -90, fieldOfViewDegrees: 60, width: 320, height: 320)
        let sun = SolarPosition(date: Date(timeIntervalSince1970: 1_781_514_000),
                                coordinate: try GeoCoordinate(latitude: origin.latitude, longitude: origin.longitude))
        let image = model.render(camera, settings: try RenderSettings(samplesPerPixel: 1, sun: sun))
        let maps = model.renderDepthAndLabels(camera)
        let picture = (path as NSString).deletingLastPathComponent + "/land-cover.png"
        try ImageFile.write(try PNGCodec.encode(image), to: picture)
        print("land covers from 260 m: \(picture)")
        // The scene frame is centred on the data; the test's frame on the origin: move between them.
        let offset = model.position(of: try GeoCoordinate(latitude: origin.latitude, longitude: origin.longitude), heightMeters: 0)
        var sums: [String: (colour: [Double], count: Int, plants: Int, labels: [UInt8: Int])] = [:]
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                let d = camera.direction(pixelX: Double(x) + 0.5, pixelY: Double(y) + 0.5)
                guard d.up < -0.1 else { continue }
                let toGround = eye.up / -d.up
                let length = (d.east * d.east + d.north * d.north + d.up * d.up).squareRoot()
                let east = eye.east + d.east * toGround - offset.east, north = eye.north + d.north * toGround - offset.north
                guard let index = cells.indices.first(where: { i in
                    let (e, n) = corner(i)
                    return east > e + 4 && east < e + cellMeters - 4 && north > n + 4 && north < n + cellMeters - 4
                }) else { continue }
                let groundDistance = toGround * length
                let depth = Double(maps.depth[x, y, 0]) * DepthEncoding.metersPerUnit
                var entry = sums[cells[index].name] ?? ([0, 0, 0], 0, 0, [:])
                for c in 0..<3 { entry.colour[c] += Double(image[x, y, c]) }
                entry.count += 1
                if depth < groundDistance - 0.4 / max(0.2, -d.up / length) { entry.plants += 1 } else { entry.labels[maps.labels[x, y, 0], default: 0] += 1 }
                sums[cells[index].name] = entry
            }
        }
        return sums.mapValues { entry in
            CellLook(meanColour: entry.colour.map { $0 / Double(max(1, entry.count)) }, plantShare: Double(entry.plants) / Double(max(1, entry.count)),
                     groundLabel: entry.labels.max { $0.value < $1.value }?.key ?? 255)
        }
    }

    @Test(arguments: cells.map(\.name).filter { $0 != "untagged" })
    func eachCoverShowsWhereItsPolygonIs(name: String) throws {
        let looks = try Self.looks.get()
        let cover = try #require(looks[name]), untagged = try #require(looks["untagged"])
        let difference = (0..<3).map { abs(cover.meanColour[$0] - untagged.meanColour[$0]) }.max()!
        #expect(difference >= 8, "\(name): mean colour \(cover.meanColour.map { Int($0) }) against untagged land \(untagged.meanColour.map { Int($0) })")
        let expectedLabel: LabelClass
        switch name {
        case "sand", "industrial": expectedLabel = .ground
        case "parking": expectedLabel = .road
        default: expectedLabel = .vegetation
        }
        #expect(cover.groundLabel == expectedLabel.rawValue, "\(name): ground label \(cover.groundLabel)")
        let plants: ClosedRange<Double>
        switch name {
        case "forest": plants = 0.4...1
        case "orchard": plants = 0.15...1
        case "scrub", "park": plants = 0.08...1
        case "residential": plants = 0.02...0.6
        case "grass": plants = 0.005...0.6
        case "meadow": plants = 0...0.3     // a shrub or two
        default: plants = 0...0
        }
        #expect(plants.contains(cover.plantShare), "\(name): \(Int(cover.plantShare * 100)) % of it is plants")
    }

    @Test func untaggedLandIsRoughGrassNotSand() throws {
        let looks = try Self.looks.get()
        let untagged = try #require(looks["untagged"]), sand = try #require(looks["sand"])
        #expect(untagged.groundLabel == LabelClass.ground.rawValue && untagged.plantShare == 0)
        // Greener than it is red or blue; sand is yellower and brighter.
        #expect(untagged.meanColour[1] > untagged.meanColour[0] && untagged.meanColour[1] > untagged.meanColour[2])
        #expect(sand.meanColour[0] > untagged.meanColour[0] + 20)
    }
}
