import Catalog
import Foundation
import Geodesy
import Imaging
import Testing
import TestSupport

/// How `lookaround index` cuts real captures into sequences: one per camera (told apart by serial),
/// without the repeats of a camera standing still, with link directions that do not follow GPS wobble.
@Suite struct CatalogBuilderSequenceTests {
    static let serialA = "C3351324514062", serialB = "C3353424686268"

    /// A GoPro Max capture (GPS, time, compass, serial) at `meters` from Senaatintori towards `bearing`.
    static func goPro(_ folder: URL, _ name: String, serial: String?, meters: Double, bearing: Double, time: String) throws {
        let at = try Fixtures.offset(meters, bearing: bearing)
        let metadata = ImageMetadata(latitudeDegrees: at.latitude, longitudeDegrees: at.longitude, imageDirectionDegrees: bearing,
                                     dateTimeOriginal: "2024:07:05 \(time)", make: "GoPro", model: "GoPro Max", bodySerialNumber: serial)
        try Fixtures.write(try Fixtures.jpeg(metadata: metadata), folder, name)
    }

    /// `id: sequence:index` for each id, as the catalog at `path` has them.
    static func sequences(_ path: String, _ ids: [String]) throws -> [String] {
        let catalog = try Catalog(path: path)
        return try ids.map { id in
            let record = try catalog.panorama(id: id)
            return "\(id): \(record.sequenceName):\(record.sequenceIndex)"
        }
    }

    /// Two riders with a GoPro Max each, shooting at the same time in one folder: two sequences, named by
    /// serial; a third GoPro Max that writes no serial keeps the plain name. The names hold on the next run
    /// (records reused, not read again), and a camera's records already in the catalog under the plain
    /// name join its serial-named sequence when another camera of the model arrives.
    @Test func twoCamerasOfOneModelAreTwoSequences() throws {
        let root = try Lookaround.temporaryDirectory()
        let folder = root.appendingPathComponent("rides")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = root.appendingPathComponent("c.sqlite").path
        let base = root.lastPathComponent + "/rides/GoPro Max"
        // Rider A goes east, one capture every 2 s, 10 m apart.
        for k in 0..<3 { try Self.goPro(folder, "a\(k).jpg", serial: Self.serialA, meters: 10 * Double(k), bearing: 90, time: "10:00:0\(2 * k)") }
        let alone = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
        #expect(alone.sequenceCount == 1)
        #expect(try Self.sequences(path, ["rides/a0", "rides/a2"]) == ["rides/a0: \(base):0", "rides/a2: \(base):2"],
                "one camera of the model: the name without a serial")

