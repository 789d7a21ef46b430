import Foundation

extension Catalog {
    /// The best match for a place name given with `--near` (search ranking, names in `language` when
    /// given); `CatalogError.placeNotFound` when nothing matches.
    public func place(named name: String, language: String?) throws -> PlaceMatch {
        guard let match = try searchPlaces(PlaceSearchQuery(text: name, language: language, limit: 1)).first else {
            throw CatalogError.placeNotFound(name: name)
        }
        return match
    }
}
