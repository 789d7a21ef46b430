import Foundation
import Geodesy

/// The in-memory index that answers "which panorama is nearest to this point within R metres?"
/// without SQL: about 17 bytes per panorama plus two hash tables of grid cells.
///
/// **Layout.** Positions are stored as 1e-7-degree integers (≈ 1 cm). Two grids of latitude/longitude
/// cells: fine cells of 1/1024° (≈ 109 m north–south, 54 m east–west at 60° N) and coarse cells of
/// 64 × 64 fine cells. Points are sorted by (coarse cell, fine cell within it), so each fine and each
/// coarse cell is one contiguous range, found through a ``CellTable``. A query visits the fine cells
/// overlapping the circle's bounding box (the coarse cells when that would be more than 1,024 fine
/// cells), wrapping across the 180th meridian.
///
/// **Distance.** Candidates are ranked by a local equirectangular approximation with the WGS84
/// meridional and prime-vertical radii of curvature at the query latitude. Its relative error is about
/// tan(latitude) × distance / (2 × 6,371 km): at 60° under 0.4 mm at 50 m, 7 cm at 1 km and 0.07 %
/// at 10 km; at 80° about 1 mm at 50 m; plus the 1e-7° position rounding, at most 8 mm (checked
/// against Karney's geodesic in the tests). The radius
/// test uses the same approximation, so a panorama within that error of the radius may fall on
/// either side. Above 80° latitude (where longitude cells shrink and the approximation degrades)
/// every candidate's distance is computed with Karney's algorithm instead: exact, but slower. The
/// distance a scene reports is always Karney's, computed for the chosen panorama only.
public struct SceneQueryIndex: Sendable {
    /// Panorama positions, sorted by cell: latitude × 1e7.
    let latitudesE7: [Int32]
    /// Longitude × 1e7.
    let longitudesE7: [Int32]
    /// The panorama's `row` in the catalog's `panoramas` table.
    let rows: [UInt32]
    /// Capture time in minutes since 1970-01-01 UTC (dates from 1970 to year 6053).
    let captureMinutes: [Int32]
    /// Bit 0 simulated, bit 1 cropped, bit 2 has a depth map.
    let flags: [UInt8]
    private let fineCells: CellTable
    private let coarseCells: CellTable

    static let simulatedFlag: UInt8 = 1, croppedFlag: UInt8 = 2, depthFlag: UInt8 = 4

    /// Whether a stored panorama with `flags` captured at `minute` passes `query`'s source and date
    /// filters: the one test ``search(_:)`` and ``rank(_:for:)`` make.
    @inline(__always)
    static func passesFilters(flags: UInt8, minute: Int32, _ query: Query) -> Bool {
        if query.source != .any && (flags & simulatedFlag != 0) != (query.source == .simulated) { return false }
        return minute >= query.earliestMinute && minute <= query.latestMinute
    }

    /// What `.best` prefers, larger first: a full panorama before a cropped one, one with depth before
    /// one without, then the newest capture day; nearest breaks the ties (the callers' part).
    @inline(__always)
    static func preferenceRank(flags: UInt8, minute: Int32) -> Int64 {
        Int64(flags & croppedFlag == 0 ? 1 : 0) << 40 | Int64(flags & depthFlag != 0 ? 1 : 0) << 39
            | Int64(minute / 1440 + 1_500_000) << 16
    }
    static let cellsPerDegree: Int64 = 1024
    static let fineRows: Int64 = 180 * cellsPerDegree
    static let fineColumns: Int64 = 360 * cellsPerDegree
    static let coarseShift: Int64 = 6
    /// Largest number of fine cells a query visits before it switches to the coarse grid.
    static let maximumFineCells: Int64 = 1024
    /// Up to this many fine cells, a query looks up all their hash slots before scanning any (512 bytes
    /// of ranges on the stack).
    static let batchedFineCells: Int64 = 32

    /// One panorama's entry, before sorting.
    struct Entry {
        var latitudeE7: Int32
        var longitudeE7: Int32
        var row: UInt32
        var captureMinute: Int32
        var flags: UInt8
    }

