import Foundation
@testable import Service
import Synchronization
import Testing
import TestSupport

/// Every error reaches a client through the one table (ErrorAnswers over ServiceError), in its route's
/// shape, with public text only: a failure inside tells the client what failed in general terms and an
/// incident id, and the operator's log the details.
@Suite struct ErrorAnswersTests {
    @Test func aFailureInsideShowsNoDetailInAnyShape() throws {
        let logged = Mutex<[String]>([])
        let answers = ErrorAnswers { line in logged.withLock { $0.append(line) } }
        let secret = "/srv/lookaround/private/graph.bin"
        for shape in [ErrorShape.native, .streetViewImage, .streetViewMetadata, .osrm] {
            let response = answers.response(.internalError(detail: "cannot read \(secret)"), shape: shape)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(!text.contains(secret) && text.contains("internal error; incident "), "\(shape): \(text)")
            let incident = try #require(text.range(of: "incident ").map { text[$0.upperBound...].prefix(8) })
            #expect(logged.withLock { $0.last }?.contains("incident \(incident): internal_error: internal error: cannot read \(secret)") == true)
        }
        // Each shape as its clients read it.
        #expect(answers.response(.internalError(detail: "x"), shape: .osrm).status == 500)
        #expect(answers.response(.noRoute(reason: "no_street_near_source", detail: "x"), shape: .osrm).status == 400)
        #expect(answers.response(.invalidParameter(parameter: "size", message: "x"), shape: .streetViewMetadata).status == 200)
        #expect(answers.response(.invalidParameter(parameter: "size", message: "x"), shape: .streetViewImage).status == 400)
    }

    /// Routing errors used to go to the client with their description, which names the server's OSM file
    /// (`RoutingError.emptyNetwork`): now through the table, the file stays out of the answer. Over an
    /// extract whose only way is a footway, directions by car find no network at all: an answer about the
    /// data (404 `no_street_network`, OSRM's 400 `NoRoute`), as without any extract, not a failure inside.
    @Test func routingErrorsTellTheClientNoServerPath() throws {
        let folder = try Lookaround.temporaryDirectory()
        let osm = folder.appendingPathComponent("footpath-only.osm")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6" generator="lookaround tests">
             <node id="1" lat="60.1700" lon="24.9500" version="1"/>
             <node id="2" lat="60.1705" lon="24.9510" version="1"/>
             <way id="10" version="1"><nd ref="1"/><nd ref="2"/><tag k="highway" v="footway"/></way>
            </osm>
            """.utf8).write(to: osm)
        var configuration = try ServiceFixture.configuration()
        configuration.osmPath = osm.path
        let service = try SceneService(configuration: configuration)
        func answer(_ path: String, _ query: [(name: String, value: String)] = []) throws -> HTTPResponse {
            switch service.handle(HTTPRequest(path: path, query: query)).disposition {
            case .respond(let response): return response
            case .render(let work): return work()
            case .respondAndPrepare(let response, _): return response
            }
        }
        let native = try answer("/v1/directions", [("from", "60.1700,24.9500"), ("to", "60.1705,24.9510"), ("mode", "driving")])
        #expect(native.status == 404 && !native.text.contains(folder.path) && native.text.contains("\"code\":\"no_street_network\"")
                && native.text.contains("no way open to driving"), "\(native.text)")
        let osrm = try answer("/route/v1/driving/24.9500,60.1700;24.9510,60.1705")
        #expect(osrm.status == 400 && !osrm.text.contains(folder.path) && osrm.text.contains("\"code\":\"NoRoute\""), "\(osrm.text)")
        // On foot the same extract routes.
        let walking = try answer("/v1/directions", [("from", "60.1700,24.9500"), ("to", "60.1705,24.9510"), ("mode", "walking")])
        #expect(walking.status == 200, "\(walking.text)")
        // A client's own mistakes and "no route" still say what and where.
        let far = try answer("/v1/directions", [("from", "60.3,25.3"), ("to", "60.1705,24.9510")])
        #expect(far.status == 404 && far.text.contains("\"code\":\"no_street_near_source\"") && far.text.contains("60.3,25.3"), "\(far.text)")
        let farOSRM = try answer("/route/v1/foot/25.3,60.3;24.9510,60.1705")
        #expect(farOSRM.status == 400 && farOSRM.text.contains("\"code\":\"NoSegment\""), "\(farOSRM.text)")
        let profile = try answer("/route/v1/boat/24.95,60.17;24.951,60.1705")
        #expect(profile.status == 400 && profile.text.contains("\"code\":\"InvalidOptions\""), "\(profile.text)")
    }
}

extension HTTPResponse {
    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
}
