import Diagnostics

/// Every error the Imaging module throws. Each case carries what a message needs: the file (when
/// there is one), the bad value, the allowed range or form.
public enum ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data is empty (a zero-byte file).
    case empty(file: String?)
    /// The data is not in the format the decoder reads (wrong magic bytes).
    case wrongFormat(file: String?, expected: String, found: String)
    /// The data is in the right format but damaged; `detail` is the codec's own words.
    case corrupt(file: String?, format: String, detail: String)
    /// The data ends before the image does. `partial` is true when a decoder could still return pixels.
    case truncated(file: String?, format: String, detail: String)
    /// The image declares more pixels than the budget allows; nothing was allocated.
    case exceedsPixelBudget(file: String?, width: Int, height: Int, budget: Int)
    /// The image has a layout this code does not read (for example 12-bit JPEG, CMYK).
    case unsupported(file: String?, format: String, detail: String)
    /// A size given by a user is not valid.
    case invalidSize(text: String, reason: String)
    /// A parameter is out of its range.
    case invalidParameter(name: String, value: String, allowed: String)
    /// Encoding failed (the codec's own words).
    case encodeFailed(format: String, detail: String)
    /// Metadata (EXIF, XMP) could not be read or written.
    case metadata(file: String?, detail: String)
    /// A font file is missing or unreadable.
    case font(path: String, detail: String)
    /// Reading or writing a file failed.
    case io(path: String, detail: String)
    /// The file does not exist.
    case fileNotFound(path: String)
    /// A file could not be written, with the system's reason (the disk full, no permission).
    case cannotWrite(WriteFailure)

    public var description: String {
        func where_(_ file: String?) -> String { file.map { "\($0): " } ?? "" }
        switch self {
        case .empty(let file):
            return "\(where_(file))the file is empty (0 bytes); expected an image"
        case .wrongFormat(let file, let expected, let found):
            return "\(where_(file))not a \(expected) file (it starts with \(found))"
        case .corrupt(let file, let format, let detail):
            return "\(where_(file))corrupt \(format) data: \(detail)"
        case .truncated(let file, let format, let detail):
            return "\(where_(file))truncated \(format) data: \(detail); the file may be incomplete, copy it again"
        case .exceedsPixelBudget(let file, let width, let height, let budget):
            return "\(where_(file))image is \(width)×\(height) = \(width * height) pixels, over the budget of "
                + "\(budget) pixels; raise the pixel budget or use a smaller image"
        case .unsupported(let file, let format, let detail):
            return "\(where_(file))unsupported \(format): \(detail)"
        case .invalidSize(let text, let reason):
            return "invalid size '\(text)': \(reason)"
        case .invalidParameter(let name, let value, let allowed):
            return "invalid \(name) \(value): allowed \(allowed)"
        case .encodeFailed(let format, let detail):
            return "\(format) encoding failed: \(detail)"
        case .metadata(let file, let detail):
            return "\(where_(file))metadata: \(detail)"
        case .font(let path, let detail):
            return "font \(path): \(detail)"
        case .io(let path, let detail):
            return "\(path): \(detail)"
        case .fileNotFound(let path):
            return "\(path): no such file"
        case .cannotWrite(let failure):
            return failure.description
        }
    }
}

/// The most pixels a decoder will allocate for one image unless told otherwise:
/// 2^28 = 268,435,456 (a 23,170 × 11,585 panorama; 1 GiB as RGBA8).
public let defaultPixelBudget = 1 << 28

extension ImagingError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .empty, .wrongFormat, .corrupt, .truncated, .exceedsPixelBudget, .unsupported, .metadata: .badData
        case .invalidSize, .invalidParameter: .usage
        case .encodeFailed: .internalError
        case .font, .fileNotFound: .missingInput
        case .io: .io
        case .cannotWrite(let failure): failure.category
        }
    }

    public var invalidValue: InvalidValue? {
        switch self {
        case .invalidParameter(let name, let value, let allowed): InvalidValue(parameter: name, value: value, allowed: allowed)
        case .invalidSize(let text, let reason): InvalidValue(parameter: "size", value: text, allowed: reason)
        default: nil
        }
    }
}
