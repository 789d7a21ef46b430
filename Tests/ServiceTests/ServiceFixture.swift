import Catalog
import Foundation
import Service
import TestSupport

/// The shipped Helsinki panoramas indexed into a temporary catalog (with the OSM extract), and
/// servers over it on ephemeral loopback ports.
enum ServiceFixture {
    static let repository = Lookaround.repository

    /// (temporary folder, catalog path), indexed once.
    static let catalog = Result { try Lookaround.indexShippedPanoramas() }

    static var osmPath: String { repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path }

    /// A configuration over the fixture catalog on an ephemeral port, small limits for tests.
    static func configuration() throws -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.catalogPath = try catalog.get().catalog
        configuration.osmPath = osmPath
        configuration.http.port = 0
        configuration.http.networkThreads = 2
        configuration.http.renderWorkers = 2
        configuration.maximumBatchCount = 5
        configuration.http.maximumBodyBytes = 64 * 1024
        configuration.maximumImagePixels = 1_000_000
        configuration.cacheMegabytes = 64
        return configuration
    }

    /// The server most tests share (started once, never stopped: it ends with the test process).
    static let shared = Result { () throws -> (service: SceneService, server: HTTPServer) in
        let service = try SceneService(configuration: try configuration())
        return (service, try service.start())
    }

    static func client(timeoutSeconds: Double = 30) throws -> RawHTTPClient {
        try RawHTTPClient(port: try shared.get().server.port, timeoutSeconds: timeoutSeconds)
    }

    /// `GET path` on the shared server.
    static func get(_ path: String, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
        try client().get(path, headers: headers)
    }
}
