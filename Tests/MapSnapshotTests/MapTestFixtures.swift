import Foundation
import Geodesy
import Imaging
import MapData
@testable import MapSnapshot
import Testing

/// The Helsinki extract and a snapshotter over it, loaded once per test process.
enum MapTestFixtures {
    /// The package root (this file is Tests/MapSnapshotTests/MapTestFixtures.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/MapSnapshotTests/Fixtures/<name>`.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    /// The shipped extract of central Helsinki (© OpenStreetMap contributors, ODbL).
    static let helsinkiPath = packageRoot.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path

    private static let loaded: Result<MapSnapshotter, any Error> = Result {
        try MapSnapshotter(dataset: try MapDataset(contentsOfFile: helsinkiPath))
    }

    /// The snapshotter over the Helsinki extract.
    static func snapshotter() throws -> MapSnapshotter { try loaded.get() }

    /// Senaatintori (Senate Square).
    static let senateSquare = try! GeoCoordinate(latitude: 60.16952, longitude: 24.95239)
    /// A point in the middle of the extract (Kluuvi).
    static let centre = try! GeoCoordinate(latitude: 60.1700, longitude: 24.9450)

    /// A region of `meters` × `meters` around `centre`.
    static func region(_ center: GeoCoordinate = centre, meters: Double) throws -> CoordinateRegion {
        try CoordinateRegion(center: center, latitudinalMeters: meters, longitudinalMeters: meters)
    }
}

/// A stand-in for the simulator's orthophoto: the map's own areas and buildings re-coloured like an aerial
/// photo (dark roofs, grey streets, green parks) with a deterministic grain, rendered top-down through
/// the snapshotter for the requested map rect.
struct SyntheticOrthophoto: OrthophotoProvider {
    let snapshotter: MapSnapshotter

    func orthophoto(of rect: MapRect, size: PixelSize) throws -> RGB8Image {
        var options = MapSnapshotOptions(framing: .mapRect(rect), size: PointSize(width: size.width, height: size.height), mapType: .standard)  // scale 1: a point is a pixel
        options.showsLabels = false
        let map = try snapshotter.snapshot(options).image
        var out = RGB8Image(width: size.width, height: size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let r = Double(map[x, y, 0]), g = Double(map[x, y, 1]), b = Double(map[x, y, 2])
                // Light land becomes grey-brown ground, saturated colours darken: an aerial look.
                let grain = 0.0
                let v = [r * 0.55 + 10 + grain, g * 0.58 + 12 + grain, b * 0.5 + 8 + grain]
                for c in 0..<3 { out[x, y, c] = UInt8(max(0, min(255, v[c]))) }
            }
        }
        return out
    }
}
