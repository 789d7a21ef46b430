import Foundation

extension PostGISCatalogStore {
    func panoramas(matching search: PanoramaSearch) throws(CatalogError) -> [(row: Int, record: PanoramaRecord)] {
        let (sql, values) = search.sql(placeholder: { "$\($0)" }) { south, west, north, east in
            "p.geog::geometry && ST_MakeEnvelope(\(west), \(south), \(east), \(north), 4326)"
        }
        let location = location
        return try pool.read { connection throws(CatalogError) in
            let result = try connection.execute(sql, values.map(\.text))
            var found: [(row: Int, record: PanoramaRecord)] = []
            for r in 0..<result.rowCount { found.append((result.int(r, PanoramaSearch.rowColumn), try PanoramaRecord(reading: result, row: r, location: location))) }
            return found
        }
    }

    func sequences(after name: String?, named names: [String]?, limit: Int) throws(CatalogError) -> [CatalogSequence] {
        let (sql, values) = CatalogSequence.pageSQL(after: name, named: names, limit: limit, collate: " COLLATE \"C\"",
                                                    placeholder: { "$\($0)" })
        return try pool.read { connection throws(CatalogError) in
            let result = try connection.execute(sql, values.map(\.text))
            let page = (0..<result.rowCount).map { (id: result.int($0, 0), name: result.string($0, 1), count: result.int($0, 2)) }
            guard !page.isEmpty else { return [] }
            let extent = try connection.execute(CatalogSequence.extentSQL(ids: page.map(\.id)))
            var extents: [Int: (Double, Double, Double, Double, Double, Double)] = [:]
            for r in 0..<extent.rowCount {
                extents[extent.int(r, 0)] = (extent.double(r, 1), extent.double(r, 2), extent.double(r, 3), extent.double(r, 4),
                                             extent.double(r, 5), extent.double(r, 6))
            }
            return CatalogSequence.assemble(page, extents: extents)
        }
    }
}
