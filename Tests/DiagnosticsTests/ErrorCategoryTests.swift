import ArgumentParsing
import Catalog
import Diagnostics
import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot
import Playback
import Privacy
import Reprojection
@testable import Service
import Simulator
import Terminal
import Testing

/// The one error classification: every case of every module's error type with its category, the
/// exit code and HTTP status the two tables give it, and the service's answer to it.
@Suite struct ErrorCategoryTests {
    /// The two tables, written out: what DESIGN §3 and the README promise.
    @Test func theTablesFromCategoryToExitCodeAndStatus() {
        let expected: [ErrorCategory: (exit: Int32, status: Int)] = [
            .usage: (64, 400), .badData: (65, 500), .missingInput: (66, 500), .noImagery: (1, 404),
            .unavailable: (69, 503), .cannotCreate: (73, 500), .io: (74, 500), .internalError: (70, 500),
        ]
        #expect(expected.count == ErrorCategory.allCases.count)
        for category in ErrorCategory.allCases {
            #expect(category.exitCode == expected[category]?.exit, "\(category)")
            #expect(category.httpStatus == expected[category]?.status, "\(category)")
        }
    }

    static let coordinate = try! GeoCoordinate(latitude: 60.17, longitude: 24.95)
    static let full = WriteFailure(path: "/out/a.png", code: ENOSPC), denied = WriteFailure(path: "/out/a.png", code: EACCES)

