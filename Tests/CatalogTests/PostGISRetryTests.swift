@testable import Catalog
import Foundation
import Geodesy
import Testing
import TestSupport

/// The pool's retry on transient failures, against a real server: the backends of a catalog's pooled
/// connections are killed from another connection (what a server restart or failover does to them),
/// and the next catalog query still succeeds: the pool drops the broken connections and reconnects
/// with backoff.
@Suite(.serialized, .enabled(if: PostGISTestServer.url != nil, "\(PostGISTestServer.unavailableReason ?? "")"))
struct PostGISRetryTests {
    @Test func aKilledBackendIsReconnectedAndTheQuerySucceeds() throws {
        let url = try PostGISTestServer.freshDatabase("retry")
        defer { PostGISTestServer.drop(url) }
        let coordinate = try GeoCoordinate(latitude: 60.1699, longitude: 24.9384)
        let records = try (0..<20).map { i in
            PanoramaRecord(id: "retry/\(i)", coordinate: try coordinate.destination(azimuth: .degrees(90), distanceMeters: Double(i) * 8),
                           captureTime: Date(timeIntervalSince1970: 1.7e9), headingDegrees: 90, imageWidth: 64, imageHeight: 32,
                           imagePath: "/data/retry/\(i).jpg", fullWidth: 64, fullHeight: 32, source: .simulated,
                           sequenceName: "retry", sequenceIndex: i)
        }
        _ = try CatalogBuilder.write(records: records, to: url)
        let catalog = try Catalog(path: url)
        let pool = try #require((catalog.store as? PostGISCatalogStore)?.pool)
        let request = SceneRequest(coordinate: try coordinate.destination(azimuth: .degrees(90), distanceMeters: 41))
        let before = try catalog.scene(for: request)
        #expect(before.scene?.panoramaID == "retry/5")

        // Every backend of this database but the killer's own (psql connects to the base database).
        let database = String(url.split(separator: "?")[0].split(separator: "/").last!)
        let killed = try PostGISTestServer.psql(PostGISTestServer.url!, """
            SELECT count(*) FROM (SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
              WHERE datname = '\(database)' AND pid <> pg_backend_pid()) AS k
            """)
        #expect((Int(killed) ?? 0) >= 1, "no pooled backend to kill: \(killed)")
        let retriesBefore = pool.retries

        let start = Date()
        let after = try catalog.scene(for: request)
        #expect(after.scene?.panoramaID == "retry/5")
        #expect(after.scene?.links == before.scene?.links)
        #expect(try catalog.panorama(id: "retry/7").id == "retry/7")
        #expect(pool.retries > retriesBefore, "the query did not go through the retry (was the backend killed?)")
        #expect(Date().timeIntervalSince(start) < 5, "the reconnect took \(Date().timeIntervalSince(start)) s")
    }

    /// The other side: a server that stays unreachable is `unavailable` after the bounded retries, fast
    /// (the CLI's exit 69 and the service's 503 are tested in LookAroundCLITests and ServiceTests).
    @Test func aDatabaseDroppedUnderAnOpenCatalogIsUnavailableQuickly() throws {
        let url = try PostGISTestServer.freshDatabase("retry_gone")
        defer { PostGISTestServer.drop(url) }
        let coordinate = try GeoCoordinate(latitude: 60.1699, longitude: 24.9384)
        _ = try CatalogBuilder.write(records: [PanoramaRecord(id: "gone/0", coordinate: coordinate, captureTime: Date(timeIntervalSince1970: 1.7e9),
                                                              headingDegrees: 0, imageWidth: 64, imageHeight: 32, imagePath: "/data/gone/0.jpg",
                                                              fullWidth: 64, fullHeight: 32, source: .simulated, sequenceName: "gone", sequenceIndex: 0)],
                                     to: url)
        let catalog = try Catalog(path: url)
        #expect(try catalog.scene(for: SceneRequest(coordinate: coordinate)).found)
        // Not the best-effort drop: when the drop failed (an autovacuum worker the role could not
        // terminate, before scripts/postgis.sh granted pg_signal_backend), the query below succeeded.
        try PostGISTestServer.dropDatabase(url)
        let start = Date()
        #expect { try catalog.scene(for: SceneRequest(coordinate: coordinate)) } throws: { error in
            guard case CatalogError.unavailable = error else { return false }
            return true
        }
        #expect(Date().timeIntervalSince(start) < 10, "retries are bounded")
    }
}
