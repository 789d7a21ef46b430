import Foundation
import Geodesy
import Playback
import Testing

@Suite struct WaypointReaderTests {
    func gpx(_ body: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="tests" xmlns="http://www.topografix.com/GPX/1/1">
            \(body)
            </gpx>
            """.utf8)
    }

    @Test func gpxTrackPointsInOrder() throws {
        let line = try WaypointReader.parseGPX(gpx("""
            <trk><trkseg><trkpt lat="60.1690" lon="24.9500"/><trkpt lat="60.1685" lon="24.9450"/></trkseg>
            <trkseg><trkpt lat="60.1683" lon="24.9420"/></trkseg></trk>
            """), file: "walk.gpx")
        #expect(line.points.map(\.latitude) == [60.1690, 60.1685, 60.1683])
        #expect(line.points.map(\.longitude) == [24.9500, 24.9450, 24.9420])
        #expect(!line.pausesAtVertices)
    }

    @Test func gpxRouteWhenNoTrackAndItsPointsAreStops() throws {
        let line = try WaypointReader.parseGPX(gpx("""
            <wpt lat="1" lon="1"/><rte><rtept lat="60.1690" lon="24.9500"/><rtept lat="60.1685" lon="24.9450"/></rte>
            """), file: "r.gpx")
        #expect(line.points.count == 2 && line.points[0].latitude == 60.1690)
        #expect(line.pausesAtVertices)
    }

    @Test func gpxBadCoordinateNamesTheLine() {
        #expect {
            try WaypointReader.parseGPX(gpx("""
                <trk><trkseg>
                <trkpt lat="60.1690" lon="24.9500"/>
                <trkpt lat="91.5" lon="24.9450"/>
                </trkseg></trk>
                """), file: "bad.gpx")
        } throws: { error in
            guard case PlaybackError.malformedWaypoints(let file, let location, let detail) = error else { return false }
            return file == "bad.gpx" && location == "line 5" && detail.contains("91.5") && detail.contains("-90…90")
        }
    }

    @Test func gpxBrokenXMLNamesTheLine() {
        #expect {
            try WaypointReader.parseGPX(Data("<gpx>\n<trk>\n<trkpt lat=\"1\" lon=\"2\">\n</gpx>\n".utf8), file: "broken.gpx")
        } throws: { error in
            guard case PlaybackError.malformedWaypoints(_, let location, let detail) = error else { return false }
            return location.hasPrefix("line ") && detail.contains("XML")
        }
    }

    @Test func gpxNeedsTwoPoints() {
        #expect(throws: PlaybackError.malformedWaypoints(
            file: "one.gpx", location: "", detail: "1 point(s) in its tracks, routes and waypoints; a walk needs at least 2")) {
            try WaypointReader.parseGPX(gpx("<trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk>"), file: "one.gpx")
        }
    }

    @Test func geoJSONLineStringInAFeatureCollection() throws {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[24.95,60.169],[24.945,60.1685]]}}]}"#
        let line = try WaypointReader.parseGeoJSON(Data(text.utf8), file: "w.geojson")
        #expect(line.points.count == 2 && line.points[0].longitude == 24.95 && line.points[0].latitude == 60.169)
        #expect(!line.pausesAtVertices)
    }

    @Test func geoJSONMultiPointIsStops() throws {
        let line = try WaypointReader.parseGeoJSON(Data(#"{"type":"MultiPoint","coordinates":[[24.95,60.169],[24.945,60.1685],[24.94,60.168]]}"#.utf8), file: "m.json")
        #expect(line.points.count == 3 && line.pausesAtVertices)
    }

    @Test func geoJSONBadPositionNamesTheJSONPath() {
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24,60]}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[24.95,60.169],[60.1685,124.945]]}}]}"#
        #expect {
            try WaypointReader.parseGeoJSON(Data(text.utf8), file: "bad.geojson")
        } throws: { error in
            guard case PlaybackError.malformedWaypoints(let file, let location, _) = error else { return false }
            return file == "bad.geojson" && location == "features[1].geometry.coordinates[1]"
        }
    }

    @Test func geoJSONPolygonIsRefused() {
        #expect {
            try WaypointReader.parseGeoJSON(Data(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#.utf8), file: "p.json")
        } throws: { error in
            guard case PlaybackError.malformedWaypoints(_, let location, let detail) = error else { return false }
            return location == "type" && detail.contains("Polygon")
        }
    }

    @Test func notJSONAtAll() {
        #expect { try WaypointReader.parseGeoJSON(Data("{nope".utf8), file: "x.json") } throws: { error in
            guard case PlaybackError.malformedWaypoints("x.json", "", let detail) = error else { return false }
            return detail.hasPrefix("not valid JSON (")
        }
    }

    @Test func missingFile() {
        #expect(throws: PlaybackError.missingInput(file: "/nonexistent/walk.gpx", detail: "no such file; check the path")) {
            try WaypointReader.read(file: "/nonexistent/walk.gpx")
        }
    }
}
