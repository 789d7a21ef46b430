import Foundation
import Geodesy

/// The in-memory index that answers "which panorama is nearest to this point within R metres?"
/// without SQL: 21 bytes per panorama plus two hash tables of grid cells.
///
/// **Layout.** Positions are stored as 1e-7-degree integers (≈ 1 cm). Two grids of latitude/longitude
/// cells: fine cells of 1/1024° (≈ 109 m north–south, 54 m east–west at 60° N) and coarse cells of
/// 64 × 64 fine cells. Points are sorted by (coarse cell, fine cell within it), so each fine and each
/// coarse cell is one contiguous range. A query visits the fine cells overlapping the circle's bounding
/// box (the coarse cells when that would be more than 1,024 fine cells), wrapping across the 180th
/// meridian. Fine cells are found through a ``CellBlockTable``, whose 64-byte slot holds the cell's
/// range and its first twelve points, each packed in 32 bits as its exact offset from the cell's
/// origin (14 + 14 bits of 1e-7°) and its three flags: a nearest-within-50 m query reads one cache line
/// per cell it visits (2 × 3 cells at 60° N) and, for cells of more than twelve points, the packed
/// rest. Coarse cells go through a ``CellTable`` to the plain arrays.
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
    private let fineCells: CellBlockTable
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
    /// Up to this many fine cells, a query finds all their slots before scanning any (768 bytes of cells
    /// on the stack).
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

    /// Bits of one coordinate's offset from its fine cell's origin in a packed point (a cell spans at most
    /// 9,766 × 1e-7°).
    static let offsetBits: UInt32 = 14
    static let offsetMask: UInt32 = 1 << offsetBits - 1

    // MARK: Cells

    @inline(__always) static func row(latitudeE7: Int64) -> Int64 {
        min(max(((latitudeE7 + 900_000_000) * cellsPerDegree) / 10_000_000, 0), fineRows - 1)
    }

    @inline(__always) static func column(longitudeE7: Int64) -> Int64 {
        // Rounded down, also west of −180° (a query's box reaching across the antimeridian from the
        // west): division truncating toward zero put −180.0004° in column 0 instead of the last column,
        // and the cells just west of +180° were never visited (found by the brute-force test).
        let shifted = (longitudeE7 + 1_800_000_000) * cellsPerDegree
        let c = shifted >= 0 ? shifted / 10_000_000 : (shifted - 9_999_999) / 10_000_000
        return ((c % fineColumns) + fineColumns) % fineColumns
    }

    /// The smallest latitude × 1e7 in fine row `row`.
    @inline(__always) static func latitudeOriginE7(row: Int64) -> Int64 {
        (row * 10_000_000 + cellsPerDegree - 1) / cellsPerDegree - 900_000_000
    }

    /// The smallest longitude × 1e7 in fine column `column`.
    @inline(__always) static func longitudeOriginE7(column: Int64) -> Int64 {
        (column * 10_000_000 + cellsPerDegree - 1) / cellsPerDegree - 1_800_000_000
    }

    /// A point as the fine-cell table stores it: latitude offset from the cell's origin (bits 0–13),
    /// longitude offset (bits 14–27; +180° is stored as −180°, the same meridian, which no distance can
    /// tell apart), flags (bits 28–30).
    static func packedPoint(latitudeE7: Int32, longitudeE7: Int32, row: Int64, column: Int64, flags: UInt8) -> UInt32 {
        let latitudeOffset = Int64(latitudeE7) - latitudeOriginE7(row: row)
        var longitudeOffset = Int64(longitudeE7) - longitudeOriginE7(column: column)
        if longitudeOffset >= 3_600_000_000 { longitudeOffset -= 3_600_000_000 }
        precondition(latitudeOffset >= 0 && latitudeOffset <= Int64(offsetMask) && longitudeOffset >= 0
                     && longitudeOffset <= Int64(offsetMask), "point \(latitudeE7), \(longitudeE7) outside its cell \(row), \(column)")
        return UInt32(latitudeOffset) | UInt32(longitudeOffset) << offsetBits | UInt32(flags & 7) << (2 * offsetBits)
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
        var packed: [UInt32] = []
        fineKeys.reserveCapacity(sortedLatitudes.count)
        packed.reserveCapacity(sortedLatitudes.count)
        for i in 0..<sortedLatitudes.count {
            let row = Self.row(latitudeE7: Int64(sortedLatitudes[i])), column = Self.column(longitudeE7: Int64(longitudes[i]))
            fineKeys.append(Self.fineKey(row: row, column: column))
            packed.append(Self.packedPoint(latitudeE7: sortedLatitudes[i], longitudeE7: longitudes[i], row: row, column: column,
                                           flags: flags[i]))
        }
        // Count distinct coarse cells first so the table is sized once.
        var coarseDistinct = 0
        var previousCoarse = UInt64.max
        for key in fineKeys where key >> 12 != previousCoarse { coarseDistinct += 1; previousCoarse = key >> 12 }
        var coarse = CellTable(expectedCells: coarseDistinct)
        var i = 0
        var coarseStart = 0
        while i < fineKeys.count {
            var j = i + 1
            while j < fineKeys.count && fineKeys[j] == fineKeys[i] { j += 1 }
            if j == fineKeys.count || fineKeys[j] >> 12 != fineKeys[i] >> 12 {
                // The fine key's top bits are coarseRow << 13 | coarseColumn.
                coarse.insert(fineKeys[i] >> 12, start: UInt32(coarseStart), count: UInt32(j - coarseStart))
                coarseStart = j
            }
            i = j
        }
        fineCells = CellBlockTable(keys: fineKeys, packed: packed)
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

        /// A hit (for buffers that ``SceneQueryIndex/search(_:into:)`` fills).
        public init(position: Int, approximateDistanceMeters: Double, withinRadius: Int, accepted: Int) {
            self.position = position
            self.approximateDistanceMeters = approximateDistanceMeters
            self.withinRadius = withinRadius
            self.accepted = accepted
        }
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

    /// A query's cells, worked out once (a batch works out the next queries' ahead, to prefetch their slots).
    struct Plan {
        /// The query point, 1e-7 degrees.
        var qLat: Int64, qLon: Int64
        var scale: (latitude: Double, longitude: Double)
        /// Fine rows `row0...row1` and `columnCount` fine columns from `column0`, wrapping at the 180th meridian.
        var row0: Int64, row1: Int64, column0: Int64, columnCount: Int64
        var fineCellCount: Int64 { (row1 - row0 + 1) * columnCount }
    }

    /// The fine cells overlapping the bounding box of the circle of `radius` metres around the point.
    @inline(__always)
    static func plan(latitude: Double, longitude: Double, radiusMeters radius: Double) -> Plan {
        let qLat = Int64((latitude * 1e7).rounded()), qLon = Int64((longitude * 1e7).rounded())
        let scale = metersPerE7(atLatitude: latitude)
        let latSpan = Int64((radius / scale.latitude).rounded(.up)) + 1
        let lonSpan = scale.longitude > 0 ? (radius / scale.longitude).rounded(.up) + 1 : .infinity
        let row0 = row(latitudeE7: qLat - latSpan), row1 = row(latitudeE7: qLat + latSpan)
        var column0: Int64, columnCount: Int64
        if lonSpan >= 1.8e9 {
            column0 = 0
            columnCount = fineColumns
        } else {
            let span = Int64(lonSpan)
            column0 = column(longitudeE7: qLon - span)
            let column1 = column(longitudeE7: qLon + span)
            columnCount = (column1 - column0 + fineColumns) % fineColumns + 1
        }
        return Plan(qLat: qLat, qLon: qLon, scale: scale, row0: row0, row1: row1, column0: column0, columnCount: columnCount)
    }

    /// Prefetches the first slot of each of the plan's fine cells (when it visits few enough to batch).
    @inline(__always)
    func prefetch(_ plan: Plan) {
        guard plan.fineCellCount <= Self.batchedFineCells else { return }
        for r in plan.row0...plan.row1 {
            for k in 0..<plan.columnCount { fineCells.prefetch(Self.fineKey(row: r, column: (plan.column0 + k) % Self.fineColumns)) }
        }
    }

    /// A non-empty fine cell a query visits: its slot in ``CellBlockTable`` and the cell's origin, 1e-7 degrees.
    typealias FineCell = (slot: UnsafeRawPointer, latitudeOriginE7: Int64, longitudeOriginE7: Int64)

    /// Calls `fine` for each non-empty fine cell that may hold points within the plan's radius, or, when
    /// that would be more than ``maximumFineCells`` cells, `coarse(start, count)` for each non-empty coarse
    /// cell; rows south to north, columns west to east from `column0` (the order ties are broken in).
    @inline(__always)
    private func forEachCell(_ plan: Plan, fine: (FineCell) -> Void, coarse: (Int, Int) -> Void) {
        let cells = plan.fineCellCount
        if cells > Self.maximumFineCells {
            let coarseColumns = Self.fineColumns >> Self.coarseShift
            let c0 = plan.column0 >> Self.coarseShift
            let c1 = (plan.column0 + plan.columnCount - 1) >> Self.coarseShift
            let n = min(c1 - c0 + 1, coarseColumns)
            for r in (plan.row0 >> Self.coarseShift)...(plan.row1 >> Self.coarseShift) {
                for k in 0..<n {
                    let range = coarseCells.lookup(Self.coarseKey(row: r, column: (c0 + k) % coarseColumns))
                    if range.count > 0 { coarse(range.start, range.count) }
                }
            }
        } else if cells <= Self.batchedFineCells {
            // The common case (a radius of tens of metres: 2 × 3 cells): every cell's slot is found before
            // any is scanned, so the slot loads (one cache line each, the cell's first twelve points
            // included) are in flight together instead of each waiting behind the previous cell's scan.
            withUnsafeTemporaryAllocation(of: FineCell.self, capacity: Int(Self.batchedFineCells)) { found in
                var n = 0
                for r in plan.row0...plan.row1 {
                    let latitudeOrigin = Self.latitudeOriginE7(row: r)
                    for k in 0..<plan.columnCount {
                        let column = (plan.column0 + k) % Self.fineColumns
                        if let slot = fineCells.slot(Self.fineKey(row: r, column: column)) {
                            (found.baseAddress! + n).initialize(to: (slot, latitudeOrigin, Self.longitudeOriginE7(column: column)))
                            n += 1
                        }
                    }
                }
                for i in 0..<n { fine(found[i]) }
            }
        } else {
            for r in plan.row0...plan.row1 {
                let latitudeOrigin = Self.latitudeOriginE7(row: r)
                for k in 0..<plan.columnCount {
                    let column = (plan.column0 + k) % Self.fineColumns
                    if let slot = fineCells.slot(Self.fineKey(row: r, column: column)) {
                        fine((slot, latitudeOrigin, Self.longitudeOriginE7(column: column)))
                    }
                }
            }
        }
    }

    /// Calls `body(start, count)` for each non-empty cell range that may hold points within the plan's radius.
    @inline(__always)
    private func forEachCellRange(_ plan: Plan, _ body: (Int, Int) -> Void) {
        forEachCell(plan, fine: { cell in
            body(Int(cell.slot.load(fromByteOffset: 8, as: UInt32.self)), Int(cell.slot.load(fromByteOffset: 12, as: UInt32.self)))
        }, coarse: body)
    }

    /// The running choice of a search: the counts and the nearest (or best) accepted point so far.
    private struct Choice {
        var hit = Hit(position: -1, approximateDistanceMeters: .infinity, withinRadius: 0, accepted: 0)
        var bestDistanceSquared = Double.infinity
        var bestRank: Int64 = .min

        /// Position `i`, within the radius at squared distance `d2`, with its `flags`.
        @inline(__always)
        mutating func consider(_ i: Int, distanceSquared d2: Double, flags: UInt8, minutes: UnsafeBufferPointer<Int32>,
                               _ query: Query, filtered: Bool, best: Bool) {
            hit.withinRadius += 1
            if filtered {
                guard SceneQueryIndex.passesFilters(flags: flags, minute: minutes[i], query) else { return }
            }
            hit.accepted += 1
            if best {
                let rank = SceneQueryIndex.preferenceRank(flags: flags, minute: minutes[i])
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

    /// The nearest (or best) panorama within the query's radius that passes its filters.
    ///
    /// Allocation-free; visits the cells overlapping the circle's bounding box. For many queries at once,
    /// ``search(_:into:)`` gives the same answers faster.
    public func search(_ query: Query) -> Hit {
        search(query, plan: Self.plan(latitude: query.coordinate.latitude, longitude: query.coordinate.longitude,
                                      radiusMeters: query.radiusMeters))
    }

    /// Queries answered ahead of the one being searched in ``search(_:into:)``: their slots are prefetched.
    static let prefetchDistance = 8

    /// Answers `queries` in order into `hits` (`hits.count` ≥ `queries.count`), each exactly as
    /// ``search(_:)`` answers it. While one query is searched, the cells of the query
    /// ``prefetchDistance`` places ahead are worked out and their slots prefetched, so a batch's cache
    /// misses overlap instead of following one another. Allocation-free.
    public func search(_ queries: UnsafeBufferPointer<Query>, into hits: UnsafeMutableBufferPointer<Hit>) {
        precondition(hits.count >= queries.count, "\(hits.count) hits for \(queries.count) queries")
        let n = queries.count, ahead = Self.prefetchDistance
        @inline(__always) func plan(_ i: Int) -> Plan {
            Self.plan(latitude: queries[i].coordinate.latitude, longitude: queries[i].coordinate.longitude,
                      radiusMeters: queries[i].radiusMeters)
        }
        withUnsafeTemporaryAllocation(of: Plan.self, capacity: ahead) { ring in
            for i in 0..<min(ahead, n) {
                let next = plan(i)
                prefetch(next)
                (ring.baseAddress! + i).initialize(to: next)
            }
            for i in 0..<n {
                let current = ring[i % ahead]
                if i + ahead < n {
                    let next = plan(i + ahead)
                    prefetch(next)
                    ring[i % ahead] = next
                }
                hits[i] = search(queries[i], plan: current)
            }
        }
    }

    /// `search(query)` over the cells of `plan` (which is `Self.plan` of the query's point and radius).
    @inline(__always)
    private func search(_ query: Query, plan: Plan) -> Hit {
        let qLat = plan.qLat, qLon = plan.qLon, scale = plan.scale
        let radiusSquared = query.radiusMeters * query.radiusMeters
        let best = query.preference == .best
        let polar = abs(query.coordinate.latitude) > Self.polarLatitude
        // Without source or date filters a nearest query never reads the capture times (the flags it
        // would need are packed beside the coordinates).
        let filtered = query.source != .any || query.earliestMinute != .min || query.latestMinute != .max
        var choice = Choice()

        latitudesE7.withUnsafeBufferPointer { lats in
        longitudesE7.withUnsafeBufferPointer { lons in
        captureMinutes.withUnsafeBufferPointer { minutes in
        flags.withUnsafeBufferPointer { flagBits in
            let packedPoints = fineCells.packedPoints
            forEachCell(plan, fine: { cell in
                let start = Int(cell.slot.load(fromByteOffset: 8, as: UInt32.self))
                let count = Int(cell.slot.load(fromByteOffset: 12, as: UInt32.self))
                // Integer offsets from the query to the cell's origin: a point's offset is exact, so the
                // distances are those of the stored 1e-7° positions, bit for bit.
                let latitudeBase = cell.latitudeOriginE7 - qLat, longitudeBase = cell.longitudeOriginE7 - qLon
                @inline(__always) func consider(_ word: UInt32, _ i: Int) {
                    let dLatE7 = latitudeBase + Int64(word & Self.offsetMask)
                    var dLonE7 = longitudeBase + Int64((word >> Self.offsetBits) & Self.offsetMask)
                    if dLonE7 > 1_800_000_000 { dLonE7 -= 3_600_000_000 } else if dLonE7 < -1_800_000_000 { dLonE7 += 3_600_000_000 }
                    let dy = Double(dLatE7) * scale.latitude, dx = Double(dLonE7) * scale.longitude
                    var d2 = dx * dx + dy * dy
                    if polar { d2 = Self.geodesicDistanceSquared(from: query.coordinate, lats[i], lons[i]) }
                    guard d2 <= radiusSquared else { return }
                    choice.consider(i, distanceSquared: d2, flags: UInt8(truncatingIfNeeded: word >> (2 * Self.offsetBits)),
                                    minutes: minutes, query, filtered: filtered, best: best)
                }
                let inline = (cell.slot + 16).assumingMemoryBound(to: UInt32.self)
                let first = min(count, CellBlockTable.inlinePoints)
                for j in 0..<first { consider(inline[j], start + j) }
                if count > first {
                    for i in (start + first)..<(start + count) { consider(packedPoints[i], i) }
                }
            }, coarse: { start, count in
                for i in start..<(start + count) {
                    let dLatE7 = Int64(lats[i]) - qLat
                    var dLonE7 = Int64(lons[i]) - qLon
                    if dLonE7 > 1_800_000_000 { dLonE7 -= 3_600_000_000 } else if dLonE7 < -1_800_000_000 { dLonE7 += 3_600_000_000 }
                    let dy = Double(dLatE7) * scale.latitude, dx = Double(dLonE7) * scale.longitude
                    var d2 = dx * dx + dy * dy
                    if polar { d2 = Self.geodesicDistanceSquared(from: query.coordinate, lats[i], lons[i]) }
                    guard d2 <= radiusSquared else { continue }
                    choice.consider(i, distanceSquared: d2, flags: flagBits[i], minutes: minutes, query, filtered: filtered, best: best)
                }
            })
        }}}}
        var hit = choice.hit
        if hit.position >= 0 { hit.approximateDistanceMeters = choice.bestDistanceSquared.squareRoot() }
        return hit
    }

    /// The distinct 64-byte lines of the index that ``search(_:)`` reads for an unfiltered nearest `query`
    /// (slots probed, packed points past a cell's first twelve, and for coarse cells the two coordinate
    /// arrays), and the lines the layout before the cell table read for the same cells (a 16-byte slot per
    /// cell, then each non-empty cell's latitudes and longitudes from two arrays). On a catalog far larger
    /// than the caches each line is a cache miss: the benchmark's measure of the layout against its limit.
    public func linesRead(_ query: Query) -> (cellTable: Int, previousLayout: Int) {
        let plan = Self.plan(latitude: query.coordinate.latitude, longitude: query.coordinate.longitude, radiusMeters: query.radiusMeters)
        func lines(_ start: Int, _ count: Int, bytes: Int) -> Int {
            count == 0 ? 0 : (start + count - 1) * bytes / 64 - start * bytes / 64 + 1
        }
        var current = 0, previous = 0
        if plan.fineCellCount <= Self.maximumFineCells {
            for r in plan.row0...plan.row1 {
                for k in 0..<plan.columnCount {
                    let key = Self.fineKey(row: r, column: (plan.column0 + k) % Self.fineColumns)
                    current += fineCells.probes(key)
                    previous += 1
                    guard let slot = fineCells.slot(key) else { continue }
                    let start = Int(slot.load(fromByteOffset: 8, as: UInt32.self)), count = Int(slot.load(fromByteOffset: 12, as: UInt32.self))
                    if count > CellBlockTable.inlinePoints {
                        current += lines(start + CellBlockTable.inlinePoints, count - CellBlockTable.inlinePoints, bytes: 4)
                    }
                    previous += 2 * lines(start, count, bytes: 4)
                }
            }
        } else {
            forEachCellRange(plan) { start, count in
                current += 1 + 2 * lines(start, count, bytes: 4)
                previous += 1 + 2 * lines(start, count, bytes: 4)
            }
        }
        return (current, previous)
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
        let plan = Self.plan(latitude: coordinate.latitude, longitude: coordinate.longitude, radiusMeters: radiusMeters)
        let qLat = plan.qLat, qLon = plan.qLon, scale = plan.scale
        var found: [(position: Int, distanceMeters: Double)] = []
        forEachCellRange(plan) { start, count in
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
