import Diagnostics
import Imaging
import Storage

/// Every error the Video module throws. Each case names the file, what is wrong with it, and what to do.
public enum VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist.
    case fileNotFound(path: String)
    /// The file could not be read (`detail` is the system's reason).
    case unreadable(path: String, detail: String)
    /// The container is not an MP4/QuickTime file, or its boxes are damaged or truncated.
    case badContainer(path: String, detail: String)
    /// The telemetry (GPMF, CAMM, Insta360 trailer, GPX, NMEA) is damaged.
    case badTelemetry(path: String, detail: String)
    /// The file holds no position at all: no GPS in it and no log beside it.
    case noGPS(path: String, detail: String)
    /// The video cannot become panoramas (a flat video, dual fisheye, an unknown layout): `reason` says
    /// why and what would work.
    case notPanoramic(path: String, reason: String)
    /// FFmpeg could not open or decode the video (`detail` is FFmpeg's own words).
    case decodeFailed(path: String, detail: String)
    /// A parameter is outside its range.
    case invalidParameter(name: String, value: String, allowed: String)
    /// A frame or its folder could not be written (the disk full, no permission).
    case cannotWrite(WriteFailure)
    /// A frame could not be written to object storage (`s3://…`: unreachable, refused, with S3's code).
    case storageFailed(StorageError)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "\(path): no such file"
        case .unreadable(let path, let detail):
            return "\(path): cannot be read (\(detail))"
        case .badContainer(let path, let detail):
            return "\(path): not a readable MP4/QuickTime video: \(detail); the file may be incomplete, copy it from the camera again"
        case .badTelemetry(let path, let detail):
            return "\(path): damaged telemetry: \(detail)"
        case .noGPS(let path, let detail):
            return "\(path): no GPS: \(detail)"
        case .notPanoramic(let path, let reason):
            return "\(path): \(reason)"
        case .decodeFailed(let path, let detail):
            return "\(path): cannot be decoded: \(detail)"
        case .invalidParameter(let name, let value, let allowed):
            return "invalid \(name) \(value): allowed \(allowed)"
        case .cannotWrite(let failure):
            return failure.description
        case .storageFailed(let error):
            return error.description
        }
    }
}

extension VideoError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .fileNotFound: .missingInput
        case .unreadable: .io
        case .badContainer, .badTelemetry, .noGPS, .notPanoramic, .decodeFailed: .badData
        case .invalidParameter: .usage
        case .cannotWrite(let failure): failure.category
        case .storageFailed(let error): error.category
        }
    }

    public var invalidValue: InvalidValue? {
        if case .invalidParameter(let name, let value, let allowed) = self {
            return InvalidValue(parameter: name, value: value, allowed: allowed)
        }
        return nil
    }
}