    /// Number of panoramas indexed.
    public var count: Int { rows.count }

    /// Bytes held by the index's arrays and hash tables, for the memory-per-panorama figure.
    public var byteCount: Int { count * (4 + 4 + 4 + 4 + 1) + fineCells.byteCount + coarseCells.byteCount }

    // MARK: Cells

    @inline(__always) static func row(latitudeE7: Int64) -> Int64 {
        min(max(((latitudeE7 + 900_000_000) * cellsPerDegree) / 10_000_000, 0), fineRows - 1)
    }

    @inline(__always) static func column(longitudeE7: Int64) -> Int64 {
        let c = ((longitudeE7 + 1_800_000_000) * cellsPerDegree) / 10_000_000
        return ((c % fineColumns) + fineColumns) % fineColumns
    }

    @inline(__always) static func fineKey(row: Int64, column: Int64) -> UInt64 {
        let coarseRow = UInt64(row >> coarseShift), coarseColumn = UInt64(column >> coarseShift)
        let fineRow = UInt64(row & 63), fineColumn = UInt64(column & 63)
        return coarseRow << 25 | coarseColumn << 12 | fineRow << 6 | fineColumn
    }

    @inline(__always) static func coarseKey(row: Int64, column: Int64) -> UInt64 {
        UInt64(row) << 13 | UInt64(column)
    }

    // MARK: Building

    /// Sorts `entries` by cell and builds the hash tables.
    init(entries: [Entry]) {
        let keys: [UInt64] = entries.map { (entry: Entry) -> UInt64 in
            let row = Self.row(latitudeE7: Int64(entry.latitudeE7))
            let column = Self.column(longitudeE7: Int64(entry.longitudeE7))
            return Self.fineKey(row: row, column: column)
        }
        let order: [Int] = Array(0..<entries.count).sorted { (a: Int, b: Int) -> Bool in
            keys[a] != keys[b] ? keys[a] < keys[b] : entries[a].row < entries[b].row
        }
        self.init(sortedLatitudes: order.map { entries[$0].latitudeE7 }, longitudes: order.map { entries[$0].longitudeE7 },
                  rows: order.map { entries[$0].row }, captureMinutes: order.map { entries[$0].captureMinute },
                  flags: order.map { entries[$0].flags })
    }

    /// An index over arrays already sorted by fine key (as stored in the catalog); builds the tables.
    init(sortedLatitudes: [Int32], longitudes: [Int32], rows: [UInt32], captureMinutes: [Int32], flags: [UInt8]) {
        latitudesE7 = sortedLatitudes
        longitudesE7 = longitudes
        self.rows = rows
        self.captureMinutes = captureMinutes
        self.flags = flags
        var fineKeys: [UInt64] = []
        fineKeys.reserveCapacity(sortedLatitudes.count)
        for i in 0..<sortedLatitudes.count {
            fineKeys.append(Self.fineKey(row: Self.row(latitudeE7: Int64(sortedLatitudes[i])),
                                         column: Self.column(longitudeE7: Int64(longitudes[i]))))
        }
        // Count distinct cells first so the tables are sized once.
        var fineDistinct = 0, coarseDistinct = 0
        var previousFine = UInt64.max, previousCoarse = UInt64.max
        for key in fineKeys {
            if key != previousFine { fineDistinct += 1; previousFine = key }
            if key >> 12 != previousCoarse { coarseDistinct += 1; previousCoarse = key >> 12 }
        }
        var fine = CellTable(expectedCells: fineDistinct)
        var coarse = CellTable(expectedCells: coarseDistinct)
        var i = 0
        var coarseStart = 0
        while i < fineKeys.count {
            var j = i + 1
            while j < fineKeys.count && fineKeys[j] == fineKeys[i] { j += 1 }
            fine.insert(fineKeys[i], start: UInt32(i), count: UInt32(j - i))
            if j == fineKeys.count || fineKeys[j] >> 12 != fineKeys[i] >> 12 {
                // The fine key's top bits are coarseRow << 13 | coarseColumn.
                coarse.insert(fineKeys[i] >> 12, start: UInt32(coarseStart), count: UInt32(j - coarseStart))
                coarseStart = j
            }
            i = j
        }
        fineCells = fine
        coarseCells = coarse
    }