        // Rider B goes north at the same time (captures between A's); a third GoPro Max without a serial goes south.
        for k in 0..<3 { try Self.goPro(folder, "b\(k).jpg", serial: Self.serialB, meters: 10 * Double(k) + 5, bearing: 0, time: "10:00:0\(2 * k + 1)") }
        for k in 0..<2 { try Self.goPro(folder, "c\(k).jpg", serial: nil, meters: 10 * Double(k) + 5, bearing: 180, time: "10:00:1\(2 * k)") }
        let ids = ["a0", "a1", "a2", "b0", "b1", "b2", "c0", "c1"].map { "rides/" + $0 }
        let expected = [
            "rides/a0: \(base) (\(Self.serialA)):0", "rides/a1: \(base) (\(Self.serialA)):1", "rides/a2: \(base) (\(Self.serialA)):2",
            "rides/b0: \(base) (\(Self.serialB)):0", "rides/b1: \(base) (\(Self.serialB)):1", "rides/b2: \(base) (\(Self.serialB)):2",
            "rides/c0: \(base):0", "rides/c1: \(base):1",
        ]
        for run in 2...3 {
            let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
            #expect(report.failures.isEmpty, "run \(run): \(report.failures)")
            #expect(report.sequenceCount == 3, "run \(run)")
            #expect(report.filesUnchanged == (run == 2 ? 3 : 8), "run \(run): records reused from the previous catalog")
            #expect(try Self.sequences(path, ids) == expected, "run \(run)")
        }
        // The sequences link each rider's captures, not the other's: A's middle capture links back west and on east.
        let links = try Catalog(path: path).links(ofPanoramaID: "rides/a1").filter { $0.kind == .sequence }
        #expect(links.map(\.panoramaID).sorted() == ["rides/a0", "rides/a2"], "\(links)")
    }

    /// A camera waiting at a traffic light: of four captures within 0.5 m, the first is kept and the three
    /// others are reported, each with the kept one and its distance; a tripod sequence whose sidecars number
    /// their captures (`sequence_index`) keeps all of them, though they stand closer still.
    @Test func aStopKeepsOneCaptureAndReportsTheRest() throws {
        let root = try Lookaround.temporaryDirectory()
        let folder = root.appendingPathComponent("drive")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // (name, metres east, metres north, time): moving, four at the light, moving on.
        let captures: [(String, Double, Double, String)] = [
            ("s0", 0, 0, "08:00:00"), ("s1", 12, 0, "08:00:02"), ("s2", 12.2, 0.1, "08:00:04"), ("s3", 12.1, -0.3, "08:00:06"),
            ("s4", 12.4, 0.2, "08:00:08"), ("s5", 24, 0, "08:00:10"),
        ]
        let origin = try Fixtures.offset(0, bearing: 0)
        func position(east: Double, north: Double) throws -> GeoCoordinate {
            let northward = try Geodesic.wgs84.direct(from: origin, azimuth: Angle(degrees: 0), distanceMeters: north).destination
            return try Geodesic.wgs84.direct(from: northward, azimuth: Angle(degrees: 90), distanceMeters: east).destination
        }
        for (name, east, north, time) in captures {
            let at = try position(east: east, north: north)
            let metadata = ImageMetadata(latitudeDegrees: at.latitude, longitudeDegrees: at.longitude, imageDirectionDegrees: 90,
                                         dateTimeOriginal: "2024:07:05 \(time)", make: "RICOH", model: "RICOH THETA X")
            try Fixtures.write(try Fixtures.jpeg(metadata: metadata), folder, "\(name).jpg")
        }
        // Three tripod captures 0.1 m apart, numbered by their sidecars.
        for k in 0..<3 {
            let at = try position(east: 100 + 0.1 * Double(k), north: 0)
            try Fixtures.write(try Fixtures.jpeg(metadata: nil), folder, "t\(k).jpg")
            let json = """
                {"latitude": \(at.latitude), "longitude": \(at.longitude), "heading_degrees": 90,
                 "capture_time": "2024-07-05T08:01:0\(k)Z", "sequence_id": "tripod", "sequence_index": \(k)}
                """
            try Fixtures.write(Array(json.utf8), folder, "t\(k).json")
        }
        let path = root.appendingPathComponent("c.sqlite").path
        for run in 1...2 {
            let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(report.filesFound == 9 && report.panoramaCount == 6, "run \(run): \(report.panoramaCount)")
            let left = report.nearDuplicates.map { "\(FilePath.name(of: $0.path)) repeats \(FilePath.name(of: $0.keptPath))" }
            #expect(left == ["s2.jpg repeats s1.jpg", "s3.jpg repeats s1.jpg", "s4.jpg repeats s1.jpg"], "run \(run): \(left)")
            // Distances from s1 at (12, 0): (0.2, 0.1), (0.1, −0.3), (0.4, 0.2) m.
            let distances = report.nearDuplicates.map(\.distanceMeters)
            for (distance, expected) in zip(distances, [(0.05).squareRoot(), (0.1).squareRoot(), (0.2).squareRoot()]) {
                #expect(abs(distance - expected) < 0.005, "run \(run): \(distance) m, expected \(expected) m")
            }
            #expect(report.nearDuplicates.allSatisfy { $0.sequenceName == root.lastPathComponent + "/drive/RICOH THETA X" })
            // Run 2 reads the three again (they are not in the catalog) and leaves them out again.
            #expect(report.filesRead == (run == 1 ? 9 : 3), "run \(run)")
            #expect(try Self.sequences(path, ["drive/s0", "drive/s1", "drive/s5"]).map { $0.components(separatedBy: ":").last }
                    == ["0", "1", "2"], "the kept captures are numbered without gaps")
            let catalog = try Catalog(path: path)
            #expect(throws: CatalogError.unknownPanorama(id: "drive/s3")) { try catalog.panorama(id: "drive/s3") }
            #expect(try (0..<3).map { try catalog.panorama(id: "drive/t\($0)").sequenceIndex } == [0, 1, 2], "sidecar-numbered: all kept")
        }
    }

    /// GPS wobble: captures 12 m apart going east, alternately 3 m north and 3 m south of the street. The
    /// raw bearings between them swing ±26.6° about east; the sequence links (taken between positions
    /// smoothed along the sequence) stay within 5° of it, and so does the heading of a camera without a
    /// compass. The stored coordinates keep the wobble.
    @Test func aZigzagSequenceLinksAlongTheStreet() throws {
        let root = try Lookaround.temporaryDirectory()
        let origin = try Fixtures.offset(0, bearing: 0)
        var written: [GeoCoordinate] = []
        for k in 0..<8 {
            let alongStreet = try Geodesic.wgs84.direct(from: origin, azimuth: Angle(degrees: 90), distanceMeters: 12 * Double(k)).destination
            let side = k % 2 == 0 ? 0.0 : 180.0
            let at = try Geodesic.wgs84.direct(from: alongStreet, azimuth: Angle(degrees: side), distanceMeters: 3).destination
            written.append(at)
            try Fixtures.headingless(in: root, name: "z\(k).jpg", at: at, time: "2024:07:05 09:00:\(10 + 2 * k)")
        }
        let path = root.appendingPathComponent("c.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path, proximityLinkMeters: 0))
        let catalog = try Catalog(path: path)
        var rawDeviation = 0.0, linkDeviation = 0.0, travelDeviation = 0.0
        for k in 0..<8 {
            let record = try catalog.panorama(id: "z\(k)")
            #expect(abs(record.coordinate.latitude - written[k].latitude) < 1e-7 && abs(record.coordinate.longitude - written[k].longitude) < 1e-7,
                    "z\(k): stored where the file says")
            #expect(record.headingSource == "travel")
            travelDeviation = max(travelDeviation, abs(record.headingDegrees - 90))
            for link in try catalog.links(ofPanoramaID: "z\(k)") where link.kind == .sequence {
                let other = try catalog.panorama(id: link.panoramaID).coordinate
                let raw = Geodesic.wgs84.inverse(from: record.coordinate, to: other).initialAzimuth.degrees
                let forward = link.panoramaID > "z\(k)"
                let street = forward ? 90.0 : 270.0
                rawDeviation = max(rawDeviation, abs(raw - street))
                linkDeviation = max(linkDeviation, abs(link.headingDegrees - street))
                #expect(abs(link.distanceMeters - Geodesic.wgs84.inverse(from: record.coordinate, to: other).distanceMeters) < 1e-6,
                        "distances stay the raw ones")
            }
        }
        #expect(rawDeviation > 26 && rawDeviation < 27, "raw bearings swing ±26.6°: \(rawDeviation)°")
        #expect(linkDeviation < 5, "smoothed link headings: within \(linkDeviation)° of the street")
        #expect(travelDeviation < 5, "travel headings: within \(travelDeviation)° of east")
    }

    /// Smoothing bends nothing straight: the shipped simulated sequences keep their link headings (a
    /// simulated panorama stands exactly where the simulator put it), and the same panoramas taken as
    /// photos (smoothed) keep theirs within 0.01° along senaatintori (a straight sequence) and wherever four
    /// consecutive captures lie on one line (turning by under 0.01°), however they are spaced.
    @Test func straightSequencesKeepTheirLinkHeadings() throws {
        let shipped = Lookaround.repository.appendingPathComponent("Panoramas/helsinki")
        let root = try Lookaround.temporaryDirectory()
        let path = root.appendingPathComponent("shipped.sqlite").path
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [shipped.path], catalogPath: path, proximityLinkMeters: 0))
        #expect(report.failures.isEmpty && report.nearDuplicates.isEmpty, "\(report.failures) \(report.nearDuplicates)")
        let catalog = try Catalog(path: path)
        let records = try catalog.imagePaths().map { try catalog.panorama(id: $0.panoramaID) }
        #expect(records.count == 189)
        func bearing(_ a: PanoramaRecord, _ b: PanoramaRecord) -> Double {
            Geodesic.wgs84.inverse(from: a.coordinate, to: b.coordinate).initialAzimuth.degrees
        }
        func difference(_ a: Double, _ b: Double) -> Double { abs(GeoCoordinate.normalizedLongitude(a - b)) }
        var largest = 0.0, links = 0
        for record in records {
            for link in try catalog.links(ofPanoramaID: record.id) where link.kind == .sequence {
                largest = max(largest, difference(link.headingDegrees, bearing(record, try catalog.panorama(id: link.panoramaID))))
                links += 1
            }
        }
        #expect(links == 2 * (189 - 5), "every sequence link, both ways (5 sequences)")
        #expect(largest < 0.01, "simulated: \(largest)°")

        // The same panoramas as photos: smoothed. Straight stretches keep their headings; bends are rounded.
        let photos = records.map { record -> PanoramaRecord in
            var photo = record
            photo.source = .photo
            return photo
        }
        let photoPath = root.appendingPathComponent("photos.sqlite").path
        _ = try CatalogBuilder.write(records: photos, to: photoPath, proximityLinkMeters: 0)
        let smoothed = try Catalog(path: photoPath)
        var straight = 0, largestOnStraight = 0.0, largestAtBends = 0.0
        for sequence in Dictionary(grouping: photos, by: \.sequenceName).values {
            let ordered = sequence.sorted { $0.sequenceIndex < $1.sequenceIndex }
            for k in 0..<(ordered.count - 1) {
                let link = try #require(try smoothed.links(ofPanoramaID: ordered[k].id).first { $0.panoramaID == ordered[k + 1].id })
                let back = try #require(try smoothed.links(ofPanoramaID: ordered[k + 1].id).first { $0.panoramaID == ordered[k].id })
                let change = max(difference(link.headingDegrees, bearing(ordered[k], ordered[k + 1])),
                                 difference(back.headingDegrees, bearing(ordered[k + 1], ordered[k])))
                if ordered[k].sequenceName == "senaatintori" {
                    #expect(change < 0.01, "senaatintori, a straight sequence: \(ordered[k].id) → \(ordered[k + 1].id) turned \(change)°")
                }
                // The link k → k+1 depends on captures k−1…k+2 (those that exist): straight when they turn by under 0.01°.
                let around = Array(ordered[max(0, k - 1)...min(ordered.count - 1, k + 2)])
                let steps = zip(around, around.dropFirst()).map { bearing($0, $1) }
                if steps.allSatisfy({ difference($0, steps[0]) < 0.01 }) {
                    straight += 1
                    largestOnStraight = max(largestOnStraight, change)
                } else {
                    largestAtBends = max(largestAtBends, change)
                }
            }
        }
        print("shipped sequences smoothed as photos: \(straight) links on straight stretches, largest change "
              + String(format: "%.4f°; next to bends up to %.1f°", largestOnStraight, largestAtBends))
        #expect(straight >= 19, "links on straight stretches: \(straight)")
        #expect(largestOnStraight < 0.01, "straight: \(largestOnStraight)°")
    }
}

