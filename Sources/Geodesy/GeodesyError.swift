import Diagnostics

/// Every error the `Geodesy` module throws.
///
/// Each case carries the offending value(s). ``description`` names the value, the allowed range or
/// form, and what to do about it, so the message can go straight to a user or a log.
public enum GeodesyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A latitude outside [-90, 90] degrees, or NaN/infinite. Carries the value in degrees.
    case latitudeOutOfRange(Double)
    /// A longitude outside [-180, 180) degrees, or NaN/infinite. Carries the value in degrees.
    case longitudeOutOfRange(Double)
    /// A quantity that must be a finite number was NaN or infinite.
    /// `parameter` names it with its unit (for example `"distanceMeters"`).
    case notFinite(parameter: String, value: Double)
    /// A coordinate span's latitude delta outside [0, 180] degrees (or not finite).
    case latitudeDeltaOutOfRange(Double)
    /// A coordinate span's longitude delta outside [0, 360] degrees (or not finite).
    case longitudeDeltaOutOfRange(Double)
    /// A region whose latitude extent, `centerLatitude ± latitudeDelta / 2`, leaves [-90, 90] degrees.
    case regionBeyondPole(centerLatitude: Double, latitudeDelta: Double)
    /// A tile zoom level outside 0...30.
    case zoomOutOfRange(Int)
    /// Tile indices outside 0..<2^zoom at the given zoom level.
    case tileOutOfRange(x: Int, y: Int, zoom: Int)
    /// A quadkey that is too long or contains a character other than 0, 1, 2, 3.
    /// `position` is the zero-based index of the first bad character, or `nil` when the length is wrong.
    case invalidQuadkey(String, position: Int?)
    /// An ellipsoid that the geodesic algorithms do not support: equatorial radius must be finite and
    /// positive, flattening within [0, 0.01].
    case ellipsoidOutOfRange(equatorialRadiusMeters: Double, flattening: Double)
    /// Text in a coordinate's form (``CoordinateText``) with a part that cannot be: minutes of 60, two
    /// signs, two latitudes. `reason` says which.
    case malformedCoordinate(text: String, reason: String)

    /// A one-line message naming the bad value, the allowed range and a remedy.
    public var description: String {
        switch self {
        case .latitudeOutOfRange(let value):
            return "latitude \(value) is \(Self.problem(value)) the allowed range [-90, 90] degrees; "
                + "pass WGS84 latitude in degrees, north positive (were latitude and longitude swapped?)"
        case .longitudeOutOfRange(let value):
            return "longitude \(value) is \(Self.problem(value)) the allowed range [-180, 180) degrees; "
                + "pass WGS84 longitude in degrees, east positive, or use "
                + "GeoCoordinate(latitude:normalizingLongitude:) for longitudes that come from arithmetic"
        case .notFinite(let parameter, let value):
            return "\(parameter) \(value) is not a finite number; pass a finite value "
                + "(check the input for a parse error or a division by zero)"
        case .latitudeDeltaOutOfRange(let value):
            return "latitudeDelta \(value) is \(Self.problem(value)) the allowed range [0, 180] degrees; "
                + "pass the north-south extent of the region in degrees"
        case .longitudeDeltaOutOfRange(let value):
            return "longitudeDelta \(value) is \(Self.problem(value)) the allowed range [0, 360] degrees; "
                + "pass the east-west extent of the region in degrees"
        case .regionBeyondPole(let centerLatitude, let latitudeDelta):
            return "region with center latitude \(centerLatitude) and latitudeDelta \(latitudeDelta) extends "
                + "to latitude \(centerLatitude + (centerLatitude < 0 ? -latitudeDelta : latitudeDelta) / 2), "
                + "outside the allowed range [-90, 90] degrees; move the center away from the pole "
                + "or reduce latitudeDelta"
        case .zoomOutOfRange(let zoom):
            return "zoom \(zoom) is outside the allowed range 0...30; pass a slippy-map zoom level between 0 and 30"
        case .tileOutOfRange(let x, let y, let zoom):
            let limit = zoom >= 0 && zoom <= 62 ? String((1 << zoom) - 1) : "2^zoom - 1"
            return "tile x \(x), y \(y) is outside the allowed range 0...\(limit) for zoom \(zoom); "
                + "tile indices at zoom z run from 0 to 2^z - 1"
        case .invalidQuadkey(let quadkey, let position):
            if let position {
                return "quadkey \"\(quadkey)\" has an invalid character at position \(position); "
                    + "a quadkey contains only the digits 0, 1, 2 and 3"
            }
            return "quadkey \"\(quadkey)\" has length \(quadkey.count), outside the allowed range 0...30; "
                + "pass one digit 0-3 per zoom level"
        case .ellipsoidOutOfRange(let radius, let flattening):
            return "ellipsoid with equatorial radius \(radius) m and flattening \(flattening) is not supported; "
                + "the radius must be finite and positive and the flattening within [0, 0.01] "
                + "(use Geodesic.wgs84 for the WGS84 ellipsoid)"
        case .malformedCoordinate(let text, let reason):
            return "'\(text)' is not a coordinate: \(reason); write it as 43.6124,1.4564, 43°36′44.6″N 1°27′23″E or geo:43.6124,1.4564"
        }
    }

    private static func problem(_ value: Double) -> String {
        value.isFinite ? "outside" : "not a finite number; it must be within"
    }
}

extension GeodesyError: CategorizedError {
    /// Every geodesy error is a value out of its range: a usage error when it reaches the top.
    public var category: ErrorCategory { .usage }

    /// The parameter, the value and its allowed range.
    public var invalidValue: InvalidValue? {
        switch self {
        case .latitudeOutOfRange(let v): InvalidValue(parameter: "latitude", value: "\(v)", allowed: "-90…90 degrees")
        case .longitudeOutOfRange(let v): InvalidValue(parameter: "longitude", value: "\(v)", allowed: "-180…180 degrees")
        case .notFinite(let parameter, let v): InvalidValue(parameter: parameter, value: "\(v)", allowed: "a finite number")
        case .latitudeDeltaOutOfRange(let v): InvalidValue(parameter: "latitude span", value: "\(v)", allowed: "0…180 degrees")
        case .longitudeDeltaOutOfRange(let v): InvalidValue(parameter: "longitude span", value: "\(v)", allowed: "0…360 degrees")
        case .regionBeyondPole(let centre, let delta):
            InvalidValue(parameter: "region", value: "centre latitude \(centre), span \(delta)", allowed: "within -90…90 degrees of latitude")
        case .zoomOutOfRange(let z): InvalidValue(parameter: "zoom", value: "\(z)", allowed: "0…30")
        case .tileOutOfRange(let x, let y, let zoom): InvalidValue(parameter: "tile", value: "\(x)/\(y) at zoom \(zoom)", allowed: "0…2^zoom-1")
        case .invalidQuadkey(let key, _): InvalidValue(parameter: "quadkey", value: key, allowed: "1…30 digits 0-3")
        case .ellipsoidOutOfRange(let radius, let flattening):
            InvalidValue(parameter: "ellipsoid", value: "radius \(radius) m, flattening \(flattening)", allowed: "radius > 0, flattening 0…0.01")
        case .malformedCoordinate(let text, let reason):
            InvalidValue(parameter: "coordinate", value: text, allowed: "latitude and longitude in degrees (\(reason))")
        }
    }
}
