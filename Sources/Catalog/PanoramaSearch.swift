import Foundation
import Geodesy

/// A search over the catalog's panoramas (what a STAC item search asks): a latitude/longitude box,
/// a capture-time window, ids, sequences, and where a page starts. Both stores answer it with one SQL
/// query (``sql(placeholder:boxPredicate:)``), ordered by row (the ingest order, stable between pages)
/// or, within one sequence, by position in it.
public struct PanoramaSearch: Sendable, Hashable {
    /// A latitude/longitude box, degrees, edges included (`west ≤ east`: split a box across the 180th
    /// meridian in two searches).
    public struct Box: Sendable, Hashable {
        public var south: Double, west: Double, north: Double, east: Double
        public init(south: Double, west: Double, north: Double, east: Double) {
            (self.south, self.west, self.north, self.east) = (south, west, north, east)
        }
        /// Whether `coordinate` lies inside (edges included).
        public func contains(_ coordinate: GeoCoordinate) -> Bool {
            coordinate.latitude >= south && coordinate.latitude <= north && coordinate.longitude >= west && coordinate.longitude <= east
        }
    }

    /// How results are ordered (and what ``after`` counts).
    public enum Order: Sendable, Hashable {
        /// By row, the ingest order: ``after`` is a row.
        case row
        /// By position in the sequence (searches of one sequence): ``after`` is a sequence index.
        case sequenceIndex
    }

    /// Only panoramas inside this box; nil: anywhere.
    public var box: Box?
    /// Only panoramas captured at or after this time; nil: no lower bound.
    public var capturedFrom: Date?
    /// Only panoramas captured at or before this time; nil: no upper bound.
    public var capturedTo: Date?
    /// Only these panorama ids; nil: any.
    public var ids: [String]?
    /// Only panoramas of these sequences (names); nil: any.
    public var sequences: [String]?
    /// Results at most, 1…10,000.
    public var limit: Int
    /// Results start after this row (``Order/row``) or sequence index (``Order/sequenceIndex``); -1: from the start.
    public var after: Int
    /// How results are ordered.
    public var order: Order

    /// The search that matches every panorama, `limit` at a time.
    public init(box: Box? = nil, capturedFrom: Date? = nil, capturedTo: Date? = nil, ids: [String]? = nil,
                sequences: [String]? = nil, limit: Int = 10, after: Int = -1, order: Order = .row) {
        (self.box, self.capturedFrom, self.capturedTo, self.ids, self.sequences) = (box, capturedFrom, capturedTo, ids, sequences)
        (self.limit, self.after, self.order) = (limit, after, order)
    }

    /// Results a page may hold at most (as STAC APIs allow).
    public static let limitRange = 1...10_000

    /// One bound value of the query, in order.
    enum Value: Hashable {
        case double(Double), int(Int), text(String)

        /// The value as PostgreSQL's text protocol takes it.
        var text: String {
            switch self {
            case .double(let value): "\(value)"
            case .int(let value): "\(value)"
            case .text(let value): value
            }
        }
    }

    /// Where ``PanoramaRecord/selectColumns`` puts `p.row` (0-based).
    static let rowColumn = PanoramaRecord.selectColumns.split(separator: ",")
        .firstIndex { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "p.row" } ?? 0

