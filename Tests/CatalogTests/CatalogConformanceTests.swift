import Catalog
import Foundation
import Geodesy
import LookAround
import Testing
import TestSupport

/// The conformance suite: the same panoramas, places and streets indexed into both stores (SQLite and
/// PostGIS) must give the same answers to every scene, search, coverage, link and ingest question:
/// the same panorama, distances within 1 cm, the same no-coverage reason and counts.
///
/// Runs against the PostGIS server of ``PostGISTestServer``; skipped, saying why, only when none can
/// be started.
@Suite(.serialized, .enabled(if: PostGISTestServer.url != nil, "\(PostGISTestServer.unavailableReason ?? "")"))
struct CatalogConformanceTests {
    /// The two stores of the standard fixture set (built with `CatalogBuilder.build`, the ingest path).
    struct Pair: Sendable {
        var sqlite: Catalog
        var postgis: Catalog
        var sqliteReport: IndexReport
        var postgisReport: IndexReport
    }

    static let standard = Result { () throws -> Pair in
        let set = try Fixtures.standardSet()
        let path = set.root.appendingPathComponent("catalog.sqlite").path
        let url = try PostGISTestServer.freshDatabase("standard")
        let sqliteReport = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: path, osmFiles: [set.osm]))
        let postgisReport = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [set.osm]))
        return Pair(sqlite: try Catalog(path: path), postgis: try Catalog(path: url), sqliteReport: sqliteReport,
                    postgisReport: postgisReport)
    }

    /// 4,000 synthetic panoramas in clusters around Helsinki (both sources, dates over ten years, crops,
    /// depth maps, shared positions), a few across the 180th meridian and above 80° N, written to both
    /// stores with `CatalogBuilder.write`.
    static let synthetic = Result { () throws -> (sqlite: Catalog, postgis: Catalog) in
        var generator = SeededGenerator(seed: 16)
        var records: [PanoramaRecord] = []
        func add(_ latitude: Double, _ longitude: Double, _ i: Int) throws {
            let coordinate = try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
            let cropped = Int.random(in: 0..<5, using: &generator) == 0
            records.append(PanoramaRecord(
                id: "synthetic/\(i)", coordinate: coordinate,
                captureTime: Date(timeIntervalSince1970: 1.4e9 + Double(Int.random(in: 0..<3650, using: &generator)) * 86_400),
                headingDegrees: Double.random(in: 0..<360, using: &generator), imageWidth: 64, imageHeight: cropped ? 24 : 32,
                imagePath: "/data/synthetic/\(i).jpg", fullWidth: 64, fullHeight: 32, croppedTop: cropped ? 4 : 0,
                depthPath: Bool.random(using: &generator) ? "/data/synthetic/\(i).depth.png" : nil,
                source: Bool.random(using: &generator) ? .simulated : .photo,
                sequenceName: "walk-\(i / 50)", sequenceIndex: i % 50))
        }
        for i in 0..<3_900 {
            let cluster = i / 300
            try add(60.16 + Double(cluster % 4) * 0.004 + Double.random(in: 0..<0.003, using: &generator),
                    24.93 + Double(cluster / 4) * 0.008 + Double.random(in: 0..<0.006, using: &generator), i)
        }
        for i in 3_900..<3_930 { try add(records[i - 3_900].coordinate.latitude, records[i - 3_900].coordinate.longitude, i) }
        for i in 3_930..<3_960 { try add(-16.5 + Double.random(in: 0..<0.001, using: &generator),
                                         179.9995 + Double.random(in: 0..<0.001, using: &generator), i) }
        for i in 3_960..<4_000 { try add(81.2 + Double.random(in: 0..<0.002, using: &generator),
                                         20 + Double.random(in: 0..<0.01, using: &generator), i) }
        let root = try Lookaround.temporaryDirectory()
        let path = root.appendingPathComponent("synthetic.sqlite").path
        let url = try PostGISTestServer.freshDatabase("synthetic")
        _ = try CatalogBuilder.write(records: records, to: path)
        _ = try CatalogBuilder.write(records: records, to: url)
        return (try Catalog(path: path), try Catalog(path: url))
    }

    /// Both answers name the same panorama with distances and bearings within 1 cm / 0.001°, or the
    /// same no-coverage reason, counts and nearest panorama.
    static func expectSame(_ a: SceneAnswer, _ b: SceneAnswer, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.found == b.found, "\(label): found", sourceLocation: sourceLocation)
        #expect(a.scene?.panoramaID == b.scene?.panoramaID, "\(label): panorama", sourceLocation: sourceLocation)
        if let x = a.scene, let y = b.scene {
            #expect(abs(x.distanceMeters - y.distanceMeters) < 0.01, "\(label): distance", sourceLocation: sourceLocation)
            #expect(x.links == y.links, "\(label): links", sourceLocation: sourceLocation)
            #expect(x.captureTime == y.captureTime && x.headingDegrees == y.headingDegrees && x.sequence == y.sequence
                    && x.sequenceIndex == y.sequenceIndex, "\(label): record", sourceLocation: sourceLocation)
        }
        #expect(a.noCoverage?.reason == b.noCoverage?.reason, "\(label): reason", sourceLocation: sourceLocation)
        #expect(a.noCoverage?.filteredOutCount == b.noCoverage?.filteredOutCount, "\(label): filtered", sourceLocation: sourceLocation)
        #expect(a.noCoverage?.nearestPanoramaID == b.noCoverage?.nearestPanoramaID, "\(label): nearest id", sourceLocation: sourceLocation)
        if let x = a.noCoverage?.nearestDistanceMeters, let y = b.noCoverage?.nearestDistanceMeters {
            #expect(abs(x - y) < 0.01, "\(label): nearest distance", sourceLocation: sourceLocation)
        }
    }

    /// Names and the coverage's box: a panorama by id or file name, a sequence by (part of) its name, the
    /// box around every panorama, the same in both stores; text with LIKE's wildcards is taken literally.
    @Test func namesAndCoverageBoundsAgree() throws {
        let pair = try Self.synthetic.get()
        for catalog in [pair.sqlite, pair.postgis] {
            let bounds = try #require(try catalog.coverageBounds())
            #expect(bounds.panoramaCount == 4_000 && bounds.west < -179 && bounds.east > 179.99 && bounds.north > 81.2 && bounds.south < -16.4,
                    "\(catalog.location): \(bounds)")
        }
        for text in ["synthetic/17", "SYNTHETIC/17", "17", "walk-3", "walk-3%", "walk_3", "alk-7", "_", "%", "nothing"] {
            let a = try pair.sqlite.directAnswers(to: text, limit: 5), b = try pair.postgis.directAnswers(to: text, limit: 5)
            #expect(a.map(\.name) == b.map(\.name) && a.map(\.precision) == b.map(\.precision), "\(text): \(a.map(\.name)) vs \(b.map(\.name))")
            switch text {
            case "synthetic/17", "SYNTHETIC/17", "17": #expect(a.first?.name == "synthetic/17" && a.first?.panoramaID == "synthetic/17", "\(text)")
            case "walk-3": #expect(a.first?.name == "walk-3" && a.first?.precision == .sequence && a.first?.panoramaID == "synthetic/150", "\(a)")
            case "alk-7": #expect(a.first?.precision == .sequence && a.first?.name.hasPrefix("walk-7") == true, "\(a)")
            case "walk-3%", "walk_3", "_", "%", "nothing": #expect(a.isEmpty, "\(text) taken literally: \(a.map(\.name))")
            default: break
            }
        }
    }

    @Test func ingestReportsTheSameCounts() throws {
        let pair = try Self.standard.get()
        for key in [\IndexReport.panoramaCount, \.sequenceCount, \.linkCount, \.placeCount, \.streetCount, \.filesFound] {
            #expect(pair.sqliteReport[keyPath: key] == pair.postgisReport[keyPath: key])
        }
        #expect(pair.postgisReport.failures == pair.sqliteReport.failures)
        #expect(pair.postgis.panoramaCount == 5 && pair.sqlite.panoramaCount == 5)
        #expect(try pair.postgis.placeCount() == pair.sqlite.placeCount())
    }

    @Test func standardScenesAreTheSame() throws {
        let pair = try Self.standard.get()
        let origin = try GeoCoordinate(latitude: Fixtures.senaatintori.latitude, longitude: Fixtures.senaatintori.longitude)
        var requests: [(String, SceneRequest)] = []
        for radius in [0.5, 6, 12, 50, 250] {
            requests.append(("nearest r=\(radius)", SceneRequest(coordinate: origin, radiusMeters: radius)))
            requests.append(("best r=\(radius)", SceneRequest(coordinate: origin, radiusMeters: radius, preference: .best)))
            requests.append(("photo r=\(radius)", SceneRequest(coordinate: origin, radiusMeters: radius, source: .photo)))
            requests.append(("simulated r=\(radius)", SceneRequest(coordinate: origin, radiusMeters: radius, source: .simulated)))
        }
        let after = try #require(SceneRequest.captureDate(parsing: "2024-05-12", endOfDay: false))
        requests.append(("after", SceneRequest(coordinate: origin, radiusMeters: 50, capturedAfter: after)))
        requests.append(("window excluding all", SceneRequest(coordinate: origin, radiusMeters: 50,
                                                              capturedAfter: Date(timeIntervalSince1970: 0),
                                                              capturedBefore: Date(timeIntervalSince1970: 86_400))))
        requests.append(("3 km away", SceneRequest(coordinate: try Fixtures.offset(3_000, bearing: 45), radiusMeters: 50)))
        requests.append(("far away", SceneRequest(coordinate: try GeoCoordinate(latitude: 10, longitude: 10))))
        for (label, request) in requests {
            Self.expectSame(try pair.sqlite.scene(for: request), try pair.postgis.scene(for: request), label)
        }
    }

    @Test func syntheticScenesAreTheSame() throws {
        let (sqlite, postgis) = try Self.synthetic.get()
        var generator = SeededGenerator(seed: 61)
        var checked = 0, found = 0
        for i in 0..<400 {
            let latitude: Double, longitude: Double
            switch i % 10 {
            case 8: (latitude, longitude) = (-16.5 + Double.random(in: -0.001..<0.002, using: &generator),
                                             i % 20 == 8 ? -179.9995 : 179.9999)
            case 9: (latitude, longitude) = (81.2 + Double.random(in: 0..<0.002, using: &generator), 20.005)
            default: (latitude, longitude) = (60.16 + Double.random(in: 0..<0.015, using: &generator),
                                              24.93 + Double.random(in: 0..<0.03, using: &generator))
            }
            let coordinate = try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
            let radius = [5.0, 20, 50, 50, 120][i % 5]
            let preference: ScenePreference = i % 3 == 0 ? .best : .nearest
            let source: SourceFilter = [.any, .any, .simulated, .photo][i % 4]
            let before = i % 7 == 0 ? Date(timeIntervalSince1970: 1.5e9) : nil
            let request = SceneRequest(coordinate: coordinate, radiusMeters: radius, preference: preference, source: source,
                                       capturedBefore: before)
            let a = try sqlite.scene(for: request), b = try postgis.scene(for: request)
            Self.expectSame(a, b, "query \(i) at \(latitude),\(longitude) r=\(radius) \(preference) \(source)")
            checked += 1
            if a.found { found += 1 }
        }
        #expect(checked == 400 && found > 100, "found \(found) of \(checked): the queries should mostly hit")
    }

    /// Where a panorama's maps come from and what aligning it found read back the same from both stores.
    @Test func derivedMapsAndAlignmentAreKept() throws {
        let here = try GeoCoordinate(latitude: 60.1690, longitude: 24.9430)
        let alignment = PanoramaAlignment(metadataHeadingDegrees: 94.5, metadataHeadingSource: "GPSImgDirection",
                                          metadataLatitude: 60.16893, metadataLongitude: 24.94301, headingCorrectionDegrees: -7.45,
                                          positionCorrectionMeters: 4.2, confidence: 0.85, residualDegrees: 0.59, applied: true)
        let records = [
            PanoramaRecord(id: "photo", coordinate: here, captureTime: Date(timeIntervalSince1970: 1.7e9), headingDegrees: 87.05,
                           imageWidth: 64, imageHeight: 32, imagePath: "/data/photo.jpg", headingSource: "aligned",
                           depthPath: "/data/photos.derived/photo.depth.png", labelsPath: "/data/photos.derived/photo.labels.png",
                           mapsSource: .derived, alignment: alignment),
            PanoramaRecord(id: "simulated", coordinate: here, captureTime: Date(timeIntervalSince1970: 1.7e9), headingDegrees: 10,
                           imageWidth: 64, imageHeight: 32, imagePath: "/data/simulated.jpg", depthPath: "/data/simulated.depth.png",
                           source: .simulated),
            PanoramaRecord(id: "bare", coordinate: here, captureTime: Date(timeIntervalSince1970: 1.7e9), headingDegrees: 0,
                           imageWidth: 64, imageHeight: 32, imagePath: "/data/bare.jpg"),
        ]
        let path = try Lookaround.temporaryDirectory().appendingPathComponent("derived.sqlite").path
        let url = try PostGISTestServer.freshDatabase("derived")
        _ = try CatalogBuilder.write(records: records, to: path)
        _ = try CatalogBuilder.write(records: records, to: url)
        for catalog in [try Catalog(path: path), try Catalog(path: url)] {
            let photo = try catalog.panorama(id: "photo")
            #expect(photo.mapsSource == .derived && photo.alignment == alignment && photo.headingSource == "aligned")
            #expect(try catalog.panorama(id: "simulated").mapsSource == .measured)
            #expect(try catalog.panorama(id: "bare").mapsSource == nil && catalog.panorama(id: "bare").alignment == nil)
        }
    }

    @Test func coverageLinksAndDetailsAreTheSame() throws {
        let pair = try Self.standard.get()
        let tile = try SlippyTile(containing: try GeoCoordinate(latitude: Fixtures.senaatintori.latitude,
                                                                longitude: Fixtures.senaatintori.longitude), zoom: 15)
        #expect(try pair.sqlite.coverage(tile: tile) == pair.postgis.coverage(tile: tile))
        #expect(try pair.sqlite.coverage(tile: tile).count == 5)
        let box = (south: 60.1690, north: 60.1720, west: 24.9500, east: 24.9560)
        #expect(try pair.sqlite.coverage(south: box.south, north: box.north, west: box.west, east: box.east)
                == pair.postgis.coverage(south: box.south, north: box.north, west: box.west, east: box.east))
        for entry in try pair.sqlite.coverage(tile: tile) {
            #expect(try pair.sqlite.panorama(id: entry.panoramaID) == pair.postgis.panorama(id: entry.panoramaID))
            #expect(try pair.sqlite.links(ofPanoramaID: entry.panoramaID) == pair.postgis.links(ofPanoramaID: entry.panoramaID))
        }
        #expect(throws: CatalogError.unknownPanorama(id: "nope")) { try pair.postgis.panorama(id: "nope") }
        #expect(try pair.sqlite.sequenceLength(named: "walk") == pair.postgis.sequenceLength(named: "walk"))
        #expect(try pair.postgis.sequenceLength(named: "no such sequence") == nil)
        let a = try pair.sqlite.imagePaths(), b = try pair.postgis.imagePaths()
        #expect(a.map(\.panoramaID) == b.map(\.panoramaID) && a.map(\.imagePath) == b.map(\.imagePath))
        let cropsA = try pair.sqlite.partialPanoramaCrops(), cropsB = try pair.postgis.partialPanoramaCrops()
        #expect(cropsA.keys.sorted() == cropsB.keys.sorted() && cropsA.count == 1)
    }

    @Test func syntheticCoverageIsTheSame() throws {
        let (sqlite, postgis) = try Self.synthetic.get()
        for (south, north, west, east) in [(60.16, 60.17, 24.93, 24.95), (60.155, 60.185, 24.92, 24.99), (-16.6, -16.4, 179.9, 180.0),
                                           (81.0, 81.5, 19.0, 21.0)] {
            let a = try sqlite.coverage(south: south, north: north, west: west, east: east)
            let b = try postgis.coverage(south: south, north: north, west: west, east: east)
            #expect(a == b, "box \(south)…\(north), \(west)…\(east): \(a.count) vs \(b.count)")
        }
        #expect(try sqlite.coverage(south: 60.155, north: 60.185, west: 24.92, east: 24.99).count == 3_930)
    }

    /// STAC's searches (box, time, ids, sequences; pages by row and by sequence position), sequence
    /// pages with their extents, and Panoramax's place search: the same answers from both stores, and
    /// the pages of a search together are the search in one page.
    @Test func stacSearchesAndSequencesAreTheSame() throws {
        let (sqlite, postgis) = try Self.synthetic.get()
        let box = PanoramaSearch.Box(south: 60.16, west: 24.93, north: 60.17, east: 24.95)
        let searches = [
            PanoramaSearch(box: box, limit: 10_000),
            PanoramaSearch(box: box, capturedFrom: Date(timeIntervalSince1970: 1.5e9), capturedTo: Date(timeIntervalSince1970: 1.6e9), limit: 10_000),
            PanoramaSearch(box: PanoramaSearch.Box(south: -16.6, west: 179.9, north: -16.4, east: 180), limit: 10_000),
            PanoramaSearch(ids: ["synthetic/5", "synthetic/3999", "synthetic/3931", "nope"], limit: 10),
            PanoramaSearch(sequences: ["walk-3", "walk-12"], limit: 10_000),
            PanoramaSearch(sequences: ["walk-7"], limit: 10_000, order: .sequenceIndex),
        ]
        for search in searches {
            let whole = try sqlite.searchPanoramas(search)
            #expect(try postgis.searchPanoramas(search).records == whole.records, "\(search)")
            #expect(whole.next == nil && !whole.records.isEmpty, "\(search)")
            for catalog in [sqlite, postgis] {
                var paged: [PanoramaRecord] = [], page = search
                page.limit = 7
                for _ in 0..<1000 {
                    let found = try catalog.searchPanoramas(page)
                    paged += found.records
                    guard let next = found.next else { break }
                    page.after = next
                }
                #expect(paged == whole.records, "\(search): pages of 7")
            }
        }
        let inBox = try sqlite.coverage(south: box.south, north: box.north, west: box.west, east: box.east)
        #expect(Set(try sqlite.searchPanoramas(searches[0]).records.map(\.id)) == Set(inBox.map(\.panoramaID)))
        #expect(try sqlite.searchPanoramas(searches[3]).records.map(\.id) == ["synthetic/5", "synthetic/3931", "synthetic/3999"])
        #expect(try sqlite.searchPanoramas(searches[5]).records.map(\.sequenceIndex) == Array(0..<50))
        #expect(throws: CatalogError.self) { try postgis.searchPanoramas(PanoramaSearch(limit: 0)) }
        var sequencesA: [CatalogSequence] = [], sequencesB: [CatalogSequence] = []
        var afterA: String?, afterB: String?
        for _ in 0..<100 {
            let a = try sqlite.sequences(after: afterA, limit: 7), b = try postgis.sequences(after: afterB, limit: 7)
            sequencesA += a.sequences
            sequencesB += b.sequences
            (afterA, afterB) = (a.next, b.next)
            if afterA == nil || afterB == nil { break }
        }
        #expect(afterA == nil && afterB == nil)
        #expect(sequencesA == sequencesB && sequencesA.count == 80)
        #expect(sequencesA.map(\.name) == sequencesA.map(\.name).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(sequencesA.map(\.panoramaCount).reduce(0, +) == 4_000)
        let walk7 = try #require(try postgis.sequence(named: "walk-7"))
        let members = try sqlite.searchPanoramas(searches[5]).records
        #expect(walk7.south == members.map(\.coordinate.latitude).min() && walk7.east == members.map(\.coordinate.longitude).max())
        #expect(walk7.firstCapture == members.map(\.captureTime).min() && walk7.panoramaCount == 50)
        #expect(try sqlite.sequence(named: "no such sequence") == nil)
        let place = members[10].coordinate
        let lookingA = try sqlite.panoramasLooking(at: place, distanceMeters: 0...60, toleranceDegrees: 40)
        let lookingB = try postgis.panoramasLooking(at: place, distanceMeters: 0...60, toleranceDegrees: 40)
        #expect(lookingA.map(\.record) == lookingB.map(\.record) && !lookingA.isEmpty)
        #expect(lookingA.first?.record.id == members[10].id && (lookingA.first?.distanceMeters ?? 1) < 0.01)
    }

    @Test func placeSearchStreetsAndPlacesNearAreTheSame() throws {
        let pair = try Self.standard.get()
        let near = try GeoCoordinate(latitude: 60.1687, longitude: 24.9416)
        for text in ["Stockmann", "stokman", "Senatstorget", "cafe", "Helsinki Cathedral", "zzzz"] {
            for query in [PlaceSearchQuery(text: text, near: near), PlaceSearchQuery(text: text, language: "sv", limit: 3)] {
                let a = try pair.sqlite.searchPlaces(query), b = try pair.postgis.searchPlaces(query)
                #expect(a == b, "search '\(text)'")
            }
        }
        let origin = try GeoCoordinate(latitude: Fixtures.senaatintori.latitude, longitude: Fixtures.senaatintori.longitude)
        for radius in [5.0, 30, 100, 600, 3000] {
            let streetsA = try pair.sqlite.streets(near: origin, radiusMeters: radius)
            let streetsB = try pair.postgis.streets(near: origin, radiusMeters: radius)
            #expect(streetsA.map(\.street) == streetsB.map(\.street), "streets within \(radius) m")
            #expect(zip(streetsA, streetsB).allSatisfy { abs($0.distanceMeters - $1.distanceMeters) < 0.01 })
            let placesA = try pair.sqlite.places(near: origin, radiusMeters: radius)
            let placesB = try pair.postgis.places(near: origin, radiusMeters: radius)
            #expect(placesA.map(\.place) == placesB.map(\.place), "places within \(radius) m")
        }
        #expect(try pair.postgis.streets(near: origin, radiusMeters: 150).count == 1)
        #expect(throws: CatalogError.invalidParameter(name: "radiusMeters", value: "-1.0", allowed: "0…10000 metres")) {
            try pair.postgis.streets(near: origin, radiusMeters: -1)
        }
    }

    /// The gazetteer (house numbers, localities, every street name) of the shipped extract in both stores:
    /// the same rows, the same forward and reverse answers.
    @Test func geocodingIsTheSame() throws {
        let osm = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
        let root = try Lookaround.temporaryDirectory()
        let empty = root.appendingPathComponent("panoramas").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let path = root.appendingPathComponent("gazetteer.sqlite").path
        let url = try PostGISTestServer.freshDatabase("gazetteer")
        defer { PostGISTestServer.drop(url) }
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [empty], catalogPath: path, osmFiles: [osm]))
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [empty], catalogPath: url, osmFiles: [osm]))
        let sqlite = try Catalog(path: path), postgis = try Catalog(path: url)
        #expect(try sqlite.countryCodes() == ["fi"] && postgis.countryCodes() == ["fi"])
        for text in ["Aleksanterinkatu 52, Helsinki", "Alexandersgatan 52", "Kasarmikatu 47", "00100 Helsinki", "Kluuvi",
                     "Senaatintori", "aleksanterinktu", "Qqqxxzz 5"] {
            for query in [GeocodeQuery(text: text), GeocodeQuery(text: text, language: "sv", limit: 3)] {
                #expect(try sqlite.geocode(query) == postgis.geocode(query), "geocode '\(text)'")
            }
        }
        for (latitude, longitude) in [(60.16845, 24.94205), (60.16935, 24.95234), (60.1600, 24.9600)] {
            let point = try GeoCoordinate(latitude: latitude, longitude: longitude)
            #expect(try sqlite.reverseGeocode(point, language: "sv") == postgis.reverseGeocode(point, language: "sv"))
        }
    }

    /// An index run replaces the catalog in one transaction: an open reader answers from the old one
    /// until it sees the new revision, then from the new one; an incremental run reuses unchanged files.
    @Test func reindexBumpsTheRevisionAndReadersSeeTheNewCatalog() throws {
        let set = try Fixtures.standardSet()
        let url = try PostGISTestServer.freshDatabase("reindex")
        defer { PostGISTestServer.drop(url) }
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [set.osm]))
        let reader = try Catalog(path: url)
        let revision = reader.revision
        #expect(reader.panoramaCount == 5)
        #expect(try reader.checkForNewRevision() == false)
        try Fixtures.bare(in: set.panoramas, name: "sim_0003", at: try Fixtures.offset(1, bearing: 0))
        let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [set.osm]))
        #expect(report.filesUnchanged == 5 && report.filesRead == 1, "incremental: \(report.filesRead) read")
        #expect(reader.panoramaCount == 5, "the reader keeps its count until it polls")
        #expect(try reader.checkForNewRevision() == true)
        #expect(reader.revision == revision + 1 && reader.panoramaCount == 6)
        let origin = try GeoCoordinate(latitude: Fixtures.senaatintori.latitude, longitude: Fixtures.senaatintori.longitude)
        #expect(try reader.scene(for: SceneRequest(coordinate: origin)).scene?.panoramaID == "helsinki/sim_0003")
        #expect(try PostGISTestServer.psql(url, "SELECT version FROM lookaround_schema") == "5")
        #expect(try PostGISTestServer.psql(url, "SELECT count(*) FROM pg_indexes WHERE schemaname = 'public' AND indexdef LIKE '%USING gist%'") == "4")
    }

    /// A catalog of schema version 1 (before the gazetteer and the maps' source) is refused by readers with
    /// what to do, and the next index run migrates it.
    @Test func aVersion1CatalogIsMigratedByTheNextIndexRun() throws {
        let set = try Fixtures.standardSet()
        let url = try PostGISTestServer.freshDatabase("migrate")
        defer { PostGISTestServer.drop(url) }
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [set.osm]))
        _ = try PostGISTestServer.psql(url, "DROP TABLE addresses, localities, locality_names; "
                                       + "ALTER TABLE panoramas DROP COLUMN maps_source, DROP COLUMN alignment; UPDATE lookaround_schema SET version = 1")
        #expect {
            try Catalog(path: url)
        } throws: { error in
            guard case CatalogError.notACatalog(_, let detail) = error else { return false }
            return detail == "schema version 1, written by an older lookaround; this one reads 5"
        }
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [set.osm]))
        #expect(try PostGISTestServer.psql(url, "SELECT version FROM lookaround_schema") == "5")
        #expect(try PostGISTestServer.psql(url, "SELECT count(*) FROM panoramas WHERE maps_source = 'measured'")
                == PostGISTestServer.psql(url, "SELECT count(*) FROM panoramas WHERE depth_path IS NOT NULL OR labels_path IS NOT NULL"))
        #expect(try Catalog(path: url).geocode(GeocodeQuery(text: "Senaatintori")).isEmpty == false)
    }

    /// The routing graph `index` stores: the same bytes in both stores, answering the same routes as the
    /// graph built from the extract; kept while the extract is unchanged, rebuilt when it changes or with
    /// `--full`.
    @Test func theStoredRoutingGraphIsTheSameInBothStores() throws {
        let set = try Fixtures.standardSet()
        let osm = set.root.appendingPathComponent("helsinki-centre.osm.pbf").path
        try FileManager.default.copyItem(atPath: Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path,
                                         toPath: osm)
        let path = set.root.appendingPathComponent("graph.sqlite").path
        let url = try PostGISTestServer.freshDatabase("graph")
        defer { PostGISTestServer.drop(url) }
        func index(_ catalogPath: String, full: Bool = false) throws -> StreetGraphReport? {
            var options = CatalogBuildOptions(directories: [set.root.path], catalogPath: catalogPath, osmFiles: [osm], forceFullRebuild: full)
            options.streetGraphBuilder = StreetGraphBuilder()
            return try CatalogBuilder.build(options).streetGraph
        }
        for location in [path, url] {
            #expect(try index(location)?.reused == false)
            #expect(try index(location)?.reused == true, "\(location): unchanged extract, graph kept")
            #expect(try index(location, full: true)?.reused == false, "\(location): --full builds it again")
        }
        let sqlite = try #require(try Catalog(path: path).streetGraph()), postgis = try #require(try Catalog(path: url).streetGraph())
        #expect(sqlite == postgis)
        #expect(sqlite.formatVersion == RoutingGraph.serializationFormatVersion)
        let fromFile = try RoutingGraph(contentsOfFile: osm)
        for stored in [sqlite, postgis] {
            try StoredGraphRoutes.expectSameRoutes(fromFile, try RoutingGraph(serialized: stored.data))
        }
        // A changed extract (a new modification time) is built again.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: osm)
        for location in [path, url] { #expect(try index(location)?.reused == false, "\(location): changed extract") }
        // Without a graph builder (or OSM files) nothing is stored.
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [osm]))
        #expect(try Catalog(path: url).streetGraph() == nil)
    }

    /// A catalog of schema version 3 (before the routing graph) is refused by readers with what to do,
    /// and the next index run migrates it and stores the graph.
    @Test func aVersion3CatalogIsMigratedAndGetsItsGraph() throws {
        let set = try Fixtures.standardSet()
        let url = try PostGISTestServer.freshDatabase("migrate3")
        defer { PostGISTestServer.drop(url) }
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [set.osm]))
        _ = try PostGISTestServer.psql(url, "DROP TABLE street_graph; UPDATE lookaround_schema SET version = 3")
        #expect(throws: CatalogError.notACatalog(path: CatalogLocation.postgres(url: url).description,
                                                 detail: "schema version 3, written by an older lookaround; this one reads 5")) {
            try Catalog(path: url)
        }
        var options = CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [set.osm])
        options.streetGraphBuilder = StreetGraphBuilder()
        #expect(try CatalogBuilder.build(options).streetGraph?.reused == false)
        #expect(try PostGISTestServer.psql(url, "SELECT version FROM lookaround_schema") == "5")
        let stored = try #require(try Catalog(path: url).streetGraph())
        #expect(try RoutingGraph(serialized: stored.data).edgeCount == RoutingGraph(contentsOfFile: set.osm).edgeCount)
    }

    /// A failed index run (here: a second writer holding the lock) changes nothing.
    @Test func aSecondWriterFailsAndTheCatalogStaysWhole() throws {
        let set = try Fixtures.standardSet()
        let url = try PostGISTestServer.freshDatabase("writers")
        defer { PostGISTestServer.drop(url) }
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [set.osm]))
        // Hold the writer's advisory lock from another session for 3 s while a second index run starts.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        holder.arguments = ["-X", "-q", url, "-c", "BEGIN; SELECT pg_advisory_xact_lock(\(0x4C4B_4152_4F55_4E44)); SELECT pg_sleep(3); COMMIT;"]
        try holder.run()
        defer { holder.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.8)
        try Fixtures.bare(in: set.panoramas, name: "sim_0004", at: try Fixtures.offset(2, bearing: 0))
        do {
            _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: url, osmFiles: [set.osm]))
            Issue.record("a second writer was let in")
        } catch {
            #expect("\(error)".contains("is unavailable") && "\(error)".contains("another 'lookaround index'"), "\(error)")
        }
        #expect(try Catalog(path: url).panoramaCount == 5)
    }
}

