import Foundation
@testable import Playback
import Testing

/// Inputs the fuzz targets `FuzzGeoJSON` and `FuzzGPX` (Fuzz/) found crashing the waypoint reader, kept
/// as regression tests: each must be an error naming the file, not a trap.
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

    /// crash-fa53cbde… (FuzzGeoJSON, 2026-12-01; its GPX half is FuzzGPX now): a processing instruction
    /// with a target and no data (`<?xml?>` on line 6). libxml2 reports it with a NULL data pointer and
    /// Foundation's XMLParser calls `strlen` on it: a segmentation fault in `walk --waypoints`. The
    /// first byte is the old selector (2 = GPX); the rest is also FuzzGPX's seed
    /// `regression-empty-processing-instruction`.
    static let emptyProcessingInstruction = "AjxncHg+VUkCPGc8cnRlcgI8P3htbCB2ZXJzaW9uPSIxbnQ8LjAiIGVuY29kaW5nPSJVVEYtOCI/Pgo8Z3B4IHYudG9wb2dyYWZpeC5jb20vR1ACPD94bWwgdmVyc2lvbj0iMS4wIiBlblgvMS8xIj4KIDx0cms+PG5hbWU+d2FsazwvbmFtZT48dHJrc2VnPmNvZGluZz0iVVRALTgiPz4KPGdweCB2CiAgPHRyazxuYW1lPndhbGs8L25hbWU+PHRya3NlZXICPD94bWwgdmVyc2lvbj0iMW50PHI6LjAiIGVuY29kaW5nPSJVVEYtOCI/Pgo8Z3B4IHZlAjw/eG1sPz4KPGdweCB2LnRvcG9ncmFmaXguY29tL0dQIHZlcnNpb249IjEuMHJzaW9uPW49IjEuMSIgY3IiZQ=="

    @Test func aProcessingInstructionWithoutDataIsAnError() throws {
        let input = try #require(Data(base64Encoded: Self.emptyProcessingInstruction))
        let detail = "a processing instruction without data (<?name?>) cannot be read; remove it or give it data (<?name data?>)"
        #expect(throws: PlaybackError.malformedWaypoints(file: "walk.gpx", location: "line 6", detail: detail)) {
            _ = try WaypointReader.parseGPX(input.dropFirst(), file: "walk.gpx")
        }
        let small = #"<gpx><trk><trkseg><trkpt lat="60.17" lon="24.95"/>"# + "\n<?a?>\n" + #"<trkpt lat="60.171" lon="24.951"/></trkseg></trk></gpx>"#
        #expect(throws: PlaybackError.malformedWaypoints(file: "walk.gpx", location: "line 2", detail: detail)) {
            _ = try WaypointReader.parseGPX(Data(small.utf8), file: "walk.gpx")
        }
    }

    /// Instructions with data still read. `<?a?>` in a comment is refused too (libxml2's recovery
    /// mode, which XMLParser uses, can read a broken document's comment as markup).
    @Test func processingInstructionsWithDataStillRead() throws {
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <?xml-stylesheet href="walk.xsl" type="text/xsl"?>
            <gpx><trk><name><![CDATA[a <? b ?>]]></name><trkseg><?c ?>
            <trkpt lat="60.17" lon="24.95"/><trkpt lat="60.171" lon="24.951"/></trkseg></trk></gpx>
            """
        #expect(try WaypointReader.parseGPX(Data(gpx.utf8), file: "walk.gpx").points.count == 2)
        #expect(WaypointReader.emptyProcessingInstructionLine(Data(gpx.utf8)) == nil)
        #expect(WaypointReader.emptyProcessingInstructionLine(Data("<gpx>\n\n<?x?>".utf8)) == 3)
        #expect(WaypointReader.emptyProcessingInstructionLine(Data("<gpx>\n<!-- <?x?> -->".utf8)) == 2)
        for text in ["<gpx><?", "<gpx><??>", "<gpx><?x?", "<gpx><?x ?>", "<?<?<?"] {
            #expect(WaypointReader.emptyProcessingInstructionLine(Data(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func utf8GPXStillReads() throws {
        let gpx = #"<gpx><trk><trkseg><trkpt lat="60.17" lon="24.95"/><trkpt lat="60.171" lon="24.951"><name>Töölö</name></trkpt></trkseg></trk></gpx>"#
        #expect(try WaypointReader.parseGPX(Data(gpx.utf8), file: "walk.gpx").points.count == 2)
    }
}
