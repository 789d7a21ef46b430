import Foundation

/// A JSON file beside a panorama (`NAME.json`) for cameras that write neither EXIF GPS nor GPano, and
/// for producers that know more than EXIF holds. Keys are snake_case; every field is optional.
///
/// ```json
/// {"latitude": 60.1699, "longitude": 24.9523, "heading_degrees": 90, "capture_time": "2024-05-12T10:15:30Z",
///  "camera_height_meters": 2.5, "ground_elevation_meters": 8.0, "source": "photo",
///  "sequence_id": "walk-1", "sequence_index": 3}
/// ```
///
/// Precedence: values in the JPEG win (EXIF GPS, GPano pose, DateTimeOriginal/GPS time); the sidecar
/// fills what the JPEG lacks. `id`, `source`, `sequence_id`, `sequence_index`, `camera_height_meters`
/// and `ground_elevation_meters` exist only here.
public struct PanoramaSidecar: Sendable, Hashable, Codable {
    /// Panorama id (default: the path-derived id).
    public var id: String?
    /// WGS84 latitude, degrees −90…90.
    public var latitude: Double?
    /// WGS84 longitude, degrees −180…180.
    public var longitude: Double?
    /// Camera altitude above mean sea level, metres.
    public var altitudeMeters: Double?
    /// Ground elevation under the camera, metres above mean sea level.
    public var groundElevationMeters: Double?
    /// Camera height above the ground, metres.
    public var cameraHeightMeters: Double?
    /// Heading of the centre column, degrees clockwise from true north, 0…<360.
    public var headingDegrees: Double?
    /// Pose pitch, degrees −90…90.
    public var pitchDegrees: Double?
    /// Pose roll, degrees −180…180.
    public var rollDegrees: Double?
    /// Capture time, ISO 8601 with a time zone (`2024-05-12T10:15:30Z`, fractions allowed).
    public var captureTime: String?
    /// `simulated` or `photo`.
    public var source: PanoramaSource?
    /// Name of the sequence (capture run) this panorama belongs to.
    public var sequenceId: String?
    /// Position in the sequence, from 0.
    public var sequenceIndex: Int?

    /// A sidecar from its parts (all optional).
    public init(id: String? = nil, latitude: Double? = nil, longitude: Double? = nil, altitudeMeters: Double? = nil,
                groundElevationMeters: Double? = nil, cameraHeightMeters: Double? = nil, headingDegrees: Double? = nil,
                pitchDegrees: Double? = nil, rollDegrees: Double? = nil, captureTime: String? = nil,
                source: PanoramaSource? = nil, sequenceId: String? = nil, sequenceIndex: Int? = nil) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeters = altitudeMeters
        self.groundElevationMeters = groundElevationMeters
        self.cameraHeightMeters = cameraHeightMeters
        self.headingDegrees = headingDegrees
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
        self.captureTime = captureTime
        self.source = source
        self.sequenceId = sequenceId
        self.sequenceIndex = sequenceIndex
    }

    /// Reads a sidecar file.
    /// - Throws: a message naming what is wrong (not JSON, wrong type for a key).
    static func read(_ path: String) throws -> PanoramaSidecar {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(message: "sidecar \(path) cannot be read")
        }
        return try parse([UInt8](data), path: path)
    }

    /// Parses a sidecar's bytes (`path` names it in messages).
    /// - Throws: as ``read(_:)``.
    static func parse(_ bytes: [UInt8], path: String) throws -> PanoramaSidecar {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(PanoramaSidecar.self, from: data)
        } catch DecodingError.dataCorrupted {
            throw Problem(message: "sidecar \(path) is not valid JSON")
        } catch DecodingError.typeMismatch(_, let context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw Problem(message: "sidecar \(path): '\(key)' has the wrong type (\(context.debugDescription))")
        } catch {
            throw Problem(message: "sidecar \(path): \(error)")
        }
    }

    /// A sidecar that could not be read (becomes an ingest failure with this message).
    struct Problem: Error { var message: String }

    /// Parses `captureTime`: `YYYY-MM-DDTHH:MM:SS`, up to 9 digits of fractional seconds, `Z` or `±HH:MM`.
    /// Checked before ICU sees it: ICU's date parser dies of SIGFPE on a long run of fraction digits
    /// (FuzzSidecar, 2026-12-01: `…T09:15:00.2888…850+03:00` with 45 digits killed `index`).
    var parsedCaptureTime: Date? {
        guard let captureTime, Self.isInternetDateTime(captureTime) else { return nil }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: captureTime) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: captureTime)
    }

    /// Whether `text` has the shape of an RFC 3339 date-time with at most 9 fraction digits.
    static func isInternetDateTime(_ text: String) -> Bool {
        text.utf8.count <= 35
            && text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$"#, options: .regularExpression) != nil
    }
}

