import Foundation
import Testing
@testable import MapData

@Suite("File errors name the file and the problem")
struct MapDataErrorTests {
    /// Loads `path` and returns the error it throws (failing the test when it does not throw).
    func loadError(_ path: String) throws -> MapDataError {
        do {
            _ = try MapDataset(contentsOfFile: path)
        } catch let error as MapDataError {
            return error
        }
        Issue.record("\(path) loaded without an error")
        throw CancellationError()
    }

    func write(_ bytes: [UInt8], named name: String) throws -> String {
        let url = try Fixtures.temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test("missing file")
    func missingFile() throws {
        let error = try loadError("/nonexistent/city.osm.pbf")
        #expect(error == .fileNotFound(path: "/nonexistent/city.osm.pbf"))
        #expect(error.description.contains("/nonexistent/city.osm.pbf: no such file"))
    }

    @Test("a directory")
    func directory() throws {
        let path = try Fixtures.temporaryDirectory().path
        guard case .unreadable(let p, let reason) = try loadError(path) else { Issue.record("wrong case"); return }
        #expect(p == path)
        #expect(reason.contains("directory"))
    }

    @Test("not OSM: says what it found", arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] as [UInt8], "photo.pbf", "a PNG image"),
        (Array("hello, world\n".utf8), "notes.osm", "text starting with \"hello, world\\n\""),
        (Array("<?xml version=\"1.0\"?><gpx version=\"1.1\"></gpx>".utf8), "track.osm", "root element is <gpx>"),
        ([], "empty.osm", "an empty file"),
        ([0x00, 0x01, 0x02, 0x03, 0xFF, 0xFE, 0x00, 0x10, 0x20], "blob.pbf", "binary data starting with 00 01 02"),
    ])
    func notOSM(bytes: [UInt8], name: String, found: String) throws {
        let path = try write(bytes, named: name)
        let error = try loadError(path)
        guard case .notOSM(let p, let description) = error else { Issue.record("\(error)"); return }
        #expect(p == path)
        #expect(description.contains(found), "\(description)")
        #expect(error.description.hasPrefix(path))
    }

    @Test(".osm.gz is rejected with a remedy")
    func gzip() throws {
        let path = try write([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0], named: "city.osm.gz")
        let error = try loadError(path)
        #expect(error == .compressedXML(path: path, compression: "gzip"))
        #expect(error.description.contains("gunzip"))
    }

    @Test("OSM data under a suffix libreadosm refuses")
    func wrongSuffix() throws {
        let xml = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("pois.osm")))
        let path = try write([UInt8](xml), named: "pois.xml")
        #expect(try loadError(path) == .unsupportedSuffix(path: path, detectedFormat: "OSM XML data"))
        let pbf = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("zlib-dense.osm.pbf")))
        let pbfPath = try write([UInt8](pbf), named: "city.dat")
        #expect(try loadError(pbfPath) == .unsupportedSuffix(path: pbfPath, detectedFormat: "OSM PBF data"))
    }

    @Test("LZ4-compressed PBF blobs are detected and explained")
    func lz4() throws {
        let path = try Fixtures.path("lz4-blobs.osm.pbf")
        let error = try loadError(path)
        #expect(error == .unsupportedPBFCompression(path: path, compression: "lz4"))
        #expect(error.description.contains("osmium cat"))
    }

    @Test("PBF with plain (non-dense) nodes: libreadosm sees 0 nodes, we say why")
    func plainNodes() throws {
        let path = try Fixtures.path("plain-nodes.osm.pbf")
        let error = try loadError(path)
        #expect(error == .pbfWithoutDenseNodes(path: path, wayCount: 1))
        #expect(error.description.contains("non-dense"))
    }

    @Test("the same small file with dense nodes and zlib blobs reads fine")
    func densePBF() throws {
        let data = try Fixtures.load("zlib-dense.osm.pbf")
        #expect(data.counts.nodes == 4)
        #expect(data.counts.ways == 1)
        #expect(data.streets.first?.name == "Testikatu")
        #expect(data.streets.first?.points.count == 4)
    }

    @Test("a truncated PBF is an error, not a crash")
    func truncated() throws {
        let helsinki = try Data(contentsOf: URL(fileURLWithPath: Fixtures.helsinkiPath))
        let path = try write([UInt8](helsinki.prefix(100_000)), named: "truncated.osm.pbf")
        guard case .readFailed(let p, let code, let meaning) = try loadError(path) else {
            Issue.record("wrong case")
            return
        }
        #expect(p == path)
        #expect(code < 0)
        #expect(meaning.contains("truncated"), "\(meaning)")
    }

    @Test("an OSM file without elements is an empty dataset")
    func emptyOSM() throws {
        let path = try write(Array("<?xml version=\"1.0\"?>\n<osm version=\"0.6\"></osm>\n".utf8), named: "empty.osm")
        let data = try MapDataset(contentsOfFile: path)
        #expect(data.counts == OSMElementCounts())
        #expect(data.boundingBox == nil)
        #expect(data.buildings.isEmpty && data.places.isEmpty && data.diagnostics.isEmpty)
    }

    @Test("malformed XML is a read error naming the file")
    func malformedXML() throws {
        let path = try write(Array("<osm version=\"0.6\"><node id=\"1\" lat=\"60.1\" lon=\"24.9\"><tag k=".utf8),
                             named: "broken.osm")
        let error = try loadError(path)
        guard case .readFailed(let p, _, let meaning) = error else { Issue.record("\(error)"); return }
        #expect(p == path)
        #expect(error.description.hasPrefix(path))
        #expect(!meaning.isEmpty)
    }
}
