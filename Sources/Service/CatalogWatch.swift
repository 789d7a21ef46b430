import Catalog
import Foundation
import LookAround
import Synchronization

/// Every answer kept between requests that was made from the catalog: scene details, JSON fragments,
/// rendered responses and label sources. Dropped together when the catalog's revision changes.
final class CachedAnswers: Sendable {
    let details = SceneDetailCache()
    let fragments: SceneFragments
    let responses: ResponseCache
    let labelSources = LabelSourceCache()

    /// `publicImagery`: `--public-imagery-url` (scenes of imagery in object storage then carry `image_url`).
    init(responseBytes: Int, publicImagery: PublicImageryURL? = nil) {
        responses = ResponseCache(capacityBytes: responseBytes)
        fragments = SceneFragments(publicImagery: publicImagery)
    }

    /// Forgets every answer made from the catalog.
    func removeAll() {
        details.removeAll()
        fragments.removeAll()
        responses.removeAll()
        labelSources.removeAll()
    }
}

/// A PostGIS catalog is shared: another machine's index run may replace it at any time. A thread asks
/// for its revision every `pollSeconds`; a new one drops every cached answer. A failed poll changes
/// nothing (requests meanwhile get 503 from their own queries). SQLite catalogs are not polled (an open
/// file never changes).
final class CatalogWatch: Sendable {
    let catalog: Catalog
    let cached: CachedAnswers
    let pollSeconds: Double
    private let polling = Mutex(false)

    init(catalog: Catalog, cached: CachedAnswers, pollSeconds: Double) {
        (self.catalog, self.cached, self.pollSeconds) = (catalog, cached, pollSeconds)
    }

    /// Starts polling (a PostGIS catalog with `pollSeconds` > 0 only).
    func start() {
        guard catalog.location.isPostgres, pollSeconds > 0 else { return }
        polling.withLock { $0 = true }
        let interval = pollSeconds
        Thread.detachNewThread { [weak self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                guard let self, self.polling.withLock({ $0 }) else { return }
                _ = try? self.check()
            }
        }
    }

    /// Stops polling.
    func stop() { polling.withLock { $0 = false } }

    /// Asks the catalog for its revision now: true when it changed and the cached answers were dropped.
    /// - Throws: the catalog's error when it cannot be asked.
    @discardableResult
    func check() throws -> Bool {
        guard try catalog.checkForNewRevision() else { return false }
        cached.removeAll()
        return true
    }
}
