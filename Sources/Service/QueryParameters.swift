import ArgumentParsing
import Catalog
import Diagnostics
import Foundation
import Geodesy
import Imaging
import MapSnapshot
import Reprojection
import LookAround
import Storage

/// Typed, validated access to a request's query arguments: every failure is a
/// `ServiceError.invalidParameter` naming the parameter, the value and what is allowed.
struct QueryParameters {
    let request: HTTPRequest

    func string(_ name: String) -> String? { request.argument(name) }

    /// A finite number within `range` (NaN, infinities and text are refused).
    func double(_ name: String, in range: ClosedRange<Double>, unit: String = "") throws(ServiceError) -> Double? {
        guard let text = string(name) else { return nil }
        // Made only for an error: this runs twice per scene request.
        var allowed: String { "allowed \(Self.format(range.lowerBound))…\(Self.format(range.upperBound))\(unit.isEmpty ? "" : " " + unit)" }
        guard let value = ParsedArguments.decimal(text) else {
            throw .invalidParameter(parameter: name, message: "\(name) '\(text)' is not a finite number; \(allowed)")
        }
        guard range.contains(value) else {
            throw .invalidParameter(parameter: name, message: "\(name) \(text) is out of range; \(allowed)")
        }
        return value
    }

    /// A direction in degrees: any finite value, normalised to [0, 360) (a client's atan2 gives -45);
    /// only text, NaN and ±∞ are refused.
    func heading(_ name: String) throws(ServiceError) -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = ParsedArguments.decimal(text) else {
            throw .invalidParameter(parameter: name, message: "\(name) '\(text)' is not a finite number of degrees; any finite value is taken modulo 360")
        }
        return Angle.normalizedHeadingDegrees(value)
    }

    /// Refuses a parameter the route does not take (the API key, `key`, is taken everywhere), naming
    /// the closest one it does take.
    func refuseUnknown(_ allowed: [String]) throws(ServiceError) {
        for (name, _) in request.query where name != "key" && !allowed.contains(name) {
            var message = allowed.isEmpty ? "\(request.path) takes no parameters; '\(name)' is not one"
                : "'\(name)' is not a parameter of \(request.path); it takes \(allowed.joined(separator: ", "))"
            if let close = ArgumentParser.closestMatch(to: name, among: allowed) { message += "; did you mean '\(close)'?" }
            throw .invalidParameter(parameter: name, message: message)
        }
    }

    /// A whole number within `range`.
    func int(_ name: String, in range: ClosedRange<Int>) throws(ServiceError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidParameter(parameter: name, message: "\(name) '\(text)' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// One of `allowed`.
    func choice(_ name: String, _ allowed: [String]) throws(ServiceError) -> String? {
        guard let text = string(name) else { return nil }
        guard allowed.contains(text) else {
            throw .invalidParameter(parameter: name, message: "\(name) '\(text)' is not allowed; allowed \(allowed.joined(separator: ", "))")
        }
        return text
    }

    /// `LAT,LON` in decimal degrees.
    func coordinate(_ name: String) throws(ServiceError) -> GeoCoordinate? {
        guard let text = string(name) else { return nil }
        return try Self.coordinate(text, parameter: name)
    }

    /// `lat` and `lon` (both or neither).
    func latitudeLongitude() throws(ServiceError) -> GeoCoordinate? {
        let latitude = try double("lat", in: -90...90, unit: "degrees")
        let longitude = try double("lon", in: -180...180, unit: "degrees")
        switch (latitude, longitude) {
        case (nil, nil): return nil
        case (let latitude?, let longitude?):
            do { return try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude) } catch {
                throw .invalidParameter(parameter: "lat", message: "\(error)")
            }
        default:
            throw .invalidParameter(parameter: latitude == nil ? "lat" : "lon", message: "give both lat and lon")
        }
    }

    /// The two numbers of `LAT,LON` (spaces around either allowed), nil when it is not two numbers.
    /// Splits the UTF-8 bytes, not Characters: this runs on every Street View request.
    static func numberPair(_ text: String) -> (Double, Double)? {
        let utf8 = text.utf8
        guard let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        let first = Substring(utf8[utf8.startIndex..<comma]), second = Substring(utf8[utf8.index(after: comma)...])
        guard !second.utf8.contains(UInt8(ascii: ",")) else { return nil }
        func number(_ part: Substring) -> Double? { ParsedArguments.decimal(part) ?? ParsedArguments.decimal(part.trimmingCharacters(in: .whitespaces)) }
        guard let a = number(first), let b = number(second) else { return nil }
        return (a, b)
    }

    /// Parses `LAT,LON`, naming `parameter` in errors.
    static func coordinate(_ text: String, parameter: String) throws(ServiceError) -> GeoCoordinate {
        try coordinate(numberPair(text), text: text, parameter: parameter)
    }

    /// Checks the numbers `pair` of `text` (from ``numberPair(_:)``) as a coordinate.
    static func coordinate(_ pair: (Double, Double)?, text: String, parameter: String) throws(ServiceError) -> GeoCoordinate {
        guard let (latitude, longitude) = pair, latitude.isFinite, longitude.isFinite else {
            throw .invalidParameter(parameter: parameter, message: "\(parameter) '\(text)' is not LAT,LON in decimal degrees, e.g. 60.1699,24.9523")
        }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw .invalidParameter(parameter: parameter, message: "\(parameter) \(text) is out of range; latitude -90…90, longitude -180…180 degrees")
        }
        do { return try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude) } catch {
            throw .invalidParameter(parameter: parameter, message: "\(parameter): \(error)")
        }
    }

    /// A capture date: `YYYY-MM-DD` (the start, or with `endOfDay` the end, of that UTC day) or ISO 8601.
    func date(_ name: String, endOfDay: Bool) throws(ServiceError) -> Date? {
        guard let text = string(name) else { return nil }
        if let date = SceneRequest.captureDate(parsing: text, endOfDay: endOfDay) { return date }
        throw .invalidParameter(parameter: name, message: "\(name) '\(text)' is not a date; write YYYY-MM-DD or ISO 8601 such as 2024-05-12T10:15:30Z")
    }

    /// The query as command-line arguments for `spec` (`radius_meters=5` → `--radius-meters 5`; a
    /// flag is given by `name`, `name=true` or `name=1`), parsed and validated by the same code as the
    /// CLI. `key` (the API key) is left out. Unknown parameters are refused, with a close match.
    func parsed(by spec: CommandSpec) throws(ServiceError) -> ParsedArguments {
        var arguments: [String] = []
        for (name, value) in request.query where name != "key" {
            let option = name.replacingOccurrences(of: "_", with: "-")
            if let known = spec.option(named: option), !known.takesValue {
                if ["", "true", "1", "yes", "on"].contains(value.lowercased()) { arguments.append("--" + option) }
                continue
            }
            arguments += ["--" + option, value]
        }
        do {
            switch try ArgumentParser.parse(arguments, root: spec) {
            case .run(let parsed): return parsed
            case .help: throw ServiceError.invalidParameter(parameter: "help", message: "help is not a parameter; see /v1/openapi.json")
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw Self.translate(error)
        }
    }

    /// A library or usage error as the service reports it: the parameter at fault from the error's own
    /// data (a usage error's ``UsageError/option``, a library error's ``InvalidValue``), snake_cased as
    /// the query names it; option names in the message written as the query's too.
    static func translate(_ error: any Error) -> ServiceError {
        switch error {
        case let error as ServiceError: return error
        case let error as UsageError:
            var message = snakeCased(error.message)
            if let suggestion = error.suggestion { message += "; did you mean '\(snakeCased(suggestion))'?" }
            return .invalidParameter(parameter: error.option.map(queryName), message: message)
        case CatalogError.unknownPanorama(let id): return .unknownPanorama(id: id)
        case CatalogError.placeNotFound(let name): return .placeNotFound(name: name)
        case let error as CatalogError where error.category == .unavailable: return .catalogUnavailable(detail: error.description)
        case let error as RoutingError where error.category == .noImagery: return .noRoute(reason: error.code, detail: error.description)
        case RoutingError.emptyNetwork(let mode, _):
            // The extract has streets, none open to this mode (footways only, and a car asked): an answer
            // about the data, as when there is no extract at all (RoutingGraphSource); the error's own
            // text names the server's file, so the client is told without it.
            return .noRoute(reason: "no_street_network", detail: "this server's street network has no way open to \(mode.rawValue); "
                                + "try another mode, or start the server with an OSM extract that has \(mode.rawValue) streets")
        case let error as StorageError where error.isUnavailable: return .storageUnavailable(reason: error.publicReason, detail: error.description)
        case ReprojectionError.storageFailed(let error) where error.isUnavailable:
            return .storageUnavailable(reason: error.publicReason, detail: error.description)
        case let error as any CategorizedError:
            // The one classification (ErrorCategory): the client's values are 400s naming the parameter
            // (the library's name, snake_cased); the server's own files, the catalog and bugs are 500s.
            switch error.category {
            case .usage:
                return .invalidParameter(parameter: error.invalidValue.map { snakeCaseName($0.parameter) }, message: snakeCased(error.description))
            case .unavailable: return .catalogUnavailable(detail: error.description)
            case .noImagery: return .noImagery(detail: error.description)
            case .badData, .missingInput, .cannotCreate, .io, .internalError:
                return error is CatalogError ? .catalogFailed(detail: error.description) : .internalError(detail: error.description)
            }
        default:
            return .internalError(detail: "\(error)")
        }
    }

    /// A command-line option's name as a query parameter: `radius-meters` → `radius_meters`.
    static func queryName(_ option: String) -> String { option.replacingOccurrences(of: "-", with: "_") }

    /// `--heading-degrees` → `heading_degrees` throughout a message.
    static func snakeCased(_ text: String) -> String {
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("--"), let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex),
               next < text.endIndex, text[next].isLetter {
                var end = next
                while end < text.endIndex, text[end].isLetter || text[end].isNumber || text[end] == "-" { end = text.index(after: end) }
                out += text[next..<end].replacingOccurrences(of: "-", with: "_")
                index = end
            } else {
                out.append(text[index])
                index = text.index(after: index)
            }
        }
        return out
    }

    /// `radiusMeters` → `radius_meters`.
    static func snakeCaseName(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase { out += "_" + character.lowercased() } else if character == " " { out += "_" } else { out.append(character) }
        }
        return out
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
