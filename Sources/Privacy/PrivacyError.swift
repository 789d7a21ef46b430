import Diagnostics
import Imaging

/// Every error the Privacy module throws. Each case names the bad value or file, the allowed range
/// and what to do about it.
public enum PrivacyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A detector's model file is not installed (`model` is its file name, `searched` the places looked in).
    case modelNotInstalled(model: String, purpose: String, searched: [String])
    /// A model file is there but OpenCV cannot load or run it.
    case modelFailed(model: String, detail: String)
    /// A JPEG cannot be blurred block by block (a colour space or layout the block editor does not handle,
    /// or damaged data); nothing was written.
    case unsupportedJPEG(file: String?, detail: String)
    /// The file is not a JPEG or cannot be decoded.
    case unreadableImage(file: String?, detail: String)
    /// A value the user gave is out of range (`name`, the value, the allowed range or form).
    case invalidParameter(name: String, value: String, allowed: String)
    /// `--remove` named a region the file does not record.
    case unknownRegion(file: String, id: String, known: [String])
    /// `--remove` needs the original's blocks and `original` is not that photo's original.
    case originalMismatch(file: String, original: String, detail: String)
    /// `--remove` needs the original's blocks and none was given or found.
    case originalNotFound(file: String, looked: [String])
    /// The output could not be written; nothing was replaced.
    case cannotWrite(WriteFailure)

    /// A message naming the value, the allowed range and a remedy.
    public var description: String {
        switch self {
        case .modelNotInstalled(let model, let purpose, let searched):
            return "the \(purpose) model \(model) is not installed (looked in \(searched.joined(separator: ", "))); "
                + "install it with 'scripts/fetch-models.sh' (make deps runs it; make install and the Debian package carry it), "
                + "or point $LOOKAROUND_MODELS_DIR at a folder that holds it"
        case .modelFailed(let model, let detail):
            return "OpenCV cannot run the model \(model): \(detail); reinstall it with 'scripts/fetch-models.sh --force'"
        case .unsupportedJPEG(let file, let detail):
            return "cannot blur\(file.map { " \($0)" } ?? "") block by block: \(detail); nothing was written"
        case .unreadableImage(let file, let detail):
            return "cannot read\(file.map { " \($0)" } ?? " the image"): \(detail)"
        case .invalidParameter(let name, let value, let allowed):
            return "invalid \(name) \(value): allowed \(allowed)"
        case .unknownRegion(let file, let id, let known):
            return "\(file) records no blurred region '\(id)'" + (known.isEmpty ? " (it records none)" : "; it records \(known.joined(separator: ", "))")
                + " (lookaround blur --json FILE --dry-run lists them)"
        case .originalMismatch(let file, let original, let detail):
            return "\(original) is not the original of \(file): \(detail); give the folder that holds its original (--originals DIR)"
        case .originalNotFound(let file, let looked):
            return "restoring a region of \(file) needs its original, which was not found (looked for \(looked.joined(separator: ", "))); "
                + "give --originals DIR: the folder 'lookaround blur' read it from, or the one --keep-originals wrote it to"
        case .cannotWrite(let failure):
            return failure.description
        }
    }
}

extension PrivacyError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .modelNotInstalled: .unavailable
        case .modelFailed: .unavailable
        case .unsupportedJPEG, .unreadableImage, .originalMismatch: .badData
        case .invalidParameter, .unknownRegion: .usage
        case .originalNotFound: .missingInput
        case .cannotWrite(let failure): failure.category
        }
    }

    public var invalidValue: InvalidValue? {
        switch self {
        case .invalidParameter(let name, let value, let allowed): InvalidValue(parameter: name, value: value, allowed: allowed)
        case .unknownRegion(let file, let id, let known):
            InvalidValue(parameter: "region id", value: "\(id) (of \(file))", allowed: known.isEmpty ? "none: it records no region" : known.joined(separator: ", "))
        default: nil
        }
    }
}
