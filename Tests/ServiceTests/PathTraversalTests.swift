import Foundation
import Service
import Testing
import TestSupport

/// No route turns a request value into a file path: ids, tile coordinates, cameras, overlays and
/// Street View's `pano` with `..`, `/`, percent-encoded slashes and absolute paths get a 4xx (or an
/// empty answer for a search), never a file's contents and never a 5xx.
@Suite struct PathTraversalTests {
    static let hostile = ["../../../../etc/passwd", "..%2F..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "/etc/passwd",
                          "....//....//etc/passwd", "senaatintori-005/../../catalog.sqlite", "..%5C..%5Cetc%5Cpasswd"]

    static func paths(_ value: String) -> [String] {
        [
            "/v1/scene?scene=\(value)",
            "/v1/scene?near=\(value)",
            "/v1/panoramas/\(value)",
            "/v1/panoramas/\(value)/tiles/0/0/0.jpg",
            "/v1/panoramas/senaatintori-005/tiles/\(value)",
            "/v1/panoramas/senaatintori-005/tiles/0/0/\(value).jpg",
            "/v1/snapshot?scene=\(value)&size=32x32",
            "/v1/snapshot?lat=60.1699&lon=24.9523&size=32x32&format=\(value)",
            "/v1/map?camera=\(value)&size=32x32",
            "/v1/coverage/\(value)",
            "/v1/search?q=\(value)",
            "/maps/api/streetview?pano=\(value)&size=32x32",
            "/maps/api/streetview/metadata?pano=\(value)",
            "/v1/openapi.json/\(value)",
            "/\(value)",
        ]
    }

    @Test(arguments: hostile)
    func noRouteReadsAPath(value: String) throws {
        for path in Self.paths(value) {
            let response = try ServiceFixture.get(path)
            #expect((200..<500).contains(response.status), "\(path): \(response.status) \(response.text.prefix(200))")
            #expect(!response.text.contains("root:x:0:0"), "\(path) served /etc/passwd")
            #expect(!response.text.contains("SQLite format 3"), "\(path) served the catalog")
            if response.status == 200 && !path.hasPrefix("/maps/api/streetview?") {
                // Only answers about no data: no match, no coverage, Street View's status JSON (its image
                // route answers 200 with Google's "no imagery" picture, as Google does).
                #expect(response.header("content-type")?.hasPrefix("application/json") == true,
                        "\(path) answered 200 with \(response.header("content-type") ?? "")")
            }
        }
        let client = try ServiceFixture.client()
        let batch = try client.post("/v1/scenes", body: Array("{\"scene\":\"\(value)\"}\n\(value)\n".utf8),
                                    contentType: "application/x-ndjson")
        #expect((200..<500).contains(batch.status), "POST /v1/scenes: \(batch.status) \(batch.text.prefix(200))")
        #expect(!batch.text.contains("root:x:0:0"))
    }
}
