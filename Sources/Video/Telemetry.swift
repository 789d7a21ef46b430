import Foundation

/// One GPS position of a recording, on the video's clock.
public struct GPSSample: Sendable, Hashable {
    /// Seconds from the start of the recording (the video's own clock, as the container times it).
    public var timeSeconds: Double
    /// WGS84 degrees.
    public var latitude: Double, longitude: Double
    /// Metres above mean sea level (GPMF, CAMM type 5/6, the Insta360 trailer) or the ellipsoid (some logs).
    public var altitudeMeters: Double?
    /// Ground speed, metres per second (GPS5/GPS9's 2D speed, CAMM's velocity, NMEA RMC).
    public var speedMetersPerSecond: Double?
    /// Fix: 0 none, 2 two-dimensional, 3 three-dimensional (nil: not said).
    public var fix: Int?
    /// Dilution of precision × 100 (GPMF `GPSP`, GPS9's DOP): under 500 is good.
    public var precision: Double?
    /// UTC of the fix when the source says it per sample (GPS9, CAMM 6, the trailer, GPX, NMEA).
    public var utc: Date?

    public init(timeSeconds: Double, latitude: Double, longitude: Double, altitudeMeters: Double? = nil,
                speedMetersPerSecond: Double? = nil, fix: Int? = nil, precision: Double? = nil, utc: Date? = nil) {
        self.timeSeconds = timeSeconds
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeters = altitudeMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.fix = fix
        self.precision = precision
        self.utc = utc
    }
}

/// The picture's orientation at one instant: a unit quaternion (w, x, y, z) that turns vectors of the
/// picture's frame into a fixed reference frame (`rotate(v, by: q)`). GoPro writes the opposite sense —
/// `CORI` turns the reference (the camera at the start of the recording) into the camera body, `IORI` the
/// body into the stabilised image — so a GoPro sample is the conjugate of `IORI ⊗ CORI` (see
/// ``GPMFTelemetry``); CAMM type 0 is an angle-axis rotation from the local frame to the world.
public struct OrientationSample: Sendable, Hashable {
    public var timeSeconds: Double
    public var w: Double, x: Double, y: Double, z: Double

    public init(timeSeconds: Double, w: Double, x: Double, y: Double, z: Double) {
        self.timeSeconds = timeSeconds
        (self.w, self.x, self.y, self.z) = (w, x, y, z)
    }
}

/// The gravity vector in the camera's frame at one instant (GoPro `GRAV`, unit length).
public struct GravitySample: Sendable, Hashable {
    public var timeSeconds: Double
    public var x: Double, y: Double, z: Double
}

/// Everything a recording's telemetry gives: positions (filtered), orientation, gravity, its UTC clock.
public struct Telemetry: Sendable {
    /// What the positions came from: `GPMF GPS5`, `GPMF GPS9`, `CAMM`, `Insta360 trailer`, `GPX NAME.gpx`, `NMEA NAME.nmea`.
    public var source: String
    /// The positions kept, in time order.
    public var gps: [GPSSample]
    /// Positions read before filtering.
    public var gpsRead: Int
    /// Dropped: no fix (GPMF `GPSF` 0, GPS9 fix 0, CAMM fix 0, a void trailer or RMC record).
    public var droppedNoFix: Int = 0
    /// Dropped: dilution of precision × 100 over ``maximumPrecision`` (as mapillary_tools drops them).
    public var droppedImprecise: Int = 0
    /// Dropped: a jump no vehicle makes (a position far from both its neighbours, which agree).
    public var droppedOutliers: Int = 0
    /// The picture's orientation, when the source records it (GoPro `CORI`, combined with `IORI` where the
    /// camera writes it; CAMM type 0), in the sense ``OrientationSample`` describes.
    public var orientation: [OrientationSample] = []
    /// What the orientation came from (`GPMF CORI`, `GPMF CORI+IORI`, `CAMM angle-axis`), nil when there is none.
    public var orientationSource: String?
    /// GoPro `IORI` as the camera wrote it: the stabilised image's rotation relative to the camera body
    /// (HERO8 and later, MAX). Already folded into ``orientation`` and ``gravity``; kept for reports and checks.
    public var imageOrientation: [OrientationSample] = []
    /// Gravity in the picture's frame (GoPro `GRAV`, written in the camera body's frame, turned by `IORI`
    /// into the image's where the camera writes it).
    public var gravity: [GravitySample] = []
    /// UTC of video time 0, from the GPS clock (GPSU, GPS9, CAMM 6, the trailer) when the source has one.
    public var startUTC: Date?
    /// The recording device as the telemetry names it (`GoPro Max`, `HERO5 Black`).
    public var deviceName: String?
    /// The camera serial number (GoPro `CASN`), when the telemetry says it.
    public var serialNumber: String?
    /// Notes for the user (damaged payloads skipped, clock guesses).
    public var notes: [String] = []

