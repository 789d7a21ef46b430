import Foundation

extension SQLiteCatalogStore {
    func panoramas(matching search: PanoramaSearch) throws(CatalogError) -> [(row: Int, record: PanoramaRecord)] {
        // The R*Tree holds 32-bit bounds rounded outward: it is asked for the boxes that overlap the
        // search's (a point just inside an edge has a stored minimum just outside it); the exact test
        // of the coordinates follows in the query.
        let (sql, values) = search.sql(placeholder: { "?\($0)" }) { south, west, north, east in
            "p.row IN (SELECT row FROM panorama_rtree WHERE max_lat >= \(south) AND min_lat <= \(north) "
                + "AND max_lon >= \(west) AND min_lon <= \(east))"
        }
        return try withLock { () throws(CatalogError) -> [(row: Int, record: PanoramaRecord)] in
            let statement = try database.prepare(sql)
            try Self.bind(values, to: statement)
            var found: [(row: Int, record: PanoramaRecord)] = []
            while try statement.step() { found.append((statement.int(Int32(PanoramaSearch.rowColumn)), try PanoramaRecord(reading: statement, path: path))) }
            return found
        }
    }

    func sequences(after name: String?, named names: [String]?, limit: Int) throws(CatalogError) -> [CatalogSequence] {
        let (sql, values) = CatalogSequence.pageSQL(after: name, named: names, limit: limit, collate: "", placeholder: { "?\($0)" })
        return try withLock { () throws(CatalogError) -> [CatalogSequence] in
            let statement = try database.prepare(sql)
            try Self.bind(values, to: statement)
            var page: [(id: Int, name: String, count: Int)] = []
            while try statement.step() { page.append((statement.int(0), statement.string(1), statement.int(2))) }
            guard !page.isEmpty else { return [] }
            let extent = try database.prepare(CatalogSequence.extentSQL(ids: page.map(\.id)))
            var extents: [Int: (Double, Double, Double, Double, Double, Double)] = [:]
            while try extent.step() {
                extents[extent.int(0)] = (extent.double(1), extent.double(2), extent.double(3), extent.double(4), extent.double(5),
                                          extent.double(6))
            }
            return CatalogSequence.assemble(page, extents: extents)
        }
    }

    private static func bind(_ values: [PanoramaSearch.Value], to statement: SQLiteDatabase.Statement) throws(CatalogError) {
        for (i, value) in values.enumerated() {
            switch value {
            case .double(let number): try statement.bind(Int32(i + 1), number)
            case .int(let number): try statement.bind(Int32(i + 1), number)
            case .text(let text): try statement.bind(Int32(i + 1), text)
            }
        }
    }
}
