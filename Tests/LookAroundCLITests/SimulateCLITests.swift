import Foundation
import Testing
import TestSupport

@Suite struct SimulateCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let osm = root.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
    /// A small area at the east end of Aleksanterinkatu by Senaatintori.
    static let bbox = "60.1688,24.9510,60.1694,24.9525"

    @Test func writesCapturesAndSkipsThemTheSecondTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["simulate", "--osm", Self.osm, "--out", folder.path, "--streets", "Aleksanterinkatu", "--bbox", Self.bbox,
                         "--size", "64x32", "--depth-size", "32x16", "--samples", "1", "--limit", "2"]
        let first = try Lookaround.run(arguments)
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("wrote 2 captures, skipped 0 existing"))
        #expect(first.stderr.contains("2/2"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["aleksanterinkatu-000.depth.png", "aleksanterinkatu-000.jpg", "aleksanterinkatu-000.json",
                          "aleksanterinkatu-000.labels.png", "aleksanterinkatu-001.depth.png", "aleksanterinkatu-001.jpg",
                          "aleksanterinkatu-001.json", "aleksanterinkatu-001.labels.png"])
        let bytes = try Data(contentsOf: folder.appendingPathComponent("aleksanterinkatu-000.jpg"))
        let second = try Lookaround.run(arguments)
        #expect(second.exitCode == 0)
        #expect(second.stdout.hasPrefix("wrote 0 captures, skipped 2 existing"))
        let forced = try Lookaround.run(arguments + ["--force"])
        #expect(forced.stdout.hasPrefix("wrote 2 captures"))
        // Deterministic: the same inputs give the same bytes.
        #expect(try Data(contentsOf: folder.appendingPathComponent("aleksanterinkatu-000.jpg")) == bytes)
    }

    @Test func rendersOnePinholeView() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("view.png").path
        let result = try Lookaround.run(["simulate", "--osm", Self.osm, "--bbox", Self.bbox, "--view", "60.16905,24.9515",
                                         "--heading-degrees", "80", "--size", "48x32", "--samples", "1", "-o", output])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let png = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func badInputGetsTheDocumentedExitCodes() throws {
        let missing = try Lookaround.run(["simulate", "--osm", "/nonexistent.osm.pbf", "--out", "/tmp/x"])
        #expect(missing.exitCode == 66)
        #expect(missing.stderr.contains("no such file"))
        let size = try Lookaround.run(["simulate", "--osm", Self.osm, "--out", "/tmp/x", "--size", "100x100"])
        #expect(size.exitCode == 64)
        #expect(size.stderr.contains("twice as wide"))
        let street = try Lookaround.run(["simulate", "--osm", Self.osm, "--out", "/tmp/x", "--bbox", Self.bbox, "--streets", "Nowhere Street"])
        #expect(street.exitCode == 64)
        #expect(street.stderr.contains("Nowhere Street"))
        let samples = try Lookaround.run(["simulate", "--osm", Self.osm, "--out", "/tmp/x", "--samples", "0"])
        #expect(samples.exitCode == 64)
    }
}
