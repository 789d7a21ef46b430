import Foundation
import Playback
import Testing

/// Inputs the fuzz target `FuzzGeoJSON` (Fuzz/) found crashing the waypoint reader, kept as regression
/// tests: each must be an error naming the file, not a trap.
@Suite struct WaypointReaderFuzzRegressionTests {
    /// crash-32955fe9…: GPX whose element names hold bytes that are not UTF-8 ("<rte\\xf2\\xf2…"):
    /// Foundation's XMLParser trapped in _NSXMLParserStartElementNs, so `walk --waypoints` crashed.
    /// The first byte is the fuzz target's reader selector (2 = GPX).
    static let nonUTF8ElementName = "AjxncHi+PHJ0ZT48cnRl8vLy8vLy8vLy8nB0IGxhdD0iMzAuMTciIGxvbjxyL3Rltz48L2dweHI="

    @Test func gpxThatIsNotUTF8IsAnError() throws {
        let input = try #require(Data(base64Encoded: Self.nonUTF8ElementName))
        #expect(throws: PlaybackError.malformedWaypoints(file: "walk.gpx", location: "",
                                                         detail: "not UTF-8 text (GPX is UTF-8); save the file as UTF-8")) {
            _ = try WaypointReader.parseGPX(input.dropFirst(), file: "walk.gpx")
        }
    }

    @Test func utf8GPXStillReads() throws {
        let gpx = #"<gpx><trk><trkseg><trkpt lat="60.17" lon="24.95"/><trkpt lat="60.171" lon="24.951"><name>Töölö</name></trkpt></trkseg></trk></gpx>"#
        #expect(try WaypointReader.parseGPX(Data(gpx.utf8), file: "walk.gpx").points.count == 2)
    }
}