    /// Points with a dilution of precision × 100 above this are dropped (gopro/gpmf-parser: "under 500 is good";
    /// mapillary_tools drops them).
    public static let maximumPrecision = 500.0

    public init(source: String, gps: [GPSSample]) {
        self.source = source
        self.gps = gps
        self.gpsRead = gps.count
    }

    /// Drops points without a fix, imprecise ones and lone jumps; sorts by time. Idempotent.
    mutating func filter() {
        gps.sort { $0.timeSeconds < $1.timeSeconds }
        var kept: [GPSSample] = []
        kept.reserveCapacity(gps.count)
        for p in gps {
            guard p.latitude.isFinite, p.longitude.isFinite, abs(p.latitude) <= 90, abs(p.longitude) <= 180,
                  !(p.latitude == 0 && p.longitude == 0) else {
                droppedNoFix += 1
                continue
            }
            if let fix = p.fix, fix < 2 { droppedNoFix += 1; continue }
            if let precision = p.precision, precision > Self.maximumPrecision { droppedImprecise += 1; continue }
            kept.append(p)
        }
        // A lone jump: far from both neighbours (beyond what their speed allows plus 20 m) while the
        // neighbours are close to each other.
        if kept.count >= 3 {
            var outliers = Set<Int>()
            for i in 1..<(kept.count - 1) {
                let a = kept[i - 1], b = kept[i], c = kept[i + 1]
                let speed = max(a.speedMetersPerSecond ?? 0, c.speedMetersPerSecond ?? 0, 2)
                let allowed = 20 + 3 * speed * max(c.timeSeconds - a.timeSeconds, 0.1)
                if TrackGeometry.distanceMeters(a, b) > allowed && TrackGeometry.distanceMeters(b, c) > allowed
                    && TrackGeometry.distanceMeters(a, c) < allowed {
                    outliers.insert(i)
                }
            }
            droppedOutliers += outliers.count
            kept = kept.indices.filter { !outliers.contains($0) }.map { kept[$0] }
        }
        gps = kept
    }
}

/// Distances and bearings between GPS samples (a local spherical approximation, exact to millimetres
/// over the metres between samples; the catalog's geodesics are used where precision matters).
enum TrackGeometry {
    static let earthRadiusMeters = 6_371_008.8

    /// The distance between two samples on the sphere, metres (haversine).
    static func distanceMeters(_ a: GPSSample, _ b: GPSSample) -> Double {
        distanceMeters(latitude: a.latitude, longitude: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }

    static func distanceMeters(latitude: Double, longitude: Double, latitude2: Double, longitude2: Double) -> Double {
        let p1 = latitude * .pi / 180, p2 = latitude2 * .pi / 180
        var dl = (longitude2 - longitude) * .pi / 180
        if dl > .pi { dl -= 2 * .pi } else if dl < -.pi { dl += 2 * .pi }
        let h = sin((p2 - p1) / 2) * sin((p2 - p1) / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * earthRadiusMeters * asin(min(1, h.squareRoot()))
    }

    /// The initial bearing from one point to another, degrees clockwise from north in [0, 360).
    static func bearingDegrees(latitude: Double, longitude: Double, latitude2: Double, longitude2: Double) -> Double {
        let p1 = latitude * .pi / 180, p2 = latitude2 * .pi / 180, dl = (longitude2 - longitude) * .pi / 180
        let y = sin(dl) * cos(p2), x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)
        let b = atan2(y, x) * 180 / .pi
        return b < 0 ? b + 360 : (b >= 360 ? b - 360 : b)
    }
}
