import Diagnostics
/// What can go wrong in the Terminal module; each case names the bad value and a remedy.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// A `--protocol` value that is not one of the known names.
    case unknownProtocol(String)
    /// The file descriptor is not a terminal (standard output redirected, for instance).
    case notATerminal(fileDescriptor: Int32)
    /// A system call failed: the call and errno's message.
    case systemCall(String, errno: Int32)
    /// libsixel refused: its status code and message.
    case sixel(status: Int32, message: String)
    /// An image too large for the chosen protocol or terminal.
    case imageTooLarge(width: Int, height: Int, limit: String)

    public var description: String {
        switch self {
        case .unknownProtocol(let value):
            return "unknown terminal protocol '\(value)'; use one of \(OutputProtocolChoice.allCases.map(\.rawValue).joined(separator: ", "))"
        case .notATerminal(let fd):
            return "file descriptor \(fd) is not a terminal; run in a terminal, or use `lookaround snapshot` to write an image file"
        case .systemCall(let call, let code):
            return "\(call) failed: \(String(cString: strerror(code))) (errno \(code)); if the terminal was closed or detached, "
                + "run again in a terminal (or use `lookaround snapshot` for an image file)"
        case .sixel(let status, let message):
            return "libsixel failed with status \(status): \(message); try --protocol truecolor (24-bit half-blocks) instead"
        case .imageTooLarge(let width, let height, let limit):
            return "a \(width)×\(height) image is too large: \(limit); make the window smaller or pass --protocol truecolor"
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension TerminalError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .unknownProtocol, .imageTooLarge: .usage
        case .notATerminal: .unavailable
        case .systemCall: .io
        case .sixel: .internalError
        }
    }

    public var invalidValue: InvalidValue? {
        switch self {
        case .unknownProtocol(let name):
            InvalidValue(parameter: "--protocol", value: name, allowed: OutputProtocolChoice.allCases.map(\.rawValue).joined(separator: ", "))
        case .imageTooLarge(let width, let height, let limit): InvalidValue(parameter: "image", value: "\(width)x\(height)", allowed: limit)
        default: nil
        }
    }
}
