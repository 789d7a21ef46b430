import ArgumentParsing
import Geodesy

extension ParsedArguments {
    /// The coordinate given as `LAT,LON` (decimal degrees) in option `name`, validated.
    /// Bad text, NaN or out-of-range values are usage errors naming the option and the allowed range.
    public func coordinate(_ name: String) throws -> GeoCoordinate? {
        guard let text = string(name) else { return nil }
        return try parseCoordinate(text, option: name)
    }

    /// A direction in option `name`, degrees clockwise from north: any finite decimal (clients compute
    /// headings with atan2 and send -45 or 405), normalised to [0, 360) (DESIGN §3). Only text, NaN and
    /// ±∞ are usage errors.
    public func heading(_ name: String) throws -> Double? {
        guard let text = string(name) else { return nil }
        return try ParsedArguments.parseHeading(text, what: "--\(name)", option: name, commandPath: commandName)
    }

    /// Parses a heading as ``heading(_:)`` does, naming `what` in the error and `option` (without dashes)
    /// as the option at fault.
    public static func parseHeading(_ text: String, what: String, option: String?, commandPath: String) throws -> Double {
        guard let value = decimal(text.trimmingCharacters(in: .whitespaces)) else {
            throw UsageError(commandPath: commandPath,
                             message: "\(what) '\(text)' is not a finite number of degrees; any finite value is taken modulo 360",
                             option: option)
        }
        return Angle.normalizedHeadingDegrees(value)
    }

    /// A required `LAT,LON` option.
    public func requiredCoordinate(_ name: String) throws -> GeoCoordinate {
        guard let coordinate = try coordinate(name) else {
            throw error("missing --\(name) LAT,LON", option: name)
        }
        return coordinate
    }

    /// Parses `LAT,LON`.
    public func parseCoordinate(_ text: String, option name: String) throws -> GeoCoordinate {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw error("--\(name) '\(text)' is not LAT,LON; write decimal degrees such as 60.1699,24.9523", option: name)
        }
        let latitude = try ParsedArguments.parseDouble(String(parts[0]), what: "--\(name) latitude", option: name,
                                                       in: -90...90, commandPath: commandName)
        let longitude = try ParsedArguments.parseDouble(String(parts[1]), what: "--\(name) longitude", option: name,
                                                        in: -180...180, commandPath: commandName)
        do {
            return try GeoCoordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw self.error("--\(name): \(error)", option: name)
        }
    }
}