    // MARK: Queries

    /// What a query looks for.
    public struct Query: Sendable {
        /// The request point.
        public var coordinate: GeoCoordinate
        /// Search radius, metres.
        public var radiusMeters: Double
        /// Nearest or best.
        public var preference: ScenePreference
        /// Accepted sources.
        public var source: SourceFilter
        /// Earliest accepted capture time, minutes since 1970 (inclusive).
        public var earliestMinute: Int32
        /// Latest accepted capture time, minutes since 1970 (inclusive).
        public var latestMinute: Int32

        /// A query; `capturedAfter`/`capturedBefore` bound the capture time (inclusive, to the minute).
        public init(coordinate: GeoCoordinate, radiusMeters: Double, preference: ScenePreference = .nearest,
                    source: SourceFilter = .any, capturedAfter: Date? = nil, capturedBefore: Date? = nil) {
            self.coordinate = coordinate
            self.radiusMeters = radiusMeters
            self.preference = preference
            self.source = source
            earliestMinute = capturedAfter.map { SceneQueryIndex.minute($0, roundingUp: true) } ?? .min
            latestMinute = capturedBefore.map { SceneQueryIndex.minute($0, roundingUp: false) } ?? .max
        }
    }

    /// What a query found.
    public struct Hit: Sendable, Equatable {
        /// Position in the index (use with the catalog to get details), or -1 when nothing passed.
        public var position: Int
        /// Approximate distance to that panorama, metres (local equirectangular; see the type's notes).
        public var approximateDistanceMeters: Double
        /// Panoramas within the radius, before the source and date filters.
        public var withinRadius: Int
        /// Panoramas within the radius that passed the filters.
        public var accepted: Int
        /// Whether a panorama passed.
        public var found: Bool { position >= 0 }
    }

    /// Minutes since 1970 of a date, clamped to the Int32 range.
    static func minute(_ date: Date, roundingUp: Bool) -> Int32 {
        let minutes = date.timeIntervalSince1970 / 60
        let rounded = roundingUp ? minutes.rounded(.up) : minutes.rounded(.down)
        return Int32(clamping: Int64(max(min(rounded, 2e9), -2e9)))
    }

    /// Metres per 1e-7 degree of latitude and of longitude at `latitude` (WGS84 radii of curvature).
    @inline(__always) static func metersPerE7(atLatitude latitude: Double) -> (latitude: Double, longitude: Double) {
        let phi = latitude * .pi / 180
        let s = sin(phi)
        let w = 1 - WGS84.eccentricitySquared * s * s
        let meridional = WGS84.equatorialRadiusMeters * (1 - WGS84.eccentricitySquared) / (w * w.squareRoot())
        let primeVertical = WGS84.equatorialRadiusMeters / w.squareRoot()
        let perRadianToPerE7 = Double.pi / 180 / 1e7
        return (meridional * perRadianToPerE7, max(primeVertical * cos(phi), 0) * perRadianToPerE7)
    }

