import Catalog
import Foundation
import Synchronization

/// The catalog requests use when they are given none: opened once from `Catalog.defaultPath`
/// (`$LOOKAROUND_CATALOG`, else `Panoramas/catalog.sqlite`) and kept.
public enum LookAroundCatalog {
    private static let cache = Mutex<Catalog?>(nil)

    /// The shared catalog, opened on first use.
    /// - Throws: `CatalogError.catalogMissing` when there is none (build it with `lookaround index`).
    public static func shared() throws -> Catalog {
        try cache.withLock { cached in
            if let catalog = cached { return catalog }
            let catalog = try Catalog(path: Catalog.defaultPath)
            cached = catalog
            return catalog
        }
    }
}
