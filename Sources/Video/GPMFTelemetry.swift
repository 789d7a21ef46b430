import Foundation

/// GoPro telemetry from a `gpmd` track (or raw GPMF payloads): GPS5 or GPS9 positions with `GPSF`, `GPSP`,
/// `GPSU` and `SCAL`; `CORI` and `IORI` orientation and `GRAV` gravity (see ``Orientations``).
///
/// Timing follows mapillary_tools: each payload is one sample of the `gpmd` track, timed by the track's
/// sample table (the video clock), and its N points are spread evenly over the sample's duration. `GPSU`
/// (and GPS9's own time) only give the UTC of that clock. Only the first device with GPS is read, as
/// mapillary_tools does (a GoPro writes one).
enum GPMFTelemetry {
    /// One payload and where it sits on the video's clock.
    struct Payload {
        var bytes: [UInt8]
        var timeSeconds: Double
        var durationSeconds: Double
    }

    /// The telemetry of `track` in the file `reader` reads.
    static func read(track: MP4Movie.Track, reader: VideoFileReader) throws(VideoError) -> Telemetry {
        var payloads: [Payload] = []
        payloads.reserveCapacity(track.samples.count)
        for sample in track.samples where sample.size > 0 {
            guard sample.size <= 16 << 20 else {
                throw .badTelemetry(path: reader.path, detail: "a GPMF payload of \(sample.size) bytes (over 16 MiB) at offset \(sample.offset)")
            }
            payloads.append(Payload(bytes: try reader.read(at: sample.offset, count: sample.size), timeSeconds: sample.timeSeconds,
                                    durationSeconds: sample.durationSeconds))
        }
        return telemetry(from: payloads)
    }

    /// The positions of raw payloads before the fix and precision filter (for comparisons with other readers).
    static func unfilteredGPS(from payloads: [Payload]) -> [GPSSample] {
        telemetry(from: payloads, filtering: false).gps
    }