/// URLs, masking, and a database that is not there: errors, never a hang.
@Suite struct CatalogLocationTests {
    @Test func urlsAndPathsAreTold() throws {
        #expect(try CatalogLocation(parsing: "Panoramas/catalog.sqlite") == .file(path: "Panoramas/catalog.sqlite"))
        #expect(try CatalogLocation(parsing: "postgres://u@db.example/lookaround").isPostgres)
        #expect(try CatalogLocation(parsing: "postgresql://u@127.0.0.1:5432/lookaround?passfile=/x/pgpass").isPostgres)
        #expect(throws: CatalogError.invalidParameter(
            name: "catalog", value: "postgres://u@host",
            allowed: "a URL naming its database: postgres://USER@HOST[:PORT]/DATABASE")) {
            try CatalogLocation(parsing: "postgres://u@host")
        }
        #expect(throws: CatalogError.invalidParameter(
            name: "catalog", value: "postgis://u@host/db",
            allowed: "a file path, or a URL postgres://USER@HOST[:PORT]/DATABASE (or postgresql://)")) {
            try CatalogLocation(parsing: "postgis://u@host/db")
        }
    }

    @Test func aPasswordInTheURLIsRefusedAndNeverPrinted() throws {
        do {
            _ = try CatalogLocation(parsing: "postgres://lookaround:s3cret@127.0.0.1/lookaround")
            Issue.record("a URL with a password was accepted")
        } catch {
            let text = "\(error)"
            #expect(!text.contains("s3cret"), "\(text)")
            #expect(text.contains("postgres://lookaround:****@127.0.0.1/lookaround") && text.contains("PGPASSFILE"))
        }
        #expect(CatalogLocation.masked("postgresql://a:b@h/d?password=zz&x=1") == "postgresql://a:****@h/d?password=****&x=1")
    }

    @Test func aServerThatIsDownIsUnavailableWithinSeconds() throws {
        let start = Date()
        var message = "opened a catalog on a closed port"
        do { _ = try Catalog(path: "postgresql://lookaround@127.0.0.1:9/lookaround?connect_timeout=2") } catch {
            message = error.description
        }
        #expect(message.hasPrefix("the catalog database postgresql://lookaround@127.0.0.1:9/") && message.contains("is unavailable"),
                "\(message)")
        #expect(Date().timeIntervalSince(start) < 10, "retries are bounded")
    }

    @Test(.enabled(if: PostGISTestServer.url != nil, "\(PostGISTestServer.unavailableReason ?? "")"))
    func anEmptyDatabaseIsNotACatalog() throws {
        let url = try PostGISTestServer.freshDatabase("empty")
        defer { PostGISTestServer.drop(url) }
        #expect { try Catalog(path: url) } throws: { error in
            guard case CatalogError.notACatalog(_, let detail) = error else { return false }
            return detail.contains("lookaround index")
        }
    }
}
