/// What kind of failure an error is: the one classification behind every exit code of the command
/// line and every HTTP status the service answers a library error with (DESIGN §3). Each module's
/// error type says its cases' categories (``CategorizedError``); ``exitCode`` and ``httpStatus`` are
/// the only two tables from a category to the outside.
public enum ErrorCategory: String, Sendable, CaseIterable {
    /// A value or option the user gave is not allowed (the message names it and the allowed range).
    case usage
    /// An input file or record is malformed, truncated or not what it claims to be.
    case badData
    /// A file or folder that should be there is not.
    case missingInput
    /// There is no imagery, place, panorama or route where it was asked for: an answer, not a fault.
    case noImagery
    /// Something needed is missing or down: a tool, a database server, a terminal.
    case unavailable
    /// An output cannot be created (permissions, read-only file system, missing folder).
    case cannotCreate
    /// An I/O error while reading or writing (disk full, quota, a device error).
    case io
    /// A bug, or a library failing in a way no input explains.
    case internalError

    /// The command line's exit code (sysexits.h where it has one).
    public var exitCode: Int32 {
        switch self {
        case .noImagery: 1
        case .usage: 64
        case .badData: 65
        case .missingInput: 66
        case .unavailable: 69
        case .internalError: 70
        case .cannotCreate: 73
        case .io: 74
        }
    }

    /// The HTTP status of an error of this category in the service: the client's fault (400), nothing
    /// there (404), a dependency down (503); everything else is the server's own files or code (500),
    /// since a client names no file. The service's own refusals that HTTP names more exactly (405, 413…)
    /// refine it (`ServiceError.httpStatus`); nothing restates it.
    public var httpStatus: Int {
        switch self {
        case .usage: 400
        case .noImagery: 404
        case .unavailable: 503
        case .badData, .missingInput, .cannotCreate, .io, .internalError: 500
        }
    }
}

/// The value a ``ErrorCategory/usage`` error refused: the parameter, what was given, what is allowed.
public struct InvalidValue: Sendable, Hashable, CustomStringConvertible {
    /// The parameter as the library names it ("latitude", "field of view", "--radius-meters").
    public var parameter: String
    /// The value as given.
    public var value: String
    /// The allowed range or form ("-90…90 degrees").
    public var allowed: String

    public init(parameter: String, value: String, allowed: String) { (self.parameter, self.value, self.allowed) = (parameter, value, allowed) }

    public var description: String { "\(parameter) \(value) (allowed: \(allowed))" }
}

/// An error that knows its ``ErrorCategory`` and, for a refused value, which one.
public protocol CategorizedError: Error, CustomStringConvertible {
    /// The kind of failure.
    var category: ErrorCategory { get }
    /// The refused parameter, value and allowed range, when the error is about one.
    var invalidValue: InvalidValue? { get }
}

extension CategorizedError {
    public var invalidValue: InvalidValue? { nil }
}
