import Diagnostics
import Catalog
import Foundation
import Imaging
import Geodesy
import Testing
import TestSupport

@Suite struct IngestTests {
    @Test func realCameraLayoutsAreRead() throws {
        let (_, panoramas, catalog, report) = try Fixtures.standardCatalog()
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.panoramaCount == 5)
        #expect(report.placeCount == 7)
        #expect(report.streetCount == 1)

        let theta = try catalog.panorama(id: "helsinki/R0010023")
        #expect(theta.headingSource == "GPSImgDirection")
        #expect(abs(theta.headingDegrees - 123.5) < 1e-9)
        #expect(theta.captureTimeSource == "DateTimeOriginal")
        #expect(Catalog.iso8601String(theta.captureTime) == "2024-05-12T10:15:30Z")
        #expect(theta.depthPath == panoramas.path + "/R0010023.depth.png")
        #expect(theta.labelsPath == panoramas.path + "/R0010023.labels.png")
        #expect(theta.source == .photo)
        #expect(theta.make == "RICOH")
        #expect(theta.altitudeMeters.map { abs($0 - 12.5) < 0.01 } == true)
        #expect(!theta.isCropped)

        let insta = try catalog.panorama(id: "helsinki/IMG_20240512_101530_00_001")
        #expect(insta.headingSource == "PoseHeadingDegrees")
        #expect(insta.headingDegrees == 250)
        #expect(insta.captureTimeSource == "GPSTimeStamp")
        #expect(insta.isCropped)
        #expect(insta.fullWidth == 64 && insta.fullHeight == 32 && insta.imageHeight == 24 && insta.croppedTop == 4)
        #expect(abs(insta.pitchDegrees - 1.5) < 1e-9)
        #expect(insta.depthPath == nil)

        let sidecar = try catalog.panorama(id: "helsinki/capture-7")
        #expect(sidecar.headingSource == "sidecar" && sidecar.headingDegrees == 45)
        #expect(sidecar.captureTimeSource == "sidecar")
        #expect(sidecar.cameraHeightMeters == 2.5)
        #expect(sidecar.sequenceName == "walk" && sidecar.sequenceIndex == 7)
        #expect(sidecar.sidecarPath == panoramas.path + "/capture-7.json")

