import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import Reprojection
import Testing

/// Partial panoramas (GPano crop, as phone panoramas write it) render like the full panorama they were
/// cut from where they have pixels, and black where they do not.
@Suite struct PartialPanoramaTests {
    static let position = (latitude: 60.17, longitude: 24.94)

    /// A 1024×512 panorama with detail everywhere (a colour ramp and a grid).
    static func fullPanorama() -> RGB8Image {
        var image = RGB8Image(width: 1024, height: 512)
        for y in 0..<512 {
            for x in 0..<1024 {
                let grid = (x % 32 < 2 || y % 32 < 2) ? 0 : 1
                let i = (y * 1024 + x) * 3
                image.components[i] = UInt8(grid * (40 + x * 200 / 1024))
                image.components[i + 1] = UInt8(grid * (40 + y * 200 / 512))
                image.components[i + 2] = UInt8(grid * 160)
            }
        }
        return image
    }

    /// Writes `image` as a JPEG with GPS and GPano into a new folder and indexes it; returns the catalog.
    static func catalog(_ image: RGB8Image, panorama: PanoramaMetadata, in folder: String) throws -> Catalog {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let metadata = ImageMetadata(latitudeDegrees: position.latitude, longitudeDegrees: position.longitude, altitudeMeters: 10,
                                     dateTimeOriginal: "2024:05:12 10:15:30", panorama: panorama)
        try Data(try JPEGCodec.encode(image, quality: 92, metadata: metadata)).write(to: URL(fileURLWithPath: folder + "/pano.jpg"))
        let path = folder + "/catalog.sqlite"
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [folder], catalogPath: path))
        return try Catalog(path: path)
    }

    @Test func cropRendersWhereItHasPixelsAndBlackElsewhere() async throws {
        let root = NSTemporaryDirectory() + "lookaround-partial-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let full = Self.fullPanorama()
        // The crop: 512×320 from (256, 64): 180° of longitude around the centre column, +67.5°…−45°.
        var cropped = RGB8Image(width: 512, height: 320)
        for y in 0..<320 {
            let from = ((64 + y) * 1024 + 256) * 3
            cropped.components.replaceSubrange((y * 512 * 3)..<((y + 1) * 512 * 3), with: full.components[from..<(from + 512 * 3)])
        }
        let fullCatalog = try Self.catalog(full, panorama: .equirectangular(width: 1024, height: 512, headingDegrees: 0),
                                           in: root + "/full")
        let partialCatalog = try Self.catalog(cropped, panorama: PanoramaMetadata(
            projectionType: "equirectangular", poseHeadingDegrees: 0, fullPanoWidthPixels: 1024, fullPanoHeightPixels: 512,
            croppedAreaImageWidthPixels: 512, croppedAreaImageHeightPixels: 320, croppedAreaLeftPixels: 256,
            croppedAreaTopPixels: 64), in: root + "/partial")
        // What `lookaround index --tiles` does: the partial panorama's tiles are cut from its full sphere.
        let crops = try partialCatalog.partialPanoramaCrops().mapValues {
            try PanoramaCrop(fullWidth: $0.fullWidth, fullHeight: $0.fullHeight, left: $0.croppedLeft, top: $0.croppedTop)
        }
        let fullCrops = try fullCatalog.partialPanoramaCrops()
        #expect(crops.count == 1 && fullCrops.isEmpty)
        let report = PanoramaTileStore(catalogPath: partialCatalog.path).update(try partialCatalog.imagePaths(), crops: crops)
        #expect(report.made == 1 && report.failures.isEmpty, "\(report.failures)")
        let point = try GeoCoordinate(latitude: Self.position.latitude, longitude: Self.position.longitude)
        func snapshot(_ catalog: Catalog, heading: Double) async throws -> LookAroundSnapshotter.Snapshot {
            let scene = try #require(try await LookAroundSceneRequest(coordinate: point, catalog: catalog).scene)
            let options = LookAroundSnapshotter.Options(size: PixelSize(width: 200, height: 150),
                                                        camera: .init(headingDegrees: heading, fieldOfViewDegrees: 60),
                                                        pointOfInterestFilter: .excludingAll, showsRoadLabels: false)
            return try await LookAroundSnapshotter(scene: scene, options: options, cache: PanoramaCache(), catalog: catalog).snapshot
        }
        for heading in [0.0, 40, -40] {
            let a = try await snapshot(fullCatalog, heading: heading), b = try await snapshot(partialCatalog, heading: heading)
            let psnr = ImageMetrics.psnr(a.image, b.image)
            #expect(psnr > 32, "heading \(heading): partial vs full \(psnr) dB")
        }
        let behind = try await snapshot(partialCatalog, heading: 180)
        #expect(behind.image.components.allSatisfy { $0 == 0 }, "looking away from the captured area shows black")
        // The tile file was made from the embedded full panorama.
        let tiles = try PanoramaTileFile(path: LookAroundSnapshotter.tileFilePath(
            panoramaID: behind.panoramaID, catalogPath: partialCatalog.path))
        #expect(tiles.levels[0].width == 1024 && tiles.levels[0].height == 512)
    }

    @Test func decoderEmbedsTheCropAtEveryLevel() throws {
        let crop = try PanoramaCrop(fullWidth: 1024, fullHeight: 512, left: 960, top: 100)
        var image = RGB8Image(width: 128, height: 64)
        for i in 0..<image.components.count { image.components[i] = 200 }
        let jpeg = try JPEGCodec.encode(image, quality: 95)
        for level in 0...2 {
            let embedded = try PanoramaDecoder.decode(jpeg, level: level, crop: crop)
            #expect(embedded.width == 1024 >> level && embedded.height == 512 >> level)
            let rgb = embedded.rgbImage()
            func value(_ x: Int, _ y: Int) -> UInt8 { rgb.components[(y * rgb.width + x) * 3] }
            // The crop crosses the seam: its right half wraps to the left edge.
            #expect(value((960 >> level) + 2, (100 >> level) + 2) > 190)
            #expect(value(2, (100 >> level) + 2) > 190)
            #expect(value(512 >> level, 256 >> level) == 0)
            #expect(value((960 >> level) + 2, (100 >> level) - 2) == 0, "above the crop")
        }
        #expect(throws: ReprojectionError.notEquirectangular(width: 1000, height: 512)) {
            _ = try PanoramaCrop(fullWidth: 1000, fullHeight: 512, left: 0, top: 0)
        }
    }
}