    /// The query (selecting ``PanoramaRecord/selectColumns``, the row at ``rowColumn``) and its values
    /// in order. `placeholder(n)` spells the n-th (1-based) parameter; `boxPredicate(s, w, n, e)` is the
    /// store's indexed test of the box, given the placeholders of its four edges.
    func sql(placeholder: (Int) -> String,
             boxPredicate: (_ south: String, _ west: String, _ north: String, _ east: String) -> String) -> (String, [Value]) {
        var values: [Value] = []
        func bind(_ value: Value) -> String {
            values.append(value)
            return placeholder(values.count)
        }
        var conditions: [String] = []
        if let box {
            let s = bind(.double(box.south)), w = bind(.double(box.west)), n = bind(.double(box.north)), e = bind(.double(box.east))
            conditions.append(boxPredicate(s, w, n, e))
            conditions.append("p.latitude >= \(s) AND p.latitude <= \(n) AND p.longitude >= \(w) AND p.longitude <= \(e)")
        }
        if let capturedFrom { conditions.append("p.capture_time >= \(bind(.double(capturedFrom.timeIntervalSince1970)))") }
        if let capturedTo { conditions.append("p.capture_time <= \(bind(.double(capturedTo.timeIntervalSince1970)))") }
        if let ids { conditions.append(ids.isEmpty ? "0 = 1" : "p.id IN (\(ids.map { bind(.text($0)) }.joined(separator: ", ")))") }
        if let sequences {
            conditions.append(sequences.isEmpty ? "0 = 1" : "s.name IN (\(sequences.map { bind(.text($0)) }.joined(separator: ", ")))")
        }
        let orderColumn = order == .row ? "p.row" : "p.sequence_index"
        if after >= 0 { conditions.append("\(orderColumn) > \(bind(.int(after)))") }
        let limitText = bind(.int(limit))
        let whereText = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let order = self.order == .row ? "p.row" : "s.name, p.sequence_index, p.row"
        return ("SELECT \(PanoramaRecord.selectColumns) FROM panoramas p JOIN sequences s ON s.id = p.sequence"
                + "\(whereText) ORDER BY \(order) LIMIT \(limitText)", values)
    }
}

/// One page of panoramas a search found: the records with their rows, and where the next page starts
/// (nil: this is the last).
public struct PanoramaPage: Sendable {
    /// The panoramas, in the search's order.
    public var records: [PanoramaRecord]
    /// The value of ``PanoramaSearch/after`` that gives the next page; nil when there is none.
    public var next: Int?
}

/// A sequence as a whole: its name, how many panoramas it holds, where and when they were captured.
public struct CatalogSequence: Sendable, Hashable {
    /// The sequence's name (its id in the catalog and in STAC).
    public var name: String
    /// Panoramas in it.
    public var panoramaCount: Int
    /// Its panoramas' bounding box, degrees.
    public var south: Double, west: Double, north: Double, east: Double
    /// The first and last capture times.
    public var firstCapture: Date, lastCapture: Date
}

extension CatalogSequence {
    /// The two queries of a page of sequences, for either store: the page's names (byte order, after
    /// `name`, only `names` when given) and then their panoramas' extents. `placeholder(n)` spells the
    /// n-th parameter; `collate` is what makes the store compare names by bytes ("" for SQLite).
    static func pageSQL(after name: String?, named names: [String]?, limit: Int, collate: String,
                        placeholder: (Int) -> String) -> (String, [PanoramaSearch.Value]) {
        var values: [PanoramaSearch.Value] = []
        func bind(_ value: PanoramaSearch.Value) -> String {
            values.append(value)
            return placeholder(values.count)
        }
        var conditions: [String] = []
        if let name { conditions.append("name\(collate) > \(bind(.text(name)))") }
        if let names { conditions.append(names.isEmpty ? "0 = 1" : "name IN (\(names.map { bind(.text($0)) }.joined(separator: ", ")))") }
        let whereText = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT id, name, panorama_count FROM sequences\(whereText) ORDER BY name\(collate) LIMIT \(bind(.int(limit)))", values)
    }

    /// The extents of the sequences with these ids: id, south, west, north, east, first and last capture.
    static func extentSQL(ids: [Int]) -> String {
        """
        SELECT sequence, min(latitude), min(longitude), max(latitude), max(longitude), min(capture_time), max(capture_time)
        FROM panoramas WHERE sequence IN (\(ids.map(String.init).joined(separator: ", "))) GROUP BY sequence
        """
    }

    /// Joins a page of (id, name, count) with the extents by id, in the page's order.
    static func assemble(_ page: [(id: Int, name: String, count: Int)],
                         extents: [Int: (Double, Double, Double, Double, Double, Double)]) -> [CatalogSequence] {
        page.compactMap { entry in
            guard let (south, west, north, east, first, last) = extents[entry.id] else { return nil }
            return CatalogSequence(name: entry.name, panoramaCount: entry.count, south: south, west: west, north: north, east: east,
                                   firstCapture: Date(timeIntervalSince1970: first), lastCapture: Date(timeIntervalSince1970: last))
        }
    }
}
