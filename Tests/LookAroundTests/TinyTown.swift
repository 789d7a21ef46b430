import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import MapData
import Simulator
import Testing
import TestSupport

/// A tiny simulated town, written as an OSM file so the simulator (signs) and the catalog (places,
/// streets) read the same data: one street running east along north = 0 from −80 to 80 m, a 12 m
/// block on each side, a café against the south block, and two streets hidden from every capture
/// behind the blocks (Piilotie at north = 34 m, Piilokuja at −34 m, east −30…30; symmetric, so the
/// model's frame, centred on the data, stays on the town's origin). Three captures along the street are rendered
/// (1024×512, 4 samples per pixel) and indexed into a catalog.
final class TinyTown: Sendable {
    static let origin = (latitude: 60.1699, longitude: 24.9523)
    static let imageWidth = 1024

    let root: URL
    let model: CityModel
    let captures: [CaptureMetadata]
    let catalog: Catalog
    let catalogPath: String
    let frame: LocalTangentFrame

    /// Built once per test process (a second or two).
    static let shared = Result { try TinyTown() }

    private init() throws {
        root = try Lookaround.temporaryDirectory()
        frame = try LocalTangentFrame(origin: try GeoCoordinate(latitude: Self.origin.latitude, longitude: Self.origin.longitude))
        let osmPath = root.appendingPathComponent("town.osm").path
        try Data(try Self.osm(frame: frame).utf8).write(to: URL(fileURLWithPath: osmPath))
        let dataset = try MapDataset(contentsOfFile: osmPath)
        model = try CityModel(dataset: dataset, options: CityModelOptions(marginMeters: 20, includeTrees: false))
        var planner = try CapturePlanner(spacingMeters: 40, startTime: Date(timeIntervalSince1970: 1_715_508_000),
                                         imageWidth: Self.imageWidth, depthWidth: 512)
        planner.region = SceneRect(minEast: -45, minNorth: -5, maxEast: 45, maxNorth: 5)
        captures = try planner.plan(model: model, streetNames: ["Testikatu"])
        let panoramas = root.appendingPathComponent("panoramas")
        try FileManager.default.createDirectory(at: panoramas, withIntermediateDirectories: true)
        let writer = try CaptureWriter(model: model, directory: panoramas.path, samplesPerPixel: 4, jpegQuality: 95)
        for capture in captures { try writer.write(capture) }
        catalogPath = root.appendingPathComponent("catalog.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [panoramas.path], catalogPath: catalogPath,
                                                         osmFiles: [osmPath]))
        catalog = try Catalog(path: catalogPath)
    }

    /// The coordinate at (east, north) metres from the origin.
    func coordinate(east: Double, north: Double) throws -> GeoCoordinate {
        try frame.geodetic(from: EastNorthUp(east: east, north: north, up: 0)).coordinate
    }

    static func osm(frame: LocalTangentFrame) throws -> String {
        var nodes: [String] = []
        var nextID = 1
        func node(_ east: Double, _ north: Double, tags: [(String, String)] = []) throws -> Int {
            let g = try frame.geodetic(from: EastNorthUp(east: east, north: north, up: 0)).coordinate
            let id = nextID
            nextID += 1
            let tagText = tags.map { "<tag k=\"\($0.0)\" v=\"\($0.1)\"/>" }.joined()
            nodes.append("<node id=\"\(id)\" lat=\"\(g.latitude)\" lon=\"\(g.longitude)\" version=\"1\">\(tagText)</node>")
            return id
        }
        func way(_ id: Int, _ refs: [Int], _ tags: [(String, String)]) -> String {
            "<way id=\"\(id)\" version=\"1\">" + refs.map { "<nd ref=\"\($0)\"/>" }.joined()
                + tags.map { "<tag k=\"\($0.0)\" v=\"\($0.1)\"/>" }.joined() + "</way>"
        }
        func block(_ id: Int, _ south: Double, _ north: Double, colour: String) throws -> String {
            let a = try node(-60, south), b = try node(60, south), c = try node(60, north), d = try node(-60, north)
            return way(id, [a, b, c, d, a], [("building", "apartments"), ("height", "12"), ("building:colour", colour)])
        }
        let ways = [
            try block(100, -30, -8, colour: "#d8c8a0"),
            try block(101, 8, 30, colour: "#a0b8d0"),
            way(102, [try node(-80, 0), try node(0, 0), try node(80, 0)],
                [("highway", "residential"), ("name", "Testikatu"), ("name:sv", "Testgatan"), ("name:ja", "テスト通り")]),
            way(103, [try node(-30, 34), try node(30, 34)], [("highway", "residential"), ("name", "Piilotie")]),
            way(104, [try node(-30, -34), try node(30, -34)], [("highway", "residential"), ("name", "Piilokuja")]),
        ]
        _ = try node(5, -9, tags: [("amenity", "cafe"), ("name", "Café Test"), ("name:sv", "Kafé Test")])
        _ = try node(-20, 9, tags: [("shop", "books"), ("name", "Kirjakauppa")])
        let south = try frame.geodetic(from: EastNorthUp(east: -100, north: -100, up: 0)).coordinate
        let north = try frame.geodetic(from: EastNorthUp(east: 100, north: 100, up: 0)).coordinate
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6" generator="lookaround tests">
            <bounds minlat="\(south.latitude)" minlon="\(south.longitude)" maxlat="\(north.latitude)" maxlon="\(north.longitude)"/>
            \(nodes.joined(separator: "\n"))
            \(ways.joined(separator: "\n"))
            </osm>
            """
    }
}

extension TinyTown {
    /// The scene a client gets at `capture`'s position (the panorama rendered there).
    func scene(at capture: CaptureMetadata) async throws -> LookAroundScene {
        let coordinate = try #require(capture.coordinate)
        return try #require(try await LookAroundSceneRequest(coordinate: coordinate, catalog: catalog).scene)
    }
}
