import Catalog
import Foundation
import Geodesy
import Service
import Testing
import TestSupport

/// The service over a PostGIS catalog: the same answers as over SQLite, a new revision seen by the
/// health check, and 503 `catalog_unavailable` (never a hang) when the database goes away.
@Suite(.serialized, .enabled(if: PostGISTestServer.url != nil, "\(PostGISTestServer.unavailableReason ?? "")"))
struct PostGISServiceTests {
    static func answer(_ service: SceneService, _ path: String, _ query: [(name: String, value: String)] = []) throws -> HTTPResponse {
        guard case .respond(let response) = service.handle(HTTPRequest(path: path, query: query)).disposition else {
            throw CocoaError(.featureUnsupported)
        }
        return response
    }

    @Test func servesTheSameScenesAndAnswers503WhenTheDatabaseIsGone() throws {
        let url = try PostGISTestServer.freshDatabase("service")
        defer { PostGISTestServer.drop(url) }
        let panoramas = ServiceFixture.repository.appendingPathComponent("Panoramas/helsinki").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [panoramas], catalogPath: url, osmFiles: [ServiceFixture.osmPath]))
        var configuration = try ServiceFixture.configuration()
        let sqliteService = try SceneService(configuration: configuration)
        configuration.catalogPath = url
        configuration.catalogPollSeconds = 0
        let service = try SceneService(configuration: configuration)
        let query = [(name: "lat", value: "60.1699"), (name: "lon", value: "24.9523"), (name: "radius_meters", value: "60")]
        let served = try Self.answer(service, "/v1/scene", query)
        #expect(served.status == 200)
        #expect(served.body == (try Self.answer(sqliteService, "/v1/scene", query)).body, "the same bytes as over SQLite")
        let health = try Self.answer(service, "/v1/health")
        #expect(health.status == 200)
        #expect(String(decoding: health.body, as: UTF8.self).contains("\"revision\":1"))

        // Another index run (another machine's): the health check sees revision 2.
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [panoramas], catalogPath: url, osmFiles: [ServiceFixture.osmPath]))
        #expect(String(decoding: try Self.answer(service, "/v1/health").body, as: UTF8.self).contains("\"revision\":2"))

        // The database goes away: 503 with Retry-After, quickly.
        PostGISTestServer.drop(url)
        let start = Date()
        let failed = try Self.answer(service, "/v1/scene", [(name: "lat", value: "60.1701"), (name: "lon", value: "24.9531")])
        #expect(failed.status == 503)
        #expect(failed.headers.contains { $0.name == "Retry-After" })
        #expect(String(decoding: failed.body, as: UTF8.self).contains("catalog_unavailable"))
        #expect(!String(decoding: failed.body, as: UTF8.self).contains("passfile=") || !url.contains(":****@"))
        #expect(try Self.answer(service, "/v1/health").status == 503)
        #expect(Date().timeIntervalSince(start) < 15, "no hang")
    }
}