    /// Every case of every error type, with the category it must have.
    static let cases: [(error: any CategorizedError, category: ErrorCategory)] = [
        // Geodesy: values out of range.
        (GeodesyError.latitudeOutOfRange(91), .usage), (GeodesyError.longitudeOutOfRange(.nan), .usage),
        (GeodesyError.notFinite(parameter: "distanceMeters", value: .infinity), .usage),
        (GeodesyError.latitudeDeltaOutOfRange(200), .usage), (GeodesyError.longitudeDeltaOutOfRange(400), .usage),
        (GeodesyError.regionBeyondPole(centerLatitude: 89, latitudeDelta: 10), .usage), (GeodesyError.zoomOutOfRange(31), .usage),
        (GeodesyError.tileOutOfRange(x: 9, y: 0, zoom: 2), .usage), (GeodesyError.invalidQuadkey("14", position: 1), .usage),
        (GeodesyError.ellipsoidOutOfRange(equatorialRadiusMeters: -1, flattening: 0), .usage),
        // Imaging.
        (ImagingError.empty(file: "a.jpg"), .badData), (ImagingError.wrongFormat(file: "a.jpg", expected: "JPEG", found: "PNG"), .badData),
        (ImagingError.corrupt(file: "a.jpg", format: "JPEG", detail: "bad Huffman"), .badData),
        (ImagingError.truncated(file: "a.png", format: "PNG", detail: "IDAT"), .badData),
        (ImagingError.exceedsPixelBudget(file: "a.jpg", width: 100_000, height: 50_000, budget: 1 << 28), .badData),
        (ImagingError.unsupported(file: "a.png", format: "PNG", detail: "interlaced 16-bit"), .badData),
        (ImagingError.invalidSize(text: "0x5", reason: "each side 1…16384"), .usage),
        (ImagingError.invalidParameter(name: "quality", value: "101", allowed: "1…100"), .usage),
        (ImagingError.encodeFailed(format: "WebP", detail: "out of memory"), .internalError),
        (ImagingError.metadata(file: "a.jpg", detail: "bad XMP"), .badData), (ImagingError.font(path: "/f.ttf", detail: "missing"), .missingInput),
        (ImagingError.io(path: "a.gif", detail: "giflib failed"), .io), (ImagingError.fileNotFound(path: "a.jpg"), .missingInput),
        (ImagingError.cannotWrite(full), .io), (ImagingError.cannotWrite(denied), .cannotCreate),
        (full, .io), (denied, .cannotCreate),
        // MapData.
        (MapDataError.fileNotFound(path: "x.pbf"), .missingInput), (MapDataError.unreadable(path: "x.pbf", reason: "a folder"), .missingInput),
        (MapDataError.notOSM(path: "x.pbf", found: "PNG"), .badData), (MapDataError.compressedXML(path: "x.osm.bz2", compression: "bzip2"), .badData),
        (MapDataError.unsupportedSuffix(path: "x.txt", detectedFormat: "PBF"), .badData),
        (MapDataError.unsupportedPBFCompression(path: "x.pbf", compression: "lzma"), .badData),
        (MapDataError.pbfWithoutDenseNodes(path: "x.pbf", wayCount: 3), .badData),
        (MapDataError.pbfBlockTooLarge(path: "x.pbf", offset: 0, what: "blob", claimedBytes: 1 << 40, limitBytes: 1 << 25), .badData),
        (MapDataError.readFailed(path: "x.pbf", code: -1, meaning: "read error"), .io),
        (MapDataError.malformedWorldBasemap(path: "w.bin", detail: "magic"), .badData), (MapDataError.worldBasemapNotFound(searched: ["/a"]), .missingInput),
        // Catalog.
        (CatalogError.catalogMissing(path: "c.sqlite"), .missingInput), (CatalogError.notACatalog(path: "c.sqlite", detail: "no tables"), .badData),
        (CatalogError.schemaTooNew(path: "c.sqlite", found: 9, supported: 3), .badData),
        (CatalogError.sqlite(path: "c.sqlite", operation: "read", code: 1, message: "error"), .internalError),
        (CatalogError.invalidParameter(name: "radiusMeters", value: "-1", allowed: "0…10000"), .usage),
        (CatalogError.directoryMissing(path: "Panoramas"), .missingInput),
        (CatalogError.badBatchLine(line: 3, text: "x", detail: "not a number"), .badData),
        (CatalogError.unknownPanorama(id: "p1"), .noImagery), (CatalogError.placeNotFound(name: "Nowhere"), .noImagery),
        (CatalogError.corruptIndex(path: "c.sqlite", detail: "rows"), .badData), (CatalogError.io(path: "c.sqlite", detail: "a folder"), .io),
        (CatalogError.fileNotFound(path: "b.csv", remedy: "pass a file"), .missingInput),
        (CatalogError.cannotWrite(full, detail: "disk full"), .io), (CatalogError.cannotWrite(denied, detail: "denied"), .cannotCreate),
        (CatalogError.unavailable(location: "postgres://u@h/d", detail: "refused"), .unavailable),
        (CatalogError.postgres(location: "postgres://u@h/d", operation: "query", sqlState: "42P01", message: "no table"), .internalError),
        // Reprojection.
        (ReprojectionError.invalidParameter(name: "pitch", value: "91", allowed: "-90…90"), .usage),
        (ReprojectionError.exceedsPixelBudget(width: 9000, height: 9000, budgetPixels: 1 << 24), .usage),
        (ReprojectionError.notEquirectangular(width: 100, height: 100), .badData),
        (ReprojectionError.unreadablePanorama(file: "a.jpg", reason: "truncated"), .badData),
        (ReprojectionError.outputSizeMismatch(expectedWidth: 1, expectedHeight: 1, actualWidth: 2, actualHeight: 2), .internalError),
        (ReprojectionError.exceedsMemoryBudget(file: "a.jpg", width: 1, height: 1, neededBytes: 2, limitBytes: 1), .usage),
        (ReprojectionError.cannotWrite(full), .io),
        // Simulator.
        (SimulatorError.invalidParameter(name: "samples", value: "0", allowed: "1…64"), .usage),
        (SimulatorError.unknownStreets(requested: ["Nowhere"], available: ["Aleksanterinkatu"]), .usage),
        (SimulatorError.emptyScene(detail: "no buildings"), .badData), (SimulatorError.noCaptures(detail: "no streets"), .badData),
        (SimulatorError.cannotWrite(full), .io), (SimulatorError.cannotWrite(denied), .cannotCreate),
        // MapSnapshot.
        (MapSnapshotError.valueOutOfRange(parameter: "pitch", value: 90, allowed: "0…85"), .usage),
        (MapSnapshotError.invalidSize(width: 0, height: 10, scale: 1), .usage),
        (MapSnapshotError.mapTypeUnavailable(.imagery, reason: "no provider"), .usage),
        (MapSnapshotError.orthophotoFailed(detail: "embree"), .internalError),
        (MapSnapshotError.malformedGeoJSON(file: "a.json", path: "$.features[0]", detail: "no geometry"), .badData),
        (MapSnapshotError.missingInput(file: "a.json", detail: "no such file"), .missingInput),
        (MapSnapshotError.invalidFlight(detail: "same ends"), .usage),
        // Playback.
        (PlaybackError.invalidParameter(name: "speed", value: "0", allowed: "0.1…50"), .usage),
        (PlaybackError.noPath(from: "A", to: "B", lastReachablePanoramaID: "p1", nearestUnreachablePanoramaID: "p2", gapMeters: 50), .noImagery),
        (PlaybackError.noPanoramaNear(what: "A", coordinate: coordinate, radiusMeters: 50, nearestMeters: nil), .noImagery),
        (PlaybackError.unknownSequence(id: "c", known: ["a"]), .noImagery),
        (PlaybackError.malformedWaypoints(file: "w.gpx", location: "line 3", detail: "no lat"), .badData),
        (PlaybackError.missingInput(file: "w.gpx", detail: "no such file"), .missingInput),
        (PlaybackError.cannotWrite(full), .io), (PlaybackError.cannotWrite(denied), .cannotCreate),
        (PlaybackError.outputInTheWay(path: "out/"), .cannotCreate),
        (PlaybackError.toolMissing(tool: "ffmpeg", debianPackage: "ffmpeg", purpose: "MP4"), .unavailable),
        (PlaybackError.encodingFailed(format: "GIF", detail: "giflib"), .internalError), (PlaybackError.cancelled, .internalError),
        // Terminal.
        (TerminalError.unknownProtocol("ascii"), .usage), (TerminalError.notATerminal(fileDescriptor: 1), .unavailable),
        (TerminalError.systemCall("tcsetattr", errno: EIO), .io), (TerminalError.sixel(status: -1, message: "oom"), .internalError),
        (TerminalError.imageTooLarge(width: 99_999, height: 9, limit: "16384 px"), .usage),
        // Privacy.
        (PrivacyError.modelNotInstalled(model: "centerface.onnx", purpose: "face detector", searched: ["/m"]), .unavailable),
        (PrivacyError.modelFailed(model: "centerface.onnx", detail: "parse error"), .unavailable),
        (PrivacyError.unsupportedJPEG(file: "a.jpg", detail: "CMYK"), .badData), (PrivacyError.unreadableImage(file: "a.jpg", detail: "cut"), .badData),
        (PrivacyError.invalidParameter(name: "--add box", value: "9,9,0,0", allowed: "W, H ≥ 1"), .usage),
        (PrivacyError.unknownRegion(file: "a.jpg", id: "x1", known: ["f1"]), .usage),
        (PrivacyError.originalMismatch(file: "a.jpg", original: "b.jpg", detail: "size"), .badData),
        (PrivacyError.originalNotFound(file: "a.jpg", looked: ["o/a.jpg"]), .missingInput),
        (PrivacyError.cannotWrite(full), .io), (PrivacyError.cannotWrite(denied), .cannotCreate),
        // The command line.
        (UsageError(commandPath: "lookaround snapshot", message: "--lat 91 is outside -90…90"), .usage),
    ]

