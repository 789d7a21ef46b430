import Diagnostics
import Foundation

/// Every error the `MapSnapshot` module throws.
///
/// Each case carries the offending value; ``description`` names it, the allowed range or form, and a
/// remedy. Its ``category`` decides the CLI's exit code and the service's status.
public enum MapSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A number that must be finite and inside a range was not. `parameter` names it with its unit.
    case valueOutOfRange(parameter: String, value: Double, allowed: String)
    /// An image size outside 1…``MapSnapshotOptions/maximumSidePoints`` points per side, or too many pixels.
    case invalidSize(width: Int, height: Int, scale: Double)
    /// A map type that needs something this build or call does not have (imagery without a provider).
    case mapTypeUnavailable(MapType, reason: String)
    /// The orthophoto provider failed or returned an image of the wrong size.
    case orthophotoFailed(detail: String)
    /// A GeoJSON file (or text) that is not what the reader accepts. `path` is the JSON path of the bad
    /// value, e.g. `features[2].geometry.coordinates[0]`.
    case malformedGeoJSON(file: String, path: String, detail: String)
    /// An input file that does not exist or cannot be read.
    case missingInput(file: String, detail: String)
    /// Flight parameters that cannot make a flight (fewer than 2 frames, too many).
    case invalidFlight(detail: String)

    /// A one-line message naming the value, the allowed range and what to do.
    public var description: String {
        switch self {
        case .valueOutOfRange(let parameter, let value, let allowed):
            return "\(parameter) \(value) is out of range; allowed \(allowed); pass a finite value in that range"
        case .invalidSize(let width, let height, let scale):
            return "map size \(width)x\(height) points at scale \(scale) is not allowed; each side must be "
                + "1…\(MapSnapshotOptions.maximumSidePoints) points, the scale 1…4, and the image at most "
                + "\(MapSnapshotOptions.maximumPixelCount) pixels; pick a smaller size or scale"
        case .mapTypeUnavailable(let type, let reason):
            return "map type '\(type.rawValue)' is not available: \(reason); use --type standard or muted"
        case .orthophotoFailed(let detail):
            return "the orthophoto for the imagery map could not be rendered: \(detail)"
        case .malformedGeoJSON(let file, let path, let detail):
            return "\(file): GeoJSON at \(path.isEmpty ? "the top level" : path): \(detail)"
        case .missingInput(let file, let detail):
            return "\(file): \(detail)"
        case .invalidFlight(let detail):
            return "camera flight: \(detail)"
        }
    }

    /// Throws ``valueOutOfRange(parameter:value:allowed:)`` unless `value` is finite and in `range`.
    static func check(_ value: Double, _ parameter: String, in range: ClosedRange<Double>, allowed: String? = nil) throws(MapSnapshotError) {
        guard value.isFinite, range.contains(value) else {
            throw .valueOutOfRange(parameter: parameter, value: value,
                                   allowed: allowed ?? "\(range.lowerBound)…\(range.upperBound)")
        }
    }
}

extension MapSnapshotError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .valueOutOfRange, .invalidSize, .mapTypeUnavailable, .invalidFlight: .usage
        case .malformedGeoJSON: .badData
        case .missingInput: .missingInput
        case .orthophotoFailed: .internalError
        }
    }

    public var invalidValue: InvalidValue? {
        switch self {
        case .valueOutOfRange(let parameter, let value, let allowed): InvalidValue(parameter: parameter, value: "\(value)", allowed: allowed)
        case .mapTypeUnavailable(let type, let reason): InvalidValue(parameter: "type", value: type.rawValue, allowed: reason)
        case .invalidFlight(let detail): InvalidValue(parameter: "flight", value: "the camera flight", allowed: detail)
        case .invalidSize(let width, let height, let scale):
            InvalidValue(parameter: "size", value: "\(width)x\(height) at scale \(scale)", allowed: "1…\(MapSnapshotOptions.maximumSidePoints) points per side")
        default: nil
        }
    }
}
