import Catalog
import Foundation
import Geodesy
import Imaging
import TestSupport

/// Small generated panoramas laid out the way real cameras write them, and a tiny OSM file.
enum Fixtures {
    static let senaatintori = (latitude: 60.1699, longitude: 24.9523)

    /// A 2:1 (or cropped) test image.
    static func jpeg(width: Int = 64, height: Int = 32, metadata: ImageMetadata?) throws -> [UInt8] {
        var image = RGB8Image(width: width, height: height)
        for i in 0..<image.components.count { image.components[i] = UInt8(truncatingIfNeeded: i * 7) }
        return try JPEGCodec.encode(image, quality: 80, metadata: metadata)
    }

    static func write(_ bytes: [UInt8], _ directory: URL, _ name: String) throws {
        try Data(bytes).write(to: directory.appendingPathComponent(name))
    }

    /// A coordinate `meters` from Senaatintori at `bearing` degrees.
    static func offset(_ meters: Double, bearing: Double) throws -> GeoCoordinate {
        let origin = try GeoCoordinate(latitude: senaatintori.latitude, longitude: senaatintori.longitude)
        return try Geodesic.wgs84.direct(from: origin, azimuth: Angle(degrees: bearing), distanceMeters: meters).destination
    }

    /// Ricoh Theta: `R0010023.JPG`, EXIF GPS + GPSImgDirection + DateTimeOriginal, GPano without a pose
    /// heading; with a depth map and a label map beside it.
    static func ricohTheta(in directory: URL, name: String = "R0010023", at coordinate: GeoCoordinate,
                           direction: Double = 123.5, time: String = "2024:05:12 10:15:30") throws {
        var pano = PanoramaMetadata.equirectangular(width: 64, height: 32, headingDegrees: 0)
        pano.poseHeadingDegrees = nil
        let metadata = ImageMetadata(latitudeDegrees: coordinate.latitude, longitudeDegrees: coordinate.longitude,
                                     altitudeMeters: 12.5, imageDirectionDegrees: direction, dateTimeOriginal: time,
                                     make: "RICOH", model: "RICOH THETA Z1", panorama: pano)
        try write(try jpeg(metadata: metadata), directory, "\(name).JPG")
        try write(try PNGCodec.encode(Gray16Image(width: 64, height: 32, fill: 1000)), directory, "\(name).depth.png")
        try write(try PNGCodec.encode(Gray8Image(width: 64, height: 32, fill: 3)), directory, "\(name).labels.png")
    }

    /// Ricoh Theta V with no heading at all (no GPSImgDirection, GPano without a pose heading): what a
    /// sequence's direction of travel has to orient.
    static func headingless(in directory: URL, name: String, at coordinate: GeoCoordinate, time: String) throws {
        var pano = PanoramaMetadata.equirectangular(width: 64, height: 32, headingDegrees: 0)
        pano.poseHeadingDegrees = nil
        let metadata = ImageMetadata(latitudeDegrees: coordinate.latitude, longitudeDegrees: coordinate.longitude,
                                     dateTimeOriginal: time, make: "RICOH", model: "RICOH THETA V", panorama: pano)
        try write(try jpeg(metadata: metadata), directory, name)
    }

    /// Insta360: `IMG_20240512_101530_00_001.jpg`, a cropped panorama (64×24 of 64×32) with
    /// PoseHeadingDegrees in XMP and GPS time only (2024-05-12T11:15:30Z).
    static func insta360(in directory: URL, at coordinate: GeoCoordinate, heading: Double = 250) throws {
        let pano = PanoramaMetadata(projectionType: "equirectangular", usePanoramaViewer: true, poseHeadingDegrees: heading,
                                    posePitchDegrees: 1.5, poseRollDegrees: -0.5, fullPanoWidthPixels: 64,
                                    fullPanoHeightPixels: 32, croppedAreaImageWidthPixels: 64,
                                    croppedAreaImageHeightPixels: 24, croppedAreaLeftPixels: 0, croppedAreaTopPixels: 4,
                                    captureSoftware: "Insta360 Studio")
        let metadata = ImageMetadata(latitudeDegrees: coordinate.latitude, longitudeDegrees: coordinate.longitude,
                                     gpsTimestamp: Date(timeIntervalSince1970: 1_715_512_530),
                                     make: "Arashi Vision", model: "Insta360 X3", panorama: pano)
        try write(try jpeg(width: 64, height: 24, metadata: metadata), directory, "IMG_20240512_101530_00_001.jpg")
    }

    /// A camera that writes neither GPS nor GPano: the position comes from `NAME.json`.
    static func sidecarCamera(in directory: URL, name: String = "capture-7", at coordinate: GeoCoordinate,
                              extra: String = "") throws {
        try write(try jpeg(metadata: nil), directory, "\(name).jpg")
        let json = """
            {"latitude": \(coordinate.latitude), "longitude": \(coordinate.longitude), "heading_degrees": 45,
             "capture_time": "2023-08-01T12:00:00Z", "camera_height_meters": 2.5, "sequence_id": "walk",
             "sequence_index": 7\(extra)}
            """
        try write(Array(json.utf8), directory, "\(name).json")
    }

