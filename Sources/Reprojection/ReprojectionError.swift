import Diagnostics
import Imaging
import Storage

/// Every error the Reprojection module throws. Each case names the bad value, the allowed range and
/// what to do about it.
public enum ReprojectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A camera or renderer parameter is outside its range (`name`, the value given, the allowed range).
    case invalidParameter(name: String, value: String, allowed: String)
    /// The view has more pixels than the configured budget allows.
    case exceedsPixelBudget(width: Int, height: Int, budgetPixels: Int)
    /// The panorama is not a 2:1 equirectangular image (or is too small to sample).
    case notEquirectangular(width: Int, height: Int)
    /// The panorama file could not be read or decoded (`reason` is the Imaging module's message).
    case unreadablePanorama(file: String?, reason: String)
    /// The output image passed in has a different size from the camera's.
    case outputSizeMismatch(expectedWidth: Int, expectedHeight: Int, actualWidth: Int, actualHeight: Int)
    /// Making `file`'s tile file would hold about `neededBytes`, over the `limitBytes` allowed
    /// (`index --tiles --memory-mb`); refused before decoding.
    case exceedsMemoryBudget(file: String, width: Int, height: Int, neededBytes: Int, limitBytes: Int)
    /// A tile file could not be written (the disk full, no permission); the old file, if any, is unchanged.
    case cannotWrite(WriteFailure)
    /// The store holding a panorama or tile file failed: object storage unreachable, refusing the
    /// credentials, an object missing (``StorageError`` says which, with the bucket, key and S3's code).
    case storageFailed(StorageError)

    /// A message naming the value, the allowed range and a remedy.
    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let allowed):
            return "invalid \(name) \(value): allowed \(allowed)"
        case .exceedsPixelBudget(let width, let height, let budget):
            return "view size \(width)x\(height) (\(width * height) pixels) exceeds the pixel budget of \(budget) pixels; "
                + "ask for a smaller size or raise the budget"
        case .notEquirectangular(let width, let height):
            return "panorama \(width)x\(height) is not equirectangular: width must be 2 × height and height ≥ 2; "
                + "crop or pad the image to 2:1 first"
        case .unreadablePanorama(let file, let reason):
            return "cannot read panorama\(file.map { " \($0)" } ?? ""): \(reason)"
        case .outputSizeMismatch(let ew, let eh, let aw, let ah):
            return "output image is \(aw)x\(ah) but the camera renders \(ew)x\(eh); allocate the output with the camera's size"
        case .cannotWrite(let failure):
            return failure.description
        case .storageFailed(let error):
            return error.description
        case .exceedsMemoryBudget(let file, let width, let height, let needed, let limit):
            return "\(file) (\(width)x\(height)) needs about \(needed >> 20) MiB to cut into tiles, over the memory limit of "
                + "\(limit >> 20) MiB; raise --memory-mb to at least \((needed >> 20) + 1)"
        }
    }
}

extension ReprojectionError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .invalidParameter, .exceedsPixelBudget, .exceedsMemoryBudget: .usage
        case .notEquirectangular, .unreadablePanorama: .badData
        case .outputSizeMismatch: .internalError
        case .cannotWrite(let failure): failure.category
        case .storageFailed(let error): error.category
        }
    }

    public var invalidValue: InvalidValue? {
        switch self {
        case .invalidParameter(let name, let value, let allowed): InvalidValue(parameter: name, value: value, allowed: allowed)
        case .exceedsPixelBudget(let width, let height, let budget):
            InvalidValue(parameter: "size", value: "\(width)x\(height)", allowed: "at most \(budget) pixels")
        case .exceedsMemoryBudget(let file, let width, let height, let needed, let limit):
            InvalidValue(parameter: "panorama", value: "\(file) (\(width)x\(height), \(needed) bytes decoded)", allowed: "at most \(limit) bytes")
        default: nil
        }
    }
}
