import Foundation
import Geodesy
import Imaging
import Storage

/// Renders captures and writes their files atomically: the panorama JPEG with EXIF GPS and GPano XMP
/// (as a 360° camera writes them), the 16-bit depth PNG, the 8-bit label PNG and the JSON sidecar.
public struct CaptureWriter: Sendable {
    /// The city to photograph.
    public let model: CityModel
    /// Output folder (must exist), or `s3://BUCKET/PREFIX`.
    public var directory: String
    /// Samples per pixel, seed and exposure; the sun is set per capture from its time and place.
    public var samplesPerPixel: Int
    /// Seed of the sample jitter.
    public var seed: UInt64
    /// JPEG quality (1…100).
    public var jpegQuality: Int
    /// Upper bound on threads (nil = all cores).
    public var maximumThreads: Int?

    /// Camera make and model written into EXIF.
    public static let cameraMake = "lookaround", cameraModel = "simulated 360 camera"

    /// A writer; `jpegQuality` outside 1…100 throws `SimulatorError.invalidParameter`.
    public init(model: CityModel, directory: String, samplesPerPixel: Int = 4, seed: UInt64 = 1, jpegQuality: Int = 85,
                maximumThreads: Int? = nil) throws(SimulatorError) {
        try SimulatorError.check(jpegQuality, in: 1...100, name: "JPEG quality")
        _ = try RenderSettings(samplesPerPixel: samplesPerPixel, sun: SolarPosition(elevationDegrees: 45, azimuthDegrees: 180))
        self.model = model
        self.directory = directory
        self.samplesPerPixel = samplesPerPixel
        self.seed = seed
        self.jpegQuality = jpegQuality
        self.maximumThreads = maximumThreads
    }

    /// Paths of a capture's four files.
    public func paths(for capture: CaptureMetadata) -> [String] { Self.paths(for: capture, in: directory) }

    /// Whether all four files of a capture exist already.
    public func exists(_ capture: CaptureMetadata) -> Bool { Self.exists(capture, in: directory) }

    /// The four files of `capture` in `directory`: JPEG, depth map, label map, sidecar.
    public static func paths(for capture: CaptureMetadata, in directory: String) -> [String] {
        [capture.imageFileName, capture.depthFileName, capture.labelFileName, capture.sidecarFileName]
            .map { StorageLocation.joining(directory, $0) }
    }

    /// Whether all four files of `capture` exist in `directory` (no model needed: a run that resumes
    /// skips a tile whose captures are all there without building it).
    public static func exists(_ capture: CaptureMetadata, in directory: String) -> Bool {
        guard StorageLocation.isObjectStorage(directory) else {
            return paths(for: capture, in: directory).allSatisfy { FileManager.default.fileExists(atPath: $0) }
        }
        return paths(for: capture, in: directory).allSatisfy { (try? ObjectStorage.shared.exists($0)) ?? false }
    }

    /// The EXIF/XMP metadata of a capture's JPEG.
    public static func imageMetadata(for capture: CaptureMetadata) -> ImageMetadata {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return ImageMetadata(latitudeDegrees: capture.latitude, longitudeDegrees: capture.longitude,
                             altitudeMeters: capture.groundElevationMeters + capture.cameraHeightMeters,
                             imageDirectionDegrees: capture.headingDegrees, gpsTimestamp: capture.captureTime,
                             dateTimeOriginal: formatter.string(from: capture.captureTime),
                             make: cameraMake, model: cameraModel, imageWidth: capture.imageWidth, imageHeight: capture.imageHeight,
                             panorama: .equirectangular(width: capture.imageWidth, height: capture.imageHeight,
                                                        headingDegrees: capture.headingDegrees,
                                                        captureSoftware: "lookaround simulate"))
    }

    /// The equirectangular camera of a capture.
    public func camera(for capture: CaptureMetadata, width: Int) throws(SimulatorError) -> EquirectangularCamera {
        try EquirectangularCamera(position: capture.scenePosition, headingDegrees: capture.headingDegrees, width: width)
    }

    /// Renders and writes one capture (every file atomically: a reader never sees half a file; in object
    /// storage each is one `PUT`, which appears whole or not at all). The JPEG is written last.
    public func write(_ capture: CaptureMetadata) throws {
        guard let coordinate = capture.coordinate else {
            throw SimulatorError.invalidParameter(name: "capture coordinate", value: "\(capture.latitude),\(capture.longitude)",
                                                  allowed: "latitude -90…90, longitude -180…180")
        }
        let settings = try RenderSettings(samplesPerPixel: samplesPerPixel, seed: seed,
                                          sun: SolarPosition(date: capture.captureTime, coordinate: coordinate),
                                          maximumThreads: maximumThreads)
        let panorama = model.render(try camera(for: capture, width: capture.imageWidth), settings: settings)
        let jpeg = try JPEGCodec.encode(panorama, quality: jpegQuality, metadata: Self.imageMetadata(for: capture))
        let maps = model.renderDepthAndLabels(try camera(for: capture, width: capture.depthWidth), maximumThreads: maximumThreads)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        let json = Array(try encoder.encode(capture)) + [0x0A]
        let files: [(String, [UInt8])] = [
            (capture.depthFileName, try PNGCodec.encode(maps.depth)),
            (capture.labelFileName, try PNGCodec.encode(maps.labels)),
            (capture.sidecarFileName, json),
            (capture.imageFileName, jpeg),  // last: its presence marks a finished capture
        ]
        for (name, bytes) in files {
            let path = StorageLocation.joining(directory, name)
            guard StorageLocation.isObjectStorage(path) else {
                do { try ImageFile.write(bytes, to: path) } catch { throw SimulatorError.cannotWrite(error) }
                continue
            }
            try ObjectStorage.shared.write(bytes, to: path, contentType: name.hasSuffix(".jpg") ? "image/jpeg"
                                           : name.hasSuffix(".png") ? "image/png" : "application/json")
        }
    }
}
