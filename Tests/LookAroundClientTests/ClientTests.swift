import Foundation
import LookAround
import Testing

/// The API as a client package uses it: this target depends on and imports only `LookAround` (and the
/// test framework), so every type below must come through `import LookAround`. It reads the shipped
/// Helsinki data set, indexed into a temporary catalog.
/// The suite's catalog folder, removed at exit.
nonisolated(unsafe) private var clientFolder: String?

@Suite struct ClientTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let osm = repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path

    /// The shipped panoramas and places, indexed once for the suite.
    static let catalog = Result { () throws -> Catalog in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookaround-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The catalog lives for the suite: removed when the test process exits.
        clientFolder = folder.path
        atexit { if let path = clientFolder { try? FileManager.default.removeItem(atPath: path) } }
        let path = folder.appendingPathComponent("catalog.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(
            directories: [repository.appendingPathComponent("Panoramas/helsinki").path], catalogPath: path, osmFiles: [osm]))
        return try Catalog(path: path)
    }

    static let senaatintori = Result { try GeoCoordinate(latitude: 60.1699, longitude: 24.9523) }

    @Test func sceneRequestFindsImageryAtSenaatintori() async throws {
        let request = LookAroundSceneRequest(coordinate: try Self.senaatintori.get(), catalog: try Self.catalog.get())
        let scene = try #require(try await request.scene)
        #expect(scene.panoramaID.hasPrefix("senaatintori"))
        #expect(scene.distanceMeters <= SceneRequest.defaultRadiusMeters)
        let nowhere = LookAroundSceneRequest(coordinate: try GeoCoordinate(latitude: 0, longitude: 0), catalog: try Self.catalog.get())
        #expect(try await nowhere.scene == nil)
    }

    @Test func snapshotIsAnImageThatEncodesAsPNGAndJPEG() async throws {
        let catalog = try Self.catalog.get()
        let scene = try #require(try await LookAroundSceneRequest(coordinate: try Self.senaatintori.get(), catalog: catalog).scene)
        let options = LookAroundSnapshotter.Options(size: PixelSize(width: 320, height: 180),
                                                    camera: .init(headingDegrees: 0, pitchDegrees: 5, fieldOfViewDegrees: 70))
        let snapshot = try await LookAroundSnapshotter(scene: scene, options: options, catalog: catalog).snapshot
        let image: RGB8Image = snapshot.image
        #expect(image.width == 320 && image.height == 180)
        #expect(snapshot.camera.fieldOfViewDegrees == 70)
        let png = try PNGCodec.encode(image), jpeg = try JPEGCodec.encode(image, quality: 80)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && jpeg.starts(with: [0xFF, 0xD8]))
    }

    @Test func localSearchFindsAPlaceAndItsScene() async throws {
        let catalog = try Self.catalog.get()
        let response = try await LocalSearch(request: .init(naturalLanguageQuery: "Stockmann"), catalog: catalog).start()
        let item: MapItem = try #require(response.mapItems.first)
        #expect(item.name.contains("Stockmann"))
        let coordinate: GeoCoordinate = item.coordinate
        #expect(abs(coordinate.latitude - 60.168) < 0.01)
        _ = try await LookAroundSceneRequest(mapItem: item, catalog: catalog).answer
    }

    @Test func mapSnapshotOfTheCentreWithACodableCamera() throws {
        let camera = try MapCamera(centerCoordinate: try Self.senaatintori.get(), centerCoordinateDistanceMeters: 800,
                                   heading: .degrees(30), pitch: MapCameraPitch(degrees: 45))
        let restored = try JSONDecoder().decode(MapCamera.self, from: try JSONEncoder().encode(camera))
        #expect(restored == camera)
        let snapshotter = try MapSnapshotter(dataset: try MapDataset(contentsOfFile: Self.osm))
        let snapshot = try snapshotter.snapshot(MapSnapshotOptions(camera: restored, size: PointSize(width: 256, height: 192)))
        let image: RGBA8Image = snapshot.image
        #expect(image.width == 256 && image.height == 192)
        #expect(try PNGCodec.encode(image).count > 1000)
    }
}