    /// The telemetry of raw payloads (a `.raw` dump of one payload is timed 0 to 1 s).
    static func telemetry(from payloads: [Payload], filtering: Bool = true) -> Telemetry {
        var result = Telemetry(source: "GPMF", gps: [])
        var gpsDevice: Double?   // DVID of the device whose GPS is read
        var kind: String?
        var utcOffsets: [Double] = []
        var damaged = 0
        var names: [String] = []
        var orientations = Orientations()
        for payload in payloads {
            let (entries, broken) = GPMFParser.parseReportingDamage(payload.bytes)
            if broken { damaged += 1 }
            for device in entries where device.key == "DEVC" {
                let id = device.children.first { $0.key == "DVID" }?.numbers()?.first?.first ?? Double(UInt32.max) + 1
                if let name = device.children.first(where: { $0.key == "DVNM" })?.string, !names.contains(name) { names.append(name) }
                for stream in device.children where stream.key == "STRM" {
                    let keys = Dictionary(stream.children.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
                    if keys["GPS9"] != nil || keys["GPS5"] != nil || keys["GLPI"] != nil {
                        let (points, name, utc) = gps(keys, payload: payload)
                        // The first device with GPS; a better kind (GPS9 over GPS5 over a drone's GLPI) replaces a worse.
                        let rank = ["GLPI": 0, "GPS5": 1, "GPS9": 2]
                        if !points.isEmpty, gpsDevice == nil || gpsDevice == id || rank[name]! > rank[kind ?? "GLPI"]! {
                            if kind == nil || rank[name]! > rank[kind!]! {
                                result.gps.removeAll()
                                utcOffsets.removeAll()
                                kind = name
                                gpsDevice = id
                            }
                            if name == kind && gpsDevice == id {
                                result.gps += points
                                utcOffsets += utc
                            }
                        }
                    }
                    for (key, list) in [("CORI", \Orientations.camera), ("IORI", \Orientations.image)] {
                        guard let entry = keys[key], let values = scaled(entry, keys) else { continue }
                        let dt = payload.durationSeconds / Double(max(values.count, 1))
                        for (k, v) in values.enumerated() where v.count >= 4 {
                            let norm = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]).squareRoot()
                            guard norm > 0.5, norm < 1.5 else { continue }
                            orientations[keyPath: list].append(OrientationSample(timeSeconds: payload.timeSeconds + dt * Double(k),
                                                                                 w: v[0] / norm, x: v[1] / norm, y: v[2] / norm, z: v[3] / norm))
                        }
                    }
                    if let grav = keys["GRAV"], let values = scaled(grav, keys) {
                        let dt = payload.durationSeconds / Double(max(values.count, 1))
                        for (k, v) in values.enumerated() where v.count >= 3 {
                            let norm = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot()
                            guard norm > 0.1 else { continue }
                            orientations.gravity.append(GravitySample(timeSeconds: payload.timeSeconds + dt * Double(k),
                                                                      x: v[0] / norm, y: v[1] / norm, z: v[2] / norm))
                        }
                    }
                }
            }
        }
        orientations.fold(into: &result)
        result.source = "GPMF " + (kind ?? "GPS5") + (kind == "GLPI" ? " (a Karma drone's position)" : "")
        result.gpsRead = result.gps.count
        result.deviceName = names.first { $0.lowercased().contains("hero") } ?? names.first { $0.lowercased().contains("gopro") } ?? names.first
        if !utcOffsets.isEmpty {
            let sorted = utcOffsets.sorted()
            result.startUTC = Date(timeIntervalSince1970: sorted[sorted.count / 2])
        }
        if damaged > 0 {
            result.notes.append("\(damaged) of \(payloads.count) GPMF payloads were damaged; what they held before the damage was read")
        }
        if filtering { result.filter() }
        return result
    }

    /// The GPS points of one stream (`GPS9` preferred), timed over the payload; their kind; and the
    /// payload's estimates of the UTC at video time 0.
    static func gps(_ keys: [String: GPMFEntry], payload: Payload) -> ([GPSSample], String, [Double]) {
        let scal = keys["SCAL"]?.numbers()?.map { $0.first ?? 1 } ?? []
        func scale(_ values: [Double]) -> [Double] {
            values.enumerated().map { k, v in
                let s = scal.isEmpty ? 1 : (scal.count == 1 ? scal[0] : (k < scal.count ? scal[k] : 1))
                return s == 0 ? v : v / s
            }
        }
        if let gps9 = keys["GPS9"], let rows = gps9.numbers(complexType: keys["TYPE"]?.string ?? "lllllllSS"),
           !rows.isEmpty, rows.allSatisfy({ $0.count >= 9 }) {
            let dt = payload.durationSeconds / Double(rows.count)
            var points: [GPSSample] = [], offsets: [Double] = []
            for (k, raw) in rows.enumerated() {
                let v = scale(raw)
                let time = payload.timeSeconds + dt * Double(k)
                // Days since 2000-01-01 and seconds since midnight, UTC.
                let epoch = 946_684_800 + v[5] * 86_400 + v[6]
                let utc = v[5] > 0 ? Date(timeIntervalSince1970: epoch) : nil
                if utc != nil && v[8] >= 2 { offsets.append(epoch - time) }
                points.append(GPSSample(timeSeconds: time, latitude: v[0], longitude: v[1], altitudeMeters: v[2],
                                        speedMetersPerSecond: v[3], fix: Int(v[8]), precision: v[7] * 100, utc: utc))
            }
            return (points, "GPS9", offsets)
        }
        if keys["GPS5"] == nil, let glpi = keys["GLPI"], let rows = glpi.numbers(complexType: keys["TYPE"]?.string ?? "LllllsssS"),
           !rows.isEmpty, rows.allSatisfy({ $0.count >= 9 }) {
            // A Karma drone's position (time, latitude, longitude, altitude, relative altitude, velocity
            // x/y/z, heading), what exiftool reads as its GPS; no fix or precision is given.
            let dt = payload.durationSeconds / Double(rows.count)
            let points = rows.enumerated().map { k, raw -> GPSSample in
                let v = scale(raw)
                return GPSSample(timeSeconds: payload.timeSeconds + dt * Double(k), latitude: v[1], longitude: v[2], altitudeMeters: v[3],
                                 speedMetersPerSecond: (v[5] * v[5] + v[6] * v[6]).squareRoot())
            }
            return (points, "GLPI", [])
        }
        guard let gps5 = keys["GPS5"], let rows = gps5.numbers(), !rows.isEmpty, rows.allSatisfy({ $0.count >= 5 }) else { return ([], "GPS5", []) }
        let fix = keys["GPSF"]?.numbers()?.first?.first.map { Int($0) }
        let precision = keys["GPSP"]?.numbers()?.first?.first
        let dt = payload.durationSeconds / Double(rows.count)
        var offsets: [Double] = []
        // A payload without a fix may carry a stale GPSU: only fixed ones set the clock.
        if fix != 0, let text = keys["GPSU"]?.string ?? keys["GPSU"]?.strings.first, let utc = parseGPSU(text) {
            offsets.append(utc.timeIntervalSince1970 - payload.timeSeconds)
        }
        let points = rows.enumerated().map { k, raw in
            let v = scale(raw)
            return GPSSample(timeSeconds: payload.timeSeconds + dt * Double(k), latitude: v[0], longitude: v[1], altitudeMeters: v[2],
                             speedMetersPerSecond: v[3], fix: fix, precision: precision)
        }
        return (points, "GPS5", offsets)
    }

    /// GoPro's orientation streams as written, before they are combined.
    ///
    /// `CORI` is the camera body's orientation since the recording started and `IORI` the image's
    /// orientation relative to the body (what HyperSmooth or horizon levelling turned the picture by);
    /// `GRAV` is gravity in the body's frame. As GoPro writes them, `CORI` turns the start frame into the
    /// body and `IORI` the body into the image (checked on max-heromode.mp4: `GRAV` turned by the conjugate
    /// of `CORI` stays within 0.7° of one direction, by `CORI` itself it wanders 3°; and `IORI ⊗ CORI` is
    /// the stabilised, smooth one — 0.008° of frame-to-frame jitter against CORI's 0.14° — while
    /// `CORI ⊗ conj(IORI)` doubles the jitter). So the image turns into the start frame by
    /// conj(`IORI ⊗ CORI`), and gravity into the image's frame by `IORI`.
    struct Orientations {
        var camera: [OrientationSample] = [], image: [OrientationSample] = [], gravity: [GravitySample] = []

        func fold(into result: inout Telemetry) {
            let images = image.sorted { $0.timeSeconds < $1.timeSeconds }
            result.imageOrientation = images
            result.orientation = camera.map { c in
                var q = SIMD4(c.w, c.x, c.y, c.z)
                if let i = OrientationHeading.interpolate(images, at: c.timeSeconds) { q = OrientationHeading.multiply(i, q) }
                q = OrientationHeading.conjugate(q)
                return OrientationSample(timeSeconds: c.timeSeconds, w: q[0], x: q[1], y: q[2], z: q[3])
            }
            result.gravity = gravity.map { g in
                guard let i = OrientationHeading.interpolate(images, at: g.timeSeconds) else { return g }
                let v = OrientationHeading.rotate(SIMD3(g.x, g.y, g.z), by: i)
                return GravitySample(timeSeconds: g.timeSeconds, x: v.x, y: v.y, z: v.z)
            }
            if !camera.isEmpty { result.orientationSource = images.isEmpty ? "GPMF CORI" : "GPMF CORI+IORI" }
        }
    }

    /// `GPSU`, `yymmddhhmmss.sss` in UTC (years 20xx).
    static func parseGPSU(_ text: String) -> Date? {
        let digits = Array(text.utf8)
        guard digits.count >= 12 else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: digits[range], as: UTF8.self)) }
        guard let yy = number(0..<2), let mo = number(2..<4), let dd = number(4..<6), let hh = number(6..<8),
              let mi = number(8..<10), let ss = Double(String(decoding: digits[10...], as: UTF8.self)),
              (1...12).contains(mo), (1...31).contains(dd), hh < 24, mi < 60, ss < 61 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour, components.minute) = (2000 + yy, mo, dd, hh, mi)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let base = calendar.date(from: components) else { return nil }
        return base.addingTimeInterval(ss)
    }

    /// An entry's samples divided by the stream's `SCAL`.
    static func scaled(_ entry: GPMFEntry, _ keys: [String: GPMFEntry]) -> [[Double]]? {
        guard let rows = entry.numbers(complexType: keys["TYPE"]?.string) else { return nil }
        let scal = keys["SCAL"]?.numbers()?.map { $0.first ?? 1 } ?? []
        return rows.map { row in
            row.enumerated().map { k, v in
                let s = scal.isEmpty ? 1 : (scal.count == 1 ? scal[0] : (k < scal.count ? scal[k] : 1))
                return s == 0 ? v : v / s
            }
        }
    }
}
