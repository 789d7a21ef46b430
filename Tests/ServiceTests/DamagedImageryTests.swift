import Foundation
import Service
import Testing
import TestSupport

/// A panorama whose JPEG is damaged or deleted after indexing: 500 for that panorama, every other one
/// keeps being served.
@Suite struct DamagedImageryTests {
    @Test func aDamagedPanoramaIs500AndTheOthersAreServed() throws {
        let root = try Lookaround.temporaryDirectory()
        let folder = root.appendingPathComponent("panoramas")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shipped = ServiceFixture.repository.appendingPathComponent("Panoramas/helsinki")
        for id in ["senaatintori-004", "senaatintori-005", "senaatintori-006", "senaatintori-007"] {
            for suffix in [".jpg", ".depth.png", ".labels.png", ".json"] {
                try FileManager.default.copyItem(at: shipped.appendingPathComponent(id + suffix),
                                                 to: folder.appendingPathComponent(id + suffix))
            }
        }
        let catalog = root.appendingPathComponent("catalog.sqlite").path
        let index = try Lookaround.run(["index", folder.path, "--catalog", catalog, "--quiet"])
        #expect(index.exitCode == 0, "\(index.stderr)")
        // After indexing: one JPEG overwritten with garbage, one deleted.
        try Data(repeating: 0x5A, count: 4096).write(to: folder.appendingPathComponent("senaatintori-004.jpg"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("senaatintori-006.jpg"))
        // …and one cut short: its headers still read, the scan ends early (not a grey picture).
        let short = folder.appendingPathComponent("senaatintori-007.jpg")
        let whole = try Data(contentsOf: short)
        try whole.prefix(whole.count / 2).write(to: short)

        var configuration = ServiceConfiguration()
        configuration.catalogPath = catalog
        configuration.http.port = 0
        let server = try SceneService(configuration: configuration).start()
        defer { server.stop(drainingForSeconds: 2) }
        func get(_ path: String) throws -> RawHTTPClient.Response { try RawHTTPClient(port: server.port).get(path) }

        for id in ["senaatintori-004", "senaatintori-006", "senaatintori-007"] {
            let snapshot = try get("/v1/snapshot?scene=\(id)&size=160x90")
            #expect(snapshot.status == 500, "\(id): \(snapshot.text)")
            let error = try #require(try snapshot.json()["error"] as? [String: Any])
            #expect(error["code"] as? String == "unreadable_imagery")
            #expect((error["message"] as? String)?.contains(id) == true)
            // What failed in general terms and an incident id; no path of the server's files, no
            // library's message (they are in the server's log under the incident).
            #expect((error["incident"] as? String)?.count == 8)
            let tile = try get("/v1/panoramas/\(id)/tiles/0/0/0.jpg")
            #expect(tile.status == 500)
            let streetView = try get("/maps/api/streetview?size=160x90&pano=\(id)")
            #expect(streetView.status == 500)
            for answer in [snapshot, tile, streetView] {
                #expect(!answer.text.contains(root.path) && !answer.text.contains(".jpg") && !answer.text.lowercased().contains("jpeg"),
                        "\(id): \(answer.text)")
            }
        }
        // The healthy panorama, and the catalog's answers about the broken ones, are still served.
        #expect(try get("/v1/snapshot?scene=senaatintori-005&size=160x90").status == 200)
        #expect(try get("/v1/panoramas/senaatintori-005/tiles/0/0/0.jpg").status == 200)
        #expect(try get("/v1/scene?lat=60.16948&lon=24.95220").status == 200)
        let health = try get("/v1/health")
        #expect(health.status == 200 && !health.text.contains(root.path) && health.text.contains("\"catalog\":\"sqlite\""), "\(health.text)")
    }
}