    /// Calls `body(start, count)` for each non-empty cell range that may hold points within
    /// `radiusMeters` of (`qLat`, `qLon`) (1e-7 degrees), fine cells or coarse cells as cheaper.
    @inline(__always)
    private func forEachCellRange(qLat: Int64, qLon: Int64, radiusMeters radius: Double,
                                  scale: (latitude: Double, longitude: Double), _ body: (Int, Int) -> Void) {
        let latSpan = Int64((radius / scale.latitude).rounded(.up)) + 1
        let lonSpan = scale.longitude > 0 ? (radius / scale.longitude).rounded(.up) + 1 : .infinity
        let row0 = Self.row(latitudeE7: qLat - latSpan), row1 = Self.row(latitudeE7: qLat + latSpan)
        var column0: Int64, columnCount: Int64
        if lonSpan >= 1.8e9 {
            column0 = 0
            columnCount = Self.fineColumns
        } else {
            let span = Int64(lonSpan)
            column0 = Self.column(longitudeE7: qLon - span)
            let column1 = Self.column(longitudeE7: qLon + span)
            columnCount = (column1 - column0 + Self.fineColumns) % Self.fineColumns + 1
        }
        if (row1 - row0 + 1) * columnCount > Self.maximumFineCells {
            let coarseColumns = Self.fineColumns >> Self.coarseShift
            let c0 = column0 >> Self.coarseShift
            let c1 = (column0 + columnCount - 1) >> Self.coarseShift
            let n = min(c1 - c0 + 1, coarseColumns)
            for r in (row0 >> Self.coarseShift)...(row1 >> Self.coarseShift) {
                for k in 0..<n {
                    let range = coarseCells.lookup(Self.coarseKey(row: r, column: (c0 + k) % coarseColumns))
                    if range.count > 0 { body(range.start, range.count) }
                }
            }
        } else if (row1 - row0 + 1) * columnCount <= Self.batchedFineCells {
            // The common case (a radius of tens of metres: 2 × 3 cells): every cell's hash slot is looked
            // up before any of their points are read, so the slot loads (cache misses on a large catalog,
            // 18 % of a query in `perf annotate` of the catalog benchmark) overlap instead of each waiting
            // behind the previous cell's scan.
            withUnsafeTemporaryAllocation(of: (start: Int, count: Int).self, capacity: Int(Self.batchedFineCells)) { ranges in
                var n = 0
                for r in row0...row1 {
                    for k in 0..<columnCount {
                        let range = fineCells.lookup(Self.fineKey(row: r, column: (column0 + k) % Self.fineColumns))
                        if range.count > 0 { ranges[n] = range; n += 1 }
                    }
                }
                for i in 0..<n { body(ranges[i].start, ranges[i].count) }
            }
        } else {
            for r in row0...row1 {
                for k in 0..<columnCount {
                    let range = fineCells.lookup(Self.fineKey(row: r, column: (column0 + k) % Self.fineColumns))
                    if range.count > 0 { body(range.start, range.count) }
                }
            }
        }
    }

    /// The nearest (or best) panorama within the query's radius that passes its filters.
    ///
    /// Allocation-free; visits the cells overlapping the circle's bounding box.
    public func search(_ query: Query) -> Hit {
        let qLat = Int64((query.coordinate.latitude * 1e7).rounded())
        let qLon = Int64((query.coordinate.longitude * 1e7).rounded())
        let scale = Self.metersPerE7(atLatitude: query.coordinate.latitude)
        let radiusSquared = query.radiusMeters * query.radiusMeters
        let best = query.preference == .best
        let polar = abs(query.coordinate.latitude) > Self.polarLatitude
        // Without source or date filters a nearest query never reads the flags and capture times: two
        // arrays, two more cache misses per candidate within the radius.
        let filtered = query.source != .any || query.earliestMinute != .min || query.latestMinute != .max

        var hit = Hit(position: -1, approximateDistanceMeters: .infinity, withinRadius: 0, accepted: 0)
        var bestDistanceSquared = Double.infinity
        var bestRank: Int64 = .min

        latitudesE7.withUnsafeBufferPointer { lats in
        longitudesE7.withUnsafeBufferPointer { lons in
        captureMinutes.withUnsafeBufferPointer { minutes in
        flags.withUnsafeBufferPointer { flagBits in
            forEachCellRange(qLat: qLat, qLon: qLon, radiusMeters: query.radiusMeters, scale: scale) { start, count in
                for i in start..<(start + count) {
                    let dLatE7 = Int64(lats[i]) - qLat
                    var dLonE7 = Int64(lons[i]) - qLon
                    if dLonE7 > 1_800_000_000 { dLonE7 -= 3_600_000_000 } else if dLonE7 < -1_800_000_000 { dLonE7 += 3_600_000_000 }
                    let dy = Double(dLatE7) * scale.latitude, dx = Double(dLonE7) * scale.longitude
                    var d2 = dx * dx + dy * dy
                    if polar { d2 = Self.geodesicDistanceSquared(from: query.coordinate, lats[i], lons[i]) }
                    guard d2 <= radiusSquared else { continue }
                    hit.withinRadius += 1
                    if filtered {
                        guard Self.passesFilters(flags: flagBits[i], minute: minutes[i], query) else { continue }
                    }
                    hit.accepted += 1
                    if best {
                        let rank = Self.preferenceRank(flags: flagBits[i], minute: minutes[i])
                        if rank > bestRank || (rank == bestRank && d2 < bestDistanceSquared) {
                            bestRank = rank
                            bestDistanceSquared = d2
                            hit.position = i
                        }
                    } else if d2 < bestDistanceSquared || (d2 == bestDistanceSquared && i < hit.position) {
                        bestDistanceSquared = d2
                        hit.position = i
                    }
                }
            }
        }}}}
        if hit.position >= 0 { hit.approximateDistanceMeters = bestDistanceSquared.squareRoot() }
        return hit
    }