    @Test func everyCaseHasItsCategory() {
        for (error, category) in Self.cases {
            #expect(error.category == category, "\(type(of: error)): \(error)")
        }
        // The types with cases listed: each module's error type.
        let types = Set(Self.cases.map { String(describing: type(of: $0.error)) })
        #expect(types == ["GeodesyError", "ImagingError", "WriteFailure", "MapDataError", "CatalogError", "ReprojectionError", "SimulatorError",
                          "MapSnapshotError", "PlaybackError", "TerminalError", "PrivacyError", "UsageError"])
    }

    /// A refused value names its parameter, the value and the allowed range.
    @Test func usageErrorsNameTheValue() {
        for (error, category) in Self.cases where category == .usage && !(error is UsageError) {
            let value = error.invalidValue
            #expect(value != nil, "\(type(of: error)): \(error) names no value")
            #expect(value.map { !$0.parameter.isEmpty && !$0.allowed.isEmpty } ?? false, "\(error)")
        }
    }

    /// The service answers each library error with its category's status: 400 naming the parameter
    /// (snake_cased) for usage, 404 for no imagery, 503 unavailable, 500 for the rest.
    @Test func theServiceAnswersWithTheCategorysStatus() {
        for (error, category) in Self.cases {
            let answer = QueryParameters.translate(error)
            #expect(answer.httpStatus == category.httpStatus, "\(type(of: error)): \(error) → \(answer)")
            if category == .usage, let value = error.invalidValue {
                #expect(answer.parameter == QueryParameters.snakeCaseName(value.parameter), "\(error) → \(answer)")
            }
        }
        // Geodesy errors keep their parameter's name (they used to become "query").
        #expect(QueryParameters.translate(GeodesyError.latitudeOutOfRange(91)).parameter == "latitude")
    }

    /// A command-line usage error names its option as data (UsageError.option), which the service answers
    /// as the query parameter; a message that merely mentions an option names no parameter (the text is
    /// never parsed for one).
    @Test func usageErrorsNameTheirOptionAsData() {
        let named = QueryParameters.translate(UsageError(commandPath: "lookaround snapshot", message: "--fov-degrees 200 is out of range",
                                                         option: "fov-degrees"))
        #expect(named.parameter == "fov_degrees" && named.description == "fov_degrees 200 is out of range", "\(named)")
        let unnamed = QueryParameters.translate(UsageError(commandPath: "lookaround snapshot", message: "give --lat and --lon"))
        #expect(unnamed.parameter == nil && unnamed.httpStatus == 400, "\(unnamed)")
    }

    /// Every ServiceError's status is its category's (ErrorCategory.httpStatus, the one table) except
    /// where HTTP names the refusal more exactly, and such a refinement never restates the category's.
    @Test func serviceStatusesFollowTheirCategories() {
        let errors: [ServiceError] = [
            .invalidParameter(parameter: "lat", message: "x"), .invalidParameter(parameter: nil, message: "x"), .notFound(path: "/x"),
            .methodNotAllowed(method: "PUT", allowed: ["GET"]), .unknownPanorama(id: "p"), .placeNotFound(name: "n"), .noImagery(detail: "x"),
            .noRoute(reason: "disconnected", detail: "x"), .forbidden, .bodyTooLarge(limitBytes: 1), .batchTooLarge(count: 2, limit: 1),
            .imageTooLarge(pixels: 2, limit: 1), .overloaded(retryAfterSeconds: 1), .unreadableImagery(panoramaID: "p", detail: "x"),
            .catalogFailed(detail: "x"), .catalogUnavailable(detail: "x"), .internalError(detail: "x"), .malformedRequest(detail: "x"),
            .requestTargetTooLong(detail: "x"), .headersTooLarge(detail: "x"), .contentLengthTooLarge(value: "9"), .unexpectedBody(path: "/"),
            .unsupportedTransferCoding(coding: "gzip"), .expectationFailed(expectation: "x"), .httpVersionNotSupported(version: "2"),
            .requestTimeout(seconds: 1), .tooManyConnections(limit: 1), .cannotListen(address: "a", detail: "x"),
            .badConfiguration(file: "k", detail: "x"),
        ]
        let refined: [String: Int] = ["forbidden": 403, "not_found": 404, "method_not_allowed": 405, "request_timeout": 408,
                                      "body_too_large": 413, "unexpected_body": 413, "uri_too_long": 414, "expectation_failed": 417,
                                      "headers_too_large": 431, "unsupported_transfer_coding": 501, "http_version_not_supported": 505]
        for error in errors {
            if let status = error.protocolStatus {
                #expect(status != error.category.httpStatus && refined[error.code] == status, "\(error): \(status) restates or is not HTTP's")
                #expect(error.httpStatus == status)
            } else {
                #expect(error.httpStatus == error.category.httpStatus, "\(error)")
            }
        }
        // The command line's exit codes come from the same categories: a usage mistake 64, no imagery 1.
        #expect(ServiceError.invalidParameter(parameter: "lat", message: "x").category.exitCode == 64)
        #expect(ServiceError.noRoute(reason: "disconnected", detail: "x").category.exitCode == 1)
    }
}