/// Near-duplicates by distance and angle (mapillary_tools' rule, 0.5 m and 5° by default), and headings
/// checked against the way a sequence goes.
@Suite struct NearDuplicateAndHeadingTests {
    /// A capture `meters` east of Senaatintori facing `heading`, at `time` (whole seconds: a 0.5 s
    /// timelapse writes the same second twice; the file names keep the order).
    static func capture(_ folder: URL, _ name: String, meters: Double, heading: Double?, time: String, bearing: Double = 90) throws {
        let at = try Fixtures.offset(meters, bearing: bearing)
        let metadata = ImageMetadata(latitudeDegrees: at.latitude, longitudeDegrees: at.longitude, imageDirectionDegrees: heading,
                                     dateTimeOriginal: "2024:07:05 \(time)", make: "GoPro", model: "GoPro Max")
        try Fixtures.write(try Fixtures.jpeg(metadata: metadata), folder, name)
    }

    /// A walking timelapse, a frame every 0.5 s, 0.55–0.65 m apart: every frame kept (the old 1 m rule left
    /// out every other one). Then a stop: three frames within 0.3 m facing the same way collapse into the
    /// first; a fourth turned 30° on the spot is a new view and kept.
    @Test func aWalkingTimelapseKeepsEveryFrameAndAStopCollapses() throws {
        let root = try Lookaround.temporaryDirectory()
        let folder = root.appendingPathComponent("timelapse")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let steps = [0, 0.55, 1.15, 1.7, 2.35, 2.9, 3.5, 4.1, 4.75, 5.3]
        for (k, meters) in steps.enumerated() {
            try Self.capture(folder, String(format: "f%02d.jpg", k), meters: meters, heading: 90, time: "10:00:\(String(format: "%02d", k / 2))")
        }
        // The stop, at 5.3 m: 0.1, 0.2 and 0.3 m on, facing east; then turned to 120°.
        for (k, meters) in [5.4, 5.5, 5.6].enumerated() {
            try Self.capture(folder, "g\(k).jpg", meters: meters, heading: 90.5, time: "10:00:1\(k)")
        }
        try Self.capture(folder, "g3.jpg", meters: 5.55, heading: 120, time: "10:00:15")
        let path = root.appendingPathComponent("c.sqlite").path
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
        #expect(report.failures.isEmpty, "\(report.failures)")
        let left = report.nearDuplicates.map { FilePath.name(of: $0.path) }
        #expect(left == ["g0.jpg", "g1.jpg", "g2.jpg"], "\(left)")
        #expect(report.nearDuplicates.allSatisfy { abs(($0.headingDifferenceDegrees ?? 99) - 0.5) < 1e-9 })
        #expect(report.panoramaCount == 11, "ten timelapse frames and the turned one")
        let catalog = try Catalog(path: path)
        for k in 0..<10 { #expect(try catalog.panorama(id: String(format: "timelapse/f%02d", k)).sequenceIndex == k) }
        #expect(try catalog.panorama(id: "timelapse/g3").sequenceIndex == 10)

        // Configurable: at the old 1 m, every other timelapse frame goes.
        var strict = CatalogBuildOptions(directories: [root.path], catalogPath: root.appendingPathComponent("strict.sqlite").path)
        strict.nearDuplicateMeters = 1
        strict.nearDuplicateDegrees = 180
        let old = try CatalogBuilder.build(strict)
        #expect(old.panoramaCount == 5, "\(old.nearDuplicates.map { FilePath.name(of: $0.path) })")
    }

    /// A walk east whose compass says west: reported with both directions; `.travel` faces it east. The
    /// same photos minutes apart (a THETA user's) give no direction of travel: nothing to compare.
    @Test func headingsAgainstTheWayTheSequenceGoes() throws {
        let root = try Lookaround.temporaryDirectory()
        let walk = root.appendingPathComponent("walk"), slow = root.appendingPathComponent("slow")
        for folder in [walk, slow] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for k in 0..<5 {
            try Self.capture(walk, "w\(k).jpg", meters: 3 * Double(k), heading: 272 + Double(k), time: "10:00:0\(2 * k)")
            try Self.capture(slow, "s\(k).jpg", meters: 3 * Double(k), heading: 272, time: "10:0\(2 * k):00")
        }
        let path = root.appendingPathComponent("c.sqlite").path
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [root.path], catalogPath: path))
        let found = try #require(report.headingDisagreements.first, "\(report.headingDisagreements)")
        #expect(report.headingDisagreements.count == 1 && found.sequenceName.hasSuffix("walk/GoPro Max"))
        #expect(found.metadataSource == "GPSImgDirection" && abs(found.metadataDegrees - 274) < 0.5 && abs(found.travelDegrees - 90) < 1,
                "\(found)")
        #expect(found.disagreeing == 5 && found.compared == 5 && found.used == .metadata)
        #expect(found.message.contains("mounted backwards") && found.message.contains("--heading-from travel"), "\(found.message)")
        #expect(try Catalog(path: path).panorama(id: "walk/w2").headingSource == "GPSImgDirection")

        var options = CatalogBuildOptions(directories: [root.path], catalogPath: path)
        options.headingFrom = .travel
        let faced = try CatalogBuilder.build(options)
        #expect(faced.headingDisagreements.first?.used == .travel)
        let catalog = try Catalog(path: path)
        for k in 0..<5 {
            let record = try catalog.panorama(id: "walk/w\(k)")
            #expect(record.headingSource == "travel" && abs(record.headingDegrees - 90) < 1, "w\(k): \(record.headingDegrees)")
            #expect(record.warnings.contains { $0.hasPrefix("GPSImgDirection \(272 + k).0° replaced by the direction of travel") }, "\(record.warnings)")
            // Minutes apart: no travel, the compass kept.
            #expect(try catalog.panorama(id: "slow/s\(k)").headingSource == "GPSImgDirection")
        }
    }
}
