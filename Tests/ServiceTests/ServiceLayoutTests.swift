import Foundation
@testable import Service
import Testing
import TestSupport

/// The service's house stays small rooms with one job each (issue 48): no file under Sources/Service
/// over 400 lines, one route table, every family answering its own routes.
@Suite struct ServiceLayoutTests {
    static let limit = 400

    /// Files still over the limit, with why: none but the HTTP engine's, whose rework (its connection
    /// state machine, the limits in one configuration) is issue 48's engine half, done apart from the
    /// route families. Remove a line once its file is under the limit.
    static let knownExceptions: Set<String> = [
        "HTTPEventLoop.swift",  // issue 48, the engine half
        "HTTPRequestHead.swift",  // issue 48, the engine half
    ]

    @Test func noFileUnderSourcesServiceIsOver400Lines() throws {
        let folder = Lookaround.repository.appendingPathComponent("Sources/Service")
        var over: [String] = []
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() where !path.hasPrefix("Resources/web/leaflet/") {
            let url = folder.appendingPathComponent(path)
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            if lines > Self.limit && !Self.knownExceptions.contains(path) { over.append("\(path): \(lines) lines") }
        }
        #expect(over.isEmpty, "over \(Self.limit) lines (split the type, as issue 48 did): \(over.joined(separator: ", "))")
    }

    /// The route table as the composition builds it: every route once, each family answering its own,
    /// and the API description documenting exactly the routes that are not the page's own files.
    @Test func theRouteTableIsTheAPI() throws {
        let service = try SceneService(configuration: try ServiceFixture.configuration())
        let table = service.routes
        let lines = table.description.split(separator: "\n")
        #expect(lines.count == table.routes.count && Set(lines).count == lines.count, "\(table)")
        let documented = Set(OpenAPIDocument.operations.map { "\($0.method.uppercased()) \($0.path)" })
        // Besides the documented API: Nominatim's older URLs and the page's own (its index and files).
        let undocumented: Set<String> = ["GET /search.php", "GET /reverse.php", "GET /index.html", "GET /@{camera}", "GET /{file}"]
        let served = Set(table.routes.map { "\($0.method.rawValue) \($0.pattern.template)" })
        #expect(served.subtracting(undocumented) == documented.subtracting(["GET /lookaround.js"]),
                "served, not documented: \(served.subtracting(undocumented).subtracting(documented)); documented, not served: \(documented.subtracting(served))")
        // Matching: the most specific pattern wins, a wrong method names the methods the path takes.
        guard case .route(let tile) = table.match(method: "GET", path: "/v1/panoramas/a/b/tiles/0/0/0.jpg") else { Issue.record("no tile route"); return }
        #expect(tile.label == "tile")
        guard case .route(let record) = table.match(method: "HEAD", path: "/v1/panoramas/a/tiles/x/0/0.jpg") else { Issue.record("no panorama"); return }
        #expect(record.label == "panorama")
        guard case .wrongMethod(let scenes, let allowed) = table.match(method: "GET", path: "/v1/scenes") else { Issue.record("GET /v1/scenes"); return }
        #expect(scenes.label == "scenes" && allowed == ["POST"])
        guard case .none = table.match(method: "GET", path: "/leaflet/../index.html") else { Issue.record("a path out of the folder matched"); return }
        print(table)
    }
}
