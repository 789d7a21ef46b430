import Catalog
import Geodesy
import MapData
import Playback
import Imaging
import Reprojection
import Service
import Simulator

/// Maps a library error to an exit code and a message (DESIGN §3).
func describe(_ error: any Error) -> (ExitCode, String) {
    switch error {
    case let error as WriteFailure:
        return (exitCode(for: error), error.description)
    case let error as ImagingError:
        switch error {
        case .io(_, let detail) where detail == "no such file": return (.noInput, error.description)
        case .cannotWrite(let failure): return (exitCode(for: failure), error.description)
        case .invalidSize, .invalidParameter: return (.usage, error.description)
        default: return (.dataError, error.description)
        }
    case let error as GeodesyError:
        // Geodesy errors reaching the top come from values the user gave.
        return (.usage, error.description)
    case let error as CatalogError:
        switch error {
        case .catalogMissing, .directoryMissing: return (.noInput, error.description)
        case .io(_, let detail) where detail.hasPrefix("no such file") || detail.contains("does not exist"):
            return (.noInput, error.description)
        case .invalidParameter: return (.usage, error.description)
        case .unknownPanorama, .placeNotFound: return (.noImagery, error.description)
        case .notACatalog, .schemaTooNew, .corruptIndex, .badBatchLine: return (.dataError, error.description)
        case .cannotWrite(let failure, _): return (exitCode(for: failure), error.description)
        case .unavailable: return (.unavailable, error.description)
        case .sqlite, .io, .postgres: return (.internalError, error.description)
        }
    case let error as MapDataError:
        switch error {
        case .fileNotFound: return (.noInput, error.description)
        default: return (.dataError, error.description)
        }
    case let error as ReprojectionError:
        switch error {
        case .invalidParameter, .exceedsPixelBudget: return (.usage, error.description)
        case .notEquirectangular, .unreadablePanorama: return (.dataError, error.description)
        case .outputSizeMismatch: return (.internalError, error.description)
        case .exceedsMemoryBudget: return (.usage, error.description)
        case .cannotWrite(let failure): return (exitCode(for: failure), error.description)
        }
    case let error as SimulatorError:
        switch error {
        case .invalidParameter, .unknownStreets: return (.usage, error.description)
        case .emptyScene, .noCaptures: return (.dataError, error.description)
        case .output: return (.internalError, error.description)
        case .cannotWrite(let failure): return (exitCode(for: failure), error.description)
        }
    case let error as PlaybackError:
        return (WalkCommand.exitCode(for: error), error.description)
    case let error as ServiceError:
        switch error {
        case .badConfiguration: return (.noInput, error.description)
        case .invalidParameter: return (.usage, error.description)
        default: return (.internalError, error.description)
        }
    default:
        return (.internalError, "\(error)")
    }
}

/// 73 when the output cannot be created (permissions, read-only file system, missing folder), 74 for an
/// I/O error while writing it (disk full, quota, file too large).
func exitCode(for failure: WriteFailure) -> ExitCode { failure.isCannotCreate ? .cannotCreate : .ioError }
