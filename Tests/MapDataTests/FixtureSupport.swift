import Foundation
import Testing
@testable import MapData

/// Paths of the test fixtures and of the shipped Helsinki extract, and the extract loaded once.
enum Fixtures {
    /// The path of `Fixtures/<name>` in the test bundle.
    static func path(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil),
                               "test bundle has no Fixtures folder")
        return url.appendingPathComponent(name).path
    }

    /// Loads `Fixtures/<name>`.
    static func load(_ name: String) throws -> MapDataset {
        try MapDataset(contentsOfFile: path(name))
    }

    /// The package root (this file is Tests/MapDataTests/FixtureSupport.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped extract of central Helsinki (© OpenStreetMap contributors, ODbL).
    static let helsinkiPath = packageRoot.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path

    /// The Helsinki extract, read once for all tests that need it.
    static let helsinki: Result<MapDataset, any Error> = Result { try MapDataset(contentsOfFile: helsinkiPath) }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mapdata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension Array where Element == OSMCoordinate {
    /// Rounded (lat, lon) pairs in grid units of 0.0005° relative to 60.170 N, 24.950 E, for readable
    /// comparisons with the fixtures' grids.
    var gridPoints: [[Int]] {
        map { [Int((($0.latitude - 60.170) / 0.0005).rounded()), Int((($0.longitude - 24.950) / 0.0005).rounded())] }
    }
}
