import Catalog
import Foundation

/// The catalog requests use when they are given none: opened once from `Catalog.defaultPath`
/// (`$LOOKAROUND_CATALOG`, else `Panoramas/catalog.sqlite`) and kept.
public enum LookAroundCatalog {
    private static let cache = Mutex()

    private final class Mutex: @unchecked Sendable {
        let lock = NSLock()
        var catalog: Catalog?
    }

    /// The shared catalog, opened on first use.
    /// - Throws: `CatalogError.catalogMissing` when there is none (build it with `lookaround index`).
    public static func shared() throws -> Catalog {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let catalog = cache.catalog { return catalog }
        let catalog = try Catalog(path: Catalog.defaultPath)
        cache.catalog = catalog
        return catalog
    }
}