    /// A simulated panorama (as the simulator writes it) with GPS only: no heading, no time.
    static func bare(in directory: URL, name: String, at coordinate: GeoCoordinate, software: String? = nil) throws {
        let pano = software.map { PanoramaMetadata(projectionType: "equirectangular", captureSoftware: $0) }
        let metadata = ImageMetadata(latitudeDegrees: coordinate.latitude, longitudeDegrees: coordinate.longitude,
                                     panorama: pano)
        try write(try jpeg(metadata: metadata), directory, "\(name).jpg")
    }

    /// Files that must fail, each for a different reason.
    static func brokenFiles(in directory: URL) throws {
        try write(Array("this is not a JPEG".utf8), directory, "notes.jpg")
        let good = try jpeg(metadata: ImageMetadata(latitudeDegrees: 60.17, longitudeDegrees: 24.95))
        try write(Array(good.prefix(40)), directory, "truncated.jpg")
        try write(try jpeg(metadata: nil), directory, "nogps.jpg")
        try write(try jpeg(metadata: nil), directory, "badsidecar.jpg")
        try write(Array("{not json".utf8), directory, "badsidecar.json")
    }

    /// A tiny OSM XML file with places in several languages and one street.
    static let osm = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="lookaround tests">
          <bounds minlat="60.160" minlon="24.930" maxlat="60.180" maxlon="24.970"/>
          <node id="1" lat="60.1699" lon="24.9523" version="1"><tag k="place" v="square"/><tag k="name" v="Senaatintori"/><tag k="name:sv" v="Senatstorget"/></node>
          <node id="2" lat="60.1687" lon="24.9416" version="1"><tag k="amenity" v="post_office"/><tag k="name" v="Pääposti"/><tag k="name:sv" v="Huvudposten"/><tag k="addr:street" v="Mannerheiminaukio"/><tag k="addr:housenumber" v="1"/><tag k="addr:postcode" v="00100"/><tag k="addr:city" v="Helsinki"/></node>
          <node id="3" lat="60.1686" lon="24.9418" version="1"><tag k="shop" v="department_store"/><tag k="name" v="Stockmann"/><tag k="phone" v="+358 9 1211"/><tag k="website" v="https://www.stockmann.com"/><tag k="addr:street" v="Aleksanterinkatu"/><tag k="addr:housenumber" v="52"/></node>
          <node id="9" lat="60.16775" lon="24.94277" version="1"><tag k="highway" v="bus_stop"/><tag k="name" v="Stockmann"/></node>
          <node id="4" lat="60.1702" lon="24.9520" version="1"><tag k="amenity" v="cafe"/><tag k="name" v="Café Engel"/></node>
          <node id="5" lat="60.1600" lon="24.9000" version="1"><tag k="amenity" v="cafe"/><tag k="name" v="Cafe Engelberg"/></node>
          <node id="6" lat="60.1705" lon="24.9522" version="1"><tag k="amenity" v="place_of_worship"/><tag k="name" v="Helsingin tuomiokirkko"/><tag k="name:sv" v="Helsingfors domkyrka"/><tag k="name:en" v="Helsinki Cathedral"/></node>
          <node id="10" lat="60.1690" lon="24.9500" version="1"/>
          <node id="11" lat="60.1690" lon="24.9550" version="1"/>
          <way id="100" version="1"><nd ref="10"/><nd ref="11"/><tag k="highway" v="pedestrian"/><tag k="name" v="Aleksanterinkatu"/><tag k="name:sv" v="Alexandersgatan"/></way>
        </osm>
        """

    /// A folder with a Theta, an Insta360, a sidecar camera and two simulated panoramas near Senaatintori,
    /// and `places.osm` beside it. Returns (root, panorama folder, osm path).
    static func standardSet() throws -> (root: URL, panoramas: URL, osm: String) {
        let root = try Lookaround.temporaryDirectory()
        let panoramas = root.appendingPathComponent("helsinki")
        try FileManager.default.createDirectory(at: panoramas, withIntermediateDirectories: true)
        try ricohTheta(in: panoramas, at: try offset(10, bearing: 90))
        try insta360(in: panoramas, at: try offset(20, bearing: 180))
        try sidecarCamera(in: panoramas, at: try offset(200, bearing: 0))
        try bare(in: panoramas, name: "sim_0001", at: try offset(5, bearing: 270), software: "lookaround simulator 0.1")
        try bare(in: panoramas, name: "sim_0002", at: try offset(15, bearing: 270), software: "lookaround simulator 0.1")
        let osm = root.appendingPathComponent("places.osm").path
        try Data(Self.osm.utf8).write(to: URL(fileURLWithPath: osm))
        return (root, panoramas, osm)
    }

    /// Indexes `standardSet()` into `root/catalog.sqlite`.
    static func standardCatalog() throws -> (root: URL, panoramas: URL, catalog: Catalog, report: IndexReport) {
        let set = try standardSet()
        let path = set.root.appendingPathComponent("catalog.sqlite").path
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: path,
                                                                  osmFiles: [set.osm]))
        return (set.root, set.panoramas, try Catalog(path: path), report)
    }
}