    /// Above this latitude, degrees, candidates are measured with Karney's algorithm.
    static let polarLatitude = 80.0

    /// Squared Karney distance to a stored point (the polar path).
    static func geodesicDistanceSquared(from origin: GeoCoordinate, _ latitudeE7: Int32, _ longitudeE7: Int32) -> Double {
        guard let point = try? GeoCoordinate(latitude: Double(latitudeE7) / 1e7,
                                             normalizingLongitude: Double(longitudeE7) / 1e7) else { return .infinity }
        let d = Geodesic.wgs84.inverse(from: origin, to: point).distanceMeters
        return d * d
    }

    /// Every position within `radiusMeters` of `coordinate` with its approximate distance, nearest
    /// first (ties by position). Allocates; for building links, not for the query path.
    func positions(within radiusMeters: Double, of coordinate: (latitude: Double, longitude: Double))
        -> [(position: Int, distanceMeters: Double)] {
        let qLat = Int64((coordinate.latitude * 1e7).rounded()), qLon = Int64((coordinate.longitude * 1e7).rounded())
        let scale = Self.metersPerE7(atLatitude: coordinate.latitude)
        var found: [(position: Int, distanceMeters: Double)] = []
        forEachCellRange(qLat: qLat, qLon: qLon, radiusMeters: radiusMeters, scale: scale) { start, count in
            for i in start..<(start + count) {
                var dLonE7 = Int64(longitudesE7[i]) - qLon
                if dLonE7 > 1_800_000_000 { dLonE7 -= 3_600_000_000 } else if dLonE7 < -1_800_000_000 { dLonE7 += 3_600_000_000 }
                let dy = Double(Int64(latitudesE7[i]) - qLat) * scale.latitude, dx = Double(dLonE7) * scale.longitude
                var d = (dx * dx + dy * dy).squareRoot()
                if abs(coordinate.latitude) > Self.polarLatitude, let origin = try? GeoCoordinate(latitude: coordinate.latitude,
                                                                                                  normalizingLongitude: coordinate.longitude) {
                    d = Self.geodesicDistanceSquared(from: origin, latitudesE7[i], longitudesE7[i]).squareRoot()
                }
                if d <= radiusMeters { found.append((i, d)) }
            }
        }
        return found.sorted { $0.distanceMeters < $1.distanceMeters || ($0.distanceMeters == $1.distanceMeters && $0.position < $1.position) }
    }

    /// The coordinate stored for index position `i` (0..<count), degrees, rounded to 1e-7°.
    public func coordinate(at i: Int) -> (latitude: Double, longitude: Double) {
        (Double(latitudesE7[i]) / 1e7, Double(longitudesE7[i]) / 1e7)
    }
}
