import Foundation
import Geodesy

/// The sun's direction seen from a place at a time: the NOAA solar calculator's algorithm (after
/// Meeus, *Astronomical Algorithms*), good to about 0.01° for years 1900–2100.
///
/// Elevation is geometric (no atmospheric refraction) unless you ask for ``apparentElevationDegrees``.
/// Tested against NREL's SPA (through PyPI's pysolar) within 0.05° for elevation and azimuth.
public struct SolarPosition: Sendable, Hashable {
    /// Angle of the sun's centre above the horizon, degrees (−90…90), geometric (no refraction).
    public var elevationDegrees: Double
    /// Direction of the sun, degrees clockwise from true north, [0, 360).
    public var azimuthDegrees: Double

    /// The sun's position at `date` (UTC instant) seen from `coordinate`.
    public init(date: Date, coordinate: GeoCoordinate) {
        let julianDay = date.timeIntervalSince1970 / 86_400 + 2_440_587.5
        let t = (julianDay - 2_451_545) / 36_525  // Julian centuries since J2000.0
        func rad(_ d: Double) -> Double { d * .pi / 180 }
        func deg(_ r: Double) -> Double { r * 180 / .pi }
        let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let m = rad(meanAnomaly)
        let center = sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t)) + sin(2 * m) * (0.019993 - 0.000101 * t)
            + sin(3 * m) * 0.000289
        let trueLongitude = meanLongitude + center
        let omega = rad(125.04 - 1934.136 * t)
        let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(omega)
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = rad(meanObliquity + 0.00256 * cos(omega))
        let declination = asin(sin(obliquity) * sin(rad(apparentLongitude)))
        let y = pow(tan(obliquity / 2), 2)
        let l0 = rad(meanLongitude)
        let equationOfTimeMinutes = 4 * deg(y * sin(2 * l0) - 2 * eccentricity * sin(m)
            + 4 * eccentricity * y * sin(m) * cos(2 * l0) - 0.5 * y * y * sin(4 * l0)
            - 1.25 * eccentricity * eccentricity * sin(2 * m))
        let secondsOfDay = date.timeIntervalSince1970 - (date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        let trueSolarMinutes = secondsOfDay / 60 + equationOfTimeMinutes + 4 * coordinate.longitude
        let hourAngle = rad(trueSolarMinutes / 4 - 180)
        let latitude = rad(coordinate.latitude)
        let cosZenith = max(-1, min(1, sin(latitude) * sin(declination) + cos(latitude) * cos(declination) * cos(hourAngle)))
        elevationDegrees = 90 - deg(acos(cosZenith))
        let azimuth = deg(atan2(sin(hourAngle), cos(hourAngle) * sin(latitude) - tan(declination) * cos(latitude))) + 180
        azimuthDegrees = azimuth.truncatingRemainder(dividingBy: 360)
    }

    /// A position given directly (degrees; see the properties for ranges).
    public init(elevationDegrees: Double, azimuthDegrees: Double) {
        self.elevationDegrees = elevationDegrees
        self.azimuthDegrees = azimuthDegrees
    }

    /// Elevation with the NOAA refraction correction added (what an eye or camera sees), degrees.
    public var apparentElevationDegrees: Double {
        let e = elevationDegrees
        if e > 85 { return e }
        let te = tan(e * .pi / 180)
        let arcseconds: Double
        if e > 5 { arcseconds = 58.1 / te - 0.07 / pow(te, 3) + 0.000086 / pow(te, 5) }
        else if e > -0.575 { arcseconds = 1735 + e * (-518.2 + e * (103.4 + e * (-12.79 + e * 0.711))) }
        else { arcseconds = -20.772 / te }
        return e + arcseconds / 3600
    }

    /// The unit vector towards the sun in east-north-up coordinates.
    public var direction: EastNorthUp {
        let e = elevationDegrees * .pi / 180, a = azimuthDegrees * .pi / 180
        return EastNorthUp(east: cos(e) * sin(a), north: cos(e) * cos(a), up: sin(e))
    }
}
