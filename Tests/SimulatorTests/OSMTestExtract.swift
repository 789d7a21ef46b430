import Foundation
import Geodesy

/// A small OSM XML extract that a test writes: nodes placed in metres (east, north) of a local frame,
/// ways over them with their tags. The extract's box is its nodes' extent, as readosm reads it.
struct OSMTestExtract {
    let frame: LocalTangentFrame
    private var nodeLines: [String] = []
    private var wayLines: [String] = []
    private var nextNodeID = 1

    init(frame: LocalTangentFrame) { self.frame = frame }

    /// A node at (`east`, `north`) metres; its id.
    mutating func node(_ east: Double, _ north: Double) throws -> Int {
        let g = try frame.geodetic(from: EastNorthUp(east: east, north: north, up: 0)).coordinate
        defer { nextNodeID += 1 }
        nodeLines.append(String(format: "  <node id=\"%d\" lat=\"%.8f\" lon=\"%.8f\" version=\"1\"/>", nextNodeID, g.latitude, g.longitude))
        return nextNodeID
    }

    /// A way through `nodes` with `tags`.
    mutating func way(_ id: Int, _ nodes: [Int], _ tags: [(String, String)]) {
        wayLines.append("  <way id=\"\(id)\" version=\"1\">")
        for n in nodes { wayLines.append("    <nd ref=\"\(n)\"/>") }
        for (k, v) in tags { wayLines.append("    <tag k=\"\(k)\" v=\"\(v)\"/>") }
        wayLines.append("  </way>")
    }

    /// The OSM XML document.
    var document: String {
        (["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<osm version=\"0.6\" generator=\"lookaround tests\">"]
         + nodeLines + wayLines + ["</osm>"]).joined(separator: "\n")
    }
}
