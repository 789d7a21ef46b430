import Foundation

/// Google's Camera Motion Metadata (a `camm` track; developers.google.com/streetview/publish/camm-spec):
/// each sample holds records of a little-endian `uint16` reserved, `uint16` type and the type's data.
/// Read: type 5 (latitude, longitude, altitude as doubles), type 6 (GPS time, fix, position, accuracy,
/// velocity), type 0 (orientation as an angle-axis vector); types 1–4 and 7 (exposure, gyro,
/// accelerometer, position, magnetometer) are counted, not used.
enum CAMMTelemetry {
    /// Record sizes by type, header included (exiftool's table, the spec's structures).
    static let recordSizes: [UInt16: Int] = [0: 16, 1: 12, 2: 16, 3: 16, 4: 16, 5: 28, 6: 60, 7: 16]
    /// Seconds from the Unix epoch to the GPS epoch (1980-01-06).
    static let gpsEpochOffset = 315_964_800.0

    static func read(track: MP4Movie.Track, reader: VideoFileReader, creationTime: Date?) throws(VideoError) -> Telemetry {
        var result = Telemetry(source: "CAMM", gps: [])
        var utcOffsets: [Double] = []
        var unknown = 0
        for sample in track.samples where sample.size >= 4 {
            guard sample.size <= 1 << 20 else {
                throw .badTelemetry(path: reader.path, detail: "a CAMM sample of \(sample.size) bytes at offset \(sample.offset)")
            }
            let bytes = try reader.read(at: sample.offset, count: sample.size)[...]
            var i = 0
            while i + 4 <= bytes.count {
                let type = ByteCursor.le16(bytes, i + 2)
                guard let size = recordSizes[type], i + size <= bytes.count else { unknown += 1; break }
                let d = i + 4
                switch type {
                case 0:
                    let v = (Double(ByteCursor.leFloat(bytes, d)), Double(ByteCursor.leFloat(bytes, d + 4)), Double(ByteCursor.leFloat(bytes, d + 8)))
                    let angle = (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).squareRoot()
                    if angle.isFinite {
                        let s = angle > 1e-12 ? sin(angle / 2) / angle : 0.5
                        result.orientation.append(OrientationSample(timeSeconds: sample.timeSeconds, w: cos(angle / 2),
                                                                    x: v.0 * s, y: v.1 * s, z: v.2 * s))
                    }
                case 5:
                    result.gps.append(GPSSample(timeSeconds: sample.timeSeconds, latitude: ByteCursor.leDouble(bytes, d),
                                                longitude: ByteCursor.leDouble(bytes, d + 8), altitudeMeters: ByteCursor.leDouble(bytes, d + 16)))
                case 6:
                    let time = ByteCursor.leDouble(bytes, d)
                    let fix = Int(Int32(bitPattern: ByteCursor.le32(bytes, d + 8)))
                    let ve = Double(ByteCursor.leFloat(bytes, d + 40)), vn = Double(ByteCursor.leFloat(bytes, d + 44))
                    var utc: Date?
                    if time > 0, time.isFinite {
                        // The spec says GPS epoch; some cameras write Unix time: the one nearer the file's
                        // creation time wins (exiftool's rule), else the spec.
                        let asGPS = time + gpsEpochOffset
                        var seconds = asGPS
                        if let created = creationTime?.timeIntervalSince1970, abs(created - time) < abs(created - asGPS) { seconds = time }
                        utc = Date(timeIntervalSince1970: seconds)
                        utcOffsets.append(seconds - sample.timeSeconds)
                    }
                    let speed = (ve * ve + vn * vn).squareRoot()
                    result.gps.append(GPSSample(timeSeconds: sample.timeSeconds, latitude: ByteCursor.leDouble(bytes, d + 12),
                                                longitude: ByteCursor.leDouble(bytes, d + 20), altitudeMeters: Double(ByteCursor.leFloat(bytes, d + 28)),
                                                speedMetersPerSecond: speed.isFinite ? speed : nil, fix: fix, utc: utc))
                default:
                    break
                }
                i += size
            }
        }
        result.gpsRead = result.gps.count
        if !result.orientation.isEmpty { result.orientationSource = "CAMM angle-axis" }
        if !utcOffsets.isEmpty { result.startUTC = Date(timeIntervalSince1970: utcOffsets.sorted()[utcOffsets.count / 2]) }
        if unknown > 0 { result.notes.append("\(unknown) CAMM samples held a record of an unknown type or were cut short; the rest was read") }
        result.filter()
        return result
    }
}