        let simulated = try catalog.panorama(id: "helsinki/sim_0001")
        #expect(simulated.source == .simulated)
        // No heading in its metadata: it faces the way its sequence goes (sim_0002 lies 10 m west of it).
        #expect(simulated.headingSource == "travel" && abs(simulated.headingDegrees - 270) < 0.5, "\(simulated.headingDegrees)")
        #expect(simulated.captureTimeSource == "file time")
        #expect(simulated.warnings.contains { $0.contains("no heading in the metadata: faces the direction of travel") })
        #expect(report.warnings.contains { $0.path.hasSuffix("sim_0001.jpg") && $0.message.contains("modification time") })
    }

    /// A downscaled export whose GPano still describes the original (as phones' galleries write them) is
    /// scaled to the file; one whose aspect cannot match is refused, naming both sizes.
    @Test func gpanoOfAScaledCopyIsScaledAndAnImpossibleOneRefused() throws {
        let root = try Lookaround.temporaryDirectory()
        var spot = 0.0
        func write(_ name: String, width: Int, height: Int, _ pano: PanoramaMetadata) throws {
            // 5 m apart: captures of one camera at one spot are near-duplicates (CatalogBuilder.nearDuplicateMeters).
            let at = try Fixtures.offset(spot, bearing: 0)
            spot += 5
            let metadata = ImageMetadata(latitudeDegrees: at.latitude, longitudeDegrees: at.longitude, dateTimeOriginal: "2024:05:12 10:15:30",
                                         panorama: pano)
            try Fixtures.write(try Fixtures.jpeg(width: width, height: height, metadata: metadata), root, name)
        }
        // 8704×4352 declared, 64×32 in the file (the Pixel 3 case); a band 15872×2606 at top 2538 of 15872×7936
        // in a 128×21 file (the Pixel 6a case); and 64×40 against a declared 2:1.
        try write("scaled.jpg", width: 64, height: 32, PanoramaMetadata.equirectangular(width: 8704, height: 4352, headingDegrees: 67))
        try write("band.jpg", width: 128, height: 21,
                  PanoramaMetadata(projectionType: "equirectangular", poseHeadingDegrees: 144, fullPanoWidthPixels: 15872,
                                   fullPanoHeightPixels: 7936, croppedAreaImageWidthPixels: 15872, croppedAreaImageHeightPixels: 2606,
                                   croppedAreaLeftPixels: 0, croppedAreaTopPixels: 2538))
        try write("impossible.jpg", width: 64, height: 40, PanoramaMetadata.equirectangular(width: 8704, height: 4352, headingDegrees: 0))
        let path = root.appendingPathComponent("c.sqlite").path
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
        let catalog = try Catalog(path: path)
        let scaled = try catalog.panorama(id: "scaled")
        #expect(scaled.fullWidth == 64 && scaled.fullHeight == 32 && scaled.croppedLeft == 0 && scaled.croppedTop == 0)
        let band = try catalog.panorama(id: "band")
        #expect(band.fullWidth == 128 && band.fullHeight == 64 && band.croppedTop == 20 && band.imageHeight == 21)
        #expect(report.warnings.contains { $0.path.hasSuffix("scaled.jpg") && $0.message.contains("GPano describes a 8704×4352 image but the file is 64×32") })
        let refusal = try #require(report.failures.first { $0.path.hasSuffix("impossible.jpg") })
        #expect(refusal.message.contains("GPano describes a 8704×4352 image but the file is 64×40, of another aspect"), "\(refusal.message)")
    }

    /// Panoramas whose metadata has no heading face the direction of travel in their sequence.
    @Test func aSequenceWithoutHeadingsFacesItsDirectionOfTravel() throws {
        let root = try Lookaround.temporaryDirectory()
        for k in 0..<3 {
            let at = try Fixtures.offset(Double(k) * 4, bearing: 90)   // walking east, 4 m apart, 2 s apart
            try Fixtures.headingless(in: root, name: "R00\(k).JPG", at: at, time: "2024:05:12 10:15:3\(2 * k)")
        }
        let path = root.appendingPathComponent("c.sqlite").path
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
        let catalog = try Catalog(path: path)
        for k in 0..<3 {
            let record = try catalog.panorama(id: "R00\(k)")
            #expect(record.headingSource == "travel" && abs(record.headingDegrees - 90) < 0.1, "R00\(k): \(record.headingDegrees)")
        }
        #expect(report.warnings.count == 3 && report.warnings.allSatisfy { $0.message.contains("faces the direction of travel") },
                "\(report.warnings)")
        // Alone, a panorama without a heading still faces north, with the warning.
        let single = try Lookaround.temporaryDirectory()
        try FileManager.default.copyItem(at: root.appendingPathComponent("R000.JPG"), to: single.appendingPathComponent("R000.JPG"))
        let alone = try CatalogBuilder.build(CatalogBuildOptions(directories: [single.path], catalogPath: single.appendingPathComponent("c.sqlite").path))
        #expect(alone.warnings.first?.message.contains("assumed 0° (north)") == true)
    }

    /// Captures a fraction of a second apart (a camera shooting several frames a second) are ordered by
    /// SubSecTimeOriginal, and OffsetTimeOriginal turns local time into UTC.
    @Test func subSecondsOrderASequenceAndTheOffsetGivesUTC() throws {
        let root = try Lookaround.temporaryDirectory()
        for (name, subSec, k) in [("a", "900", 2), ("b", "100", 0), ("c", "500", 1)] {
            // 2 m apart in 0.4 s, a bicycle's pace: frames closer than CatalogBuilder.nearDuplicateMeters would be left out.
            let at = try Fixtures.offset(2 * Double(k), bearing: 0)
            var metadata = ImageMetadata(latitudeDegrees: at.latitude, longitudeDegrees: at.longitude, imageDirectionDegrees: 0,
                                         dateTimeOriginal: "2024:07:05 12:15:30", make: "GoPro", model: "GoPro Max")
            metadata.subSecTimeOriginal = subSec
            metadata.offsetTimeOriginal = "+02:00"
            try Fixtures.write(try Fixtures.jpeg(metadata: metadata), root, "\(name).jpg")
        }
        let path = root.appendingPathComponent("c.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
        let catalog = try Catalog(path: path)
        let order = try ["a", "b", "c"].map { try catalog.panorama(id: $0) }.sorted { $0.sequenceIndex < $1.sequenceIndex }.map(\.id)
        #expect(order == ["b", "c", "a"])
        #expect(Catalog.iso8601String(try catalog.panorama(id: "b").captureTime).hasPrefix("2024-07-05T10:15:30"))
        #expect(abs(try catalog.panorama(id: "a").captureTime.timeIntervalSince1970 - 1_720_174_530.9) < 1e-3)
    }

    /// One camera's captures in one folder an hour apart are two sequences, and stay two on the next run.
    @Test func aPauseStartsANewSequence() throws {
        let root = try Lookaround.temporaryDirectory()
        let folder = root.appendingPathComponent("walks")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, time, k) in [("a", "10:00:00", 0), ("b", "10:00:02", 1), ("c", "11:00:00", 2), ("d", "11:00:02", 3)] {
            let at = try Fixtures.offset(Double(k) * 3, bearing: 0)
            let metadata = ImageMetadata(latitudeDegrees: at.latitude, longitudeDegrees: at.longitude, imageDirectionDegrees: 0,
                                         dateTimeOriginal: "2024:07:05 \(time)", make: "RICOH", model: "RICOH THETA V")
            try Fixtures.write(try Fixtures.jpeg(metadata: metadata), folder, "\(name).JPG")
        }
        let path = root.appendingPathComponent("c.sqlite").path
        for run in 1...2 {
            let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
            #expect(report.sequenceCount == 2, "run \(run)")
            let catalog = try Catalog(path: path)
            let names = try ["a", "b", "c", "d"].map { try catalog.panorama(id: "walks/\($0)") }.map { "\($0.sequenceName):\($0.sequenceIndex)" }
            let folderName = root.lastPathComponent + "/walks/RICOH THETA V"
            #expect(names == ["\(folderName):0", "\(folderName):1", "\(folderName) #2:0", "\(folderName) #2:1"], "run \(run): \(names)")
        }
    }

    @Test func badFilesAreListedAndTheRestIndexed() throws {
        let set = try Fixtures.standardSet()
        try Fixtures.brokenFiles(in: set.panoramas)
        let path = set.root.appendingPathComponent("c.sqlite").path
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: path))
        #expect(report.panoramaCount == 5)
        let reasons = Dictionary(uniqueKeysWithValues: report.failures.map { (($0.path as NSString).lastPathComponent, $0.message) })
        #expect(reasons.count == 4, "\(reasons)")
        #expect(reasons["notes.jpg"]?.contains("not a readable JPEG") == true)
        #expect(reasons["truncated.jpg"]?.contains("no frame header") == true)
        #expect(reasons["nogps.jpg"]?.contains("no position") == true)
        #expect(reasons["badsidecar.jpg"]?.contains("not valid JSON") == true)
    }

    /// Damage past the headers (a short copy, a stray marker in the scan, a broken depth or label map)
    /// is found at index time, not rendered later as a plausible grey view.
    @Test func damagePastTheHeadersIsListed() throws {
        let root = try Lookaround.temporaryDirectory()
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Panoramas/helsinki")
        let ids = ["senaatintori-004", "senaatintori-005", "senaatintori-006", "senaatintori-007", "senaatintori-008"]
        for id in ids {
            for suffix in [".jpg", ".depth.png", ".labels.png", ".json"] {
                try FileManager.default.copyItem(at: shipped.appendingPathComponent(id + suffix), to: root.appendingPathComponent(id + suffix))
            }
        }
        func damage(_ name: String, _ change: (inout [UInt8]) -> Void) throws {
            let url = root.appendingPathComponent(name)
            var bytes = [UInt8](try Data(contentsOf: url))
            change(&bytes)
            try Data(bytes).write(to: url)
        }
        try damage("senaatintori-004.jpg") { $0.removeLast($0.count / 2) }                   // a short copy
        try damage("senaatintori-005.jpg") { $0.replaceSubrange($0.count / 2..<$0.count / 2 + 6, with: [0xFF, 0xD3, 0x12, 0x34, 0xFF, 0xD5]) }
        try damage("senaatintori-006.depth.png") { $0.removeLast($0.count / 3) }
        try damage("senaatintori-007.labels.png") { $0[$0.count / 2] ^= 0x40 }             // one flipped bit
        let path = root.appendingPathComponent("c.sqlite").path
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
        let reasons = Dictionary(uniqueKeysWithValues: report.failures.map { (($0.path as NSString).lastPathComponent, $0.message) })
        #expect(report.panoramaCount == 1, "only the undamaged one: \(reasons)")
        #expect(reasons["senaatintori-004.jpg"]?.contains("Premature end of JPEG file") == true, "\(reasons)")
        #expect(reasons["senaatintori-005.jpg"]?.contains("damaged image data") == true)
        #expect(reasons["senaatintori-006.jpg"]?.contains("depth map") == true && reasons["senaatintori-006.jpg"]?.contains("truncated") == true)
        #expect(reasons["senaatintori-007.jpg"]?.contains("label map") == true && reasons["senaatintori-007.jpg"]?.contains("CRC mismatch") == true)
    }

    @Test func secondBuildSkipsUnchangedFilesAndRereadsChangedOnes() throws {
        let set = try Fixtures.standardSet()
        let path = set.root.appendingPathComponent("c.sqlite").path
        let options = CatalogBuildOptions(directories: [set.root.path], catalogPath: path)
        let first = try CatalogBuilder.build(options)
        #expect(first.filesRead == 5 && first.filesUnchanged == 0)
        let second = try CatalogBuilder.build(options)
        #expect(second.filesRead == 0 && second.filesUnchanged == 5 && second.panoramaCount == 5)
        #expect(second.linkCount == first.linkCount)
        // A changed file is read again.
        try Fixtures.ricohTheta(in: set.panoramas, at: try Fixtures.offset(12, bearing: 90), direction: 10)
        let third = try CatalogBuilder.build(options)
        #expect(third.filesRead == 1 && third.filesUnchanged == 4)
        #expect(try Catalog(path: path).panorama(id: "helsinki/R0010023").headingDegrees == 10)
    }

    @Test func rebuildReplacesTheFileAtomicallyAndOpenReadersKeepTheOldCatalog() throws {
        let set = try Fixtures.standardSet()
        let path = set.root.appendingPathComponent("c.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: path))
        let old = try Catalog(path: path)
        // Rebuild from an empty folder.
        let empty = set.root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [empty.path], catalogPath: path))
        let coordinate = try GeoCoordinate(latitude: Fixtures.senaatintori.latitude, longitude: Fixtures.senaatintori.longitude)
        #expect(try old.scene(for: SceneRequest(coordinate: coordinate)).found)
        #expect(try old.panorama(id: "helsinki/R0010023").id == "helsinki/R0010023")
        let new = try Catalog(path: path)
        #expect(new.panoramaCount == 0)
        #expect(try new.scene(for: SceneRequest(coordinate: coordinate)).noCoverage?.reason == .catalogEmpty)
        // No temporary files are left beside the catalog.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: set.root.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func missingFolderThrowsAndLeavesTheCatalogAlone() throws {
        let root = try Lookaround.temporaryDirectory()
        let path = root.appendingPathComponent("c.sqlite").path
        #expect(throws: CatalogError.directoryMissing(path: root.path + "/nope")) {
            try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path + "/nope"], catalogPath: path))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFailedBuildChangesNothingOnDisk() throws {
        let set = try Fixtures.standardSet()
        let path = set.root.appendingPathComponent("c.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: path))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let notOSM = set.root.appendingPathComponent("broken.osm").path
        try Data("<html>not osm</html>".utf8).write(to: URL(fileURLWithPath: notOSM))
        #expect {
            try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: path, osmFiles: [notOSM]))
        } throws: { error in
            (error as? any CategorizedError)?.category == .badData && "\(error)".contains(notOSM)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: set.root.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func configurableNamingConvention() throws {
        let root = try Lookaround.temporaryDirectory()
        try Fixtures.ricohTheta(in: root, at: try Fixtures.offset(0, bearing: 0))
        try FileManager.default.moveItem(at: root.appendingPathComponent("R0010023.depth.png"),
                                         to: root.appendingPathComponent("R0010023_depth.png"))
        let path = root.appendingPathComponent("c.sqlite").path
        let naming = CatalogNamingConvention(depthSuffix: "_depth.png")
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path, naming: naming))
        let record = try Catalog(path: path).panorama(id: "R0010023")
        #expect(record.depthPath?.hasSuffix("R0010023_depth.png") == true)
    }

    @Test func linksFollowSequencesAndProximity() throws {
        let root = try Lookaround.temporaryDirectory()
        // Five Theta captures 10 m apart eastwards, one minute apart: one sequence.
        for k in 0..<5 {
            try Fixtures.ricohTheta(in: root, name: "R00100\(10 + k)", at: try Fixtures.offset(Double(k) * 10, bearing: 90),
                                    time: "2024:05:12 10:1\(k):00")
        }
        let path = root.appendingPathComponent("c.sqlite").path
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path,
                                                                  proximityLinkMeters: 25, maximumProximityLinks: 4))
        #expect(report.sequenceCount == 1)
        let catalog = try Catalog(path: path)
        let prefix = ""
        let middle = try catalog.panorama(id: prefix + "R0010012")
        #expect(middle.sequenceIndex == 2)
        let links = try catalog.links(ofPanoramaID: prefix + "R0010012")
        let sequence = links.filter { $0.kind == .sequence }
        #expect(Set(sequence.map(\.panoramaID)) == [prefix + "R0010011", prefix + "R0010013"])
        #expect(Set(links.filter { $0.kind == .proximity }.map(\.panoramaID)) == [prefix + "R0010010", prefix + "R0010014"])
        for link in sequence { #expect(abs(link.distanceMeters - 10) < 0.01) }
        let east = try #require(links.first { $0.panoramaID == prefix + "R0010013" })
        #expect(abs(east.headingDegrees - 90) < 0.01)
    }

    @Test func exifDateTimesAreReadAsUTC() throws {
        let root = try Lookaround.temporaryDirectory()
        try Fixtures.ricohTheta(in: root, at: try Fixtures.offset(0, bearing: 0), time: "2000:02:29 23:59:59")
        let path = root.appendingPathComponent("c.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
        let record = try Catalog(path: path).panorama(id: "R0010023")
        #expect(Catalog.iso8601String(record.captureTime) == "2000-02-29T23:59:59Z")
    }
}
