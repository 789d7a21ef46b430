import Catalog
import Foundation
import Geodesy

/// A STAC API 1.0 (core, collections, OGC API Features, item search, browseable) under `/api`, shaped
/// as Panoramax's server (geovisio) answers, so pystac-client, QGIS and Panoramax's own tools read the
/// catalog unchanged: a collection per sequence, an item per panorama. Reads are open unless the
/// server has API keys (`--api-key-file`), like every other read route.
struct STACRoutes: RouteFamily {
    let catalog: Catalog
    /// The names uploaded pictures were sent with (nil: no uploads).
    var uploadedNames: (any UploadedFileNames)? = nil

    /// Sequences the landing page links as children at most (browseable; `/api/collections` pages all).
    static let landingChildren = 10_000

    var routes: [Route] {
        [Route(.get, PathPattern("/api"), label: "stac_landing", errors: .stac, parameters: [], .answer { try landing($0) }),
         Route(.get, PathPattern("/api/"), label: "stac_landing_slash", errors: .stac, parameters: [], .answer { try landing($0) }),
         Route(.get, PathPattern("/api/conformance"), label: "stac_conformance", errors: .stac, parameters: [],
               .answer { .json(STACDocuments(request: $0).conformanceDocument()) }),
         Route(.get, PathPattern("/api/collections"), label: "stac_collections", errors: .stac, parameters: ["limit", "page"],
               .answer { try collections($0) }),
         Route(.get, PathPattern("/api/collections/{id}", accepts: { CollectionPath($0).map { $0.kind == .collection } ?? false }),
               label: "stac_collection", errors: .stac, parameters: [], .answer { try collection($0) }),
         Route(.get, PathPattern("/api/collections/{id}/items", accepts: { CollectionPath($0)?.kind == .items }),
               label: "stac_items", errors: .stac, parameters: Self.itemsParameters, .answer { try items($0) }),
         Route(.get, PathPattern("/api/collections/{id}/items/{itemId}", accepts: { CollectionPath($0)?.kind == .item }),
               label: "stac_item", errors: .stac, parameters: [], .answer { try item($0) }),
         Route(.get, PathPattern("/api/search"), label: "stac_search", errors: .stac, parameters: nil, .answer { try search($0) }),
         Route(.post, PathPattern("/api/search"), label: "stac_search_post", errors: .stac, parameters: nil, .answer { try search($0) })]
    }

    /// What `/api/collections/{id}/items` takes (OGC API Features' items, as pystac-client asks them:
    /// it sends the collection again as `collections`).
    static let itemsParameters = ["limit", "page", "bbox", "datetime", "ids", "collections"]

    /// What a path under `/api/collections/` names: a collection, its items, or one item. Sequence and
    /// panorama ids may hold slashes: `…/items` at the end names the items, the first `/items/` splits
    /// a sequence from a panorama (the item route checks that the panorama is in that sequence).
    struct CollectionPath {
        enum Kind { case collection, items, item }
        var kind: Kind
        var collection: String
        var candidates: [(collection: String, item: String)] = []

        init?(_ path: String) {
            guard path.hasPrefix("/api/collections/") else { return nil }
            let rest = String(path.dropFirst("/api/collections/".count))
            guard !rest.isEmpty else { return nil }
            if rest.hasSuffix("/items"), rest.count > "/items".count {
                (kind, collection) = (.items, String(rest.dropLast("/items".count)))
                return
            }
            var search = rest.startIndex..<rest.endIndex
            while let found = rest.range(of: "/items/", range: search) {
                if found.lowerBound > rest.startIndex, found.upperBound < rest.endIndex {
                    candidates.append((String(rest[..<found.lowerBound]), String(rest[found.upperBound...])))
                }
                search = rest.index(after: found.lowerBound)..<rest.endIndex
            }
            (kind, collection) = candidates.isEmpty ? (.collection, rest) : (.item, candidates[0].collection)
        }
    }

    func landing(_ request: HTTPRequest) throws -> HTTPResponse {
        let sequences = try catalog.sequences(limit: Self.landingChildren).sequences
        return .json(STACDocuments(request: request).landing(sequences: sequences, panoramaCount: catalog.panoramaCount))
    }

    func collections(_ request: HTTPRequest) throws -> HTTPResponse {
        let parameters = QueryParameters(request: request)
        let limit = try parameters.int("limit", in: 1...1000) ?? 100
        let page = try catalog.sequences(after: parameters.string("page"), limit: limit)
        return .json(STACDocuments(request: request).collections(page.sequences, next: page.next))
    }

    private func sequence(_ name: String) throws -> CatalogSequence {
        guard let sequence = try catalog.sequence(named: name) else { throw ServiceError.unknownResource(kind: "collection", id: name) }
        return sequence
    }

    func collection(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let path = CollectionPath(request.path) else { throw ServiceError.notFound(path: request.path) }
        return .json(STACDocuments(request: request).collection(try sequence(path.collection)))
    }

    func items(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let path = CollectionPath(request.path) else { throw ServiceError.notFound(path: request.path) }
        let sequence = try sequence(path.collection)
        let parameters = QueryParameters(request: request)
        let limit = try parameters.int("limit", in: PanoramaSearch.limitRange) ?? 10
        let after = try parameters.int("page", in: -1...Int(Int32.max)) ?? -1
        var search = PanoramaSearch(sequences: [sequence.name], limit: limit, after: after, order: .sequenceIndex)
        if let text = parameters.string("bbox") { search.box = try STACSearchRequest.box(text) }
        if let text = parameters.string("datetime") { (search.capturedFrom, search.capturedTo) = try STACSearchRequest.interval(text) }
        if let text = parameters.string("ids") { search.ids = try STACSearchRequest.list(text, parameter: "ids") }
        if let text = parameters.string("collections"), !(try STACSearchRequest.list(text, parameter: "collections")).contains(sequence.name) {
            search.ids = []
        }
        let page = try catalog.searchPanoramas(search)
        var documents = STACDocuments(request: request)
        documents.uploadedNames = uploadedNames
        let url = documents.collectionURL(sequence.name) + "/items"
        let kept = request.query.filter { $0.name != "page" && $0.name != "limit" }
            .map { "&\($0.name)=\(STACSearchRequest.queryEscaped($0.value))" }.joined()
        let next = page.next.map { STACSearchRequest.PageLink(href: "\(url)?limit=\(limit)\(kept)&page=\($0)", body: nil) }
        var response = HTTPResponse.json(documents.itemCollection(page.records, selfURL: url, next: next,
                                                                  parent: documents.collectionURL(sequence.name)))
        response.contentType = "application/geo+json"
        return response
    }

    func item(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let path = CollectionPath(request.path) else { throw ServiceError.notFound(path: request.path) }
        for (collection, id) in path.candidates {
            guard let record = try? catalog.panorama(id: id), record.sequenceName == collection else { continue }
            let (previous, next) = try catalog.sequenceNeighbours(of: record)
            let related = try catalog.links(ofPanoramaID: record.id).filter { $0.kind == .proximity }.prefix(8)
                .compactMap { try? catalog.panorama(id: $0.panoramaID) }.filter { $0.sequenceName != record.sequenceName }
            var documents = STACDocuments(request: request)
            documents.uploadedNames = uploadedNames
            var response = HTTPResponse.json(documents.item(record, neighbours: .init(previous: previous, next: next,
                                                                                                          related: related)))
            response.contentType = "application/geo+json"
            return response
        }
        let id = path.candidates.first?.item ?? path.collection
        throw ServiceError.unknownResource(kind: "item in collection '\(path.collection)'", id: id)
    }

    func search(_ request: HTTPRequest) throws -> HTTPResponse {
        let parsed = try STACSearchRequest(request: request)
        var documents = STACDocuments(request: request)
        documents.uploadedNames = uploadedNames
        var records: [PanoramaRecord] = []
        var token: String?
        if let place = parsed.place {
            let found = try catalog.panoramasLooking(at: place.coordinate, distanceMeters: place.distanceMeters,
                                                     toleranceDegrees: place.toleranceDegrees, filter: parsed.search)
                .filter { parsed.search.box?.contains($0.record.coordinate) ?? true }
                .filter { parsed.intersects?.contains($0.record.coordinate) ?? true }
            records = Array(found.dropFirst(parsed.offset).prefix(parsed.search.limit)).map(\.record)
            if parsed.offset + records.count < found.count { token = "o\(parsed.offset + records.count)" }
        } else if let shape = parsed.intersects {
            // The shape's box in SQL, the shape itself here, page after page until the limit is filled.
            var search = parsed.search
            let box = shape.box
            if let given = search.box {
                search.box = PanoramaSearch.Box(south: max(given.south, box.south), west: max(given.west, box.west),
                                                north: min(given.north, box.north), east: min(given.east, box.east))
            } else {
                search.box = box
            }
            if let within = search.box, within.south <= within.north, within.west <= within.east {
                for _ in 0..<64 where records.count < parsed.search.limit {
                    search.limit = parsed.search.limit - records.count
                    let page = try catalog.searchPanoramas(search)
                    records += page.records.filter { shape.contains($0.coordinate) }
                    guard let next = page.next else { token = nil; break }
                    search.after = next
                    token = "r\(next)"
                }
            }
        } else {
            let page = try catalog.searchPanoramas(parsed.search)
            records = page.records
            token = page.next.map { "r\($0)" }
        }
        let selfURL = request.method == "GET" && !request.query.isEmpty
            ? "\(documents.base)/search?" + request.query.map { "\($0.name)=\(STACSearchRequest.queryEscaped($0.value))" }.joined(separator: "&")
            : "\(documents.base)/search"
        let next = token.map { parsed.nextLink(base: documents.base, method: request.method, token: $0) }
        var response = HTTPResponse.json(documents.itemCollection(records, selfURL: selfURL, next: next))
        response.contentType = "application/geo+json"
        return response
    }
}
