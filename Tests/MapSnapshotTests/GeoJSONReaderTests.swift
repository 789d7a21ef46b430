import Foundation
import Geodesy
import Imaging
@testable import MapSnapshot
import Testing

@Suite struct GeoJSONReaderTests {
    @Test func readsStyledFeatures() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"stroke": "#ff0000", "stroke-width": 3, "blend-mode": "multiply", "level": "above-labels"},
               "geometry": {"type": "LineString", "coordinates": [[24.94, 60.17], [24.95, 60.171]]}},
              {"type": "Feature", "properties": {"fill": "#00f", "fill-opacity": 0.5},
               "geometry": {"type": "Polygon", "coordinates": [[[24.94, 60.17], [24.95, 60.17], [24.95, 60.18], [24.94, 60.17]],
                                                                [[24.945, 60.172], [24.946, 60.172], [24.946, 60.173], [24.945, 60.172]]]}},
              {"type": "Feature", "properties": {"title": "Here", "cluster": "a"}, "geometry": {"type": "Point", "coordinates": [24.95, 60.17]}},
              {"type": "Feature", "properties": {"radius-meters": 50}, "geometry": {"type": "Point", "coordinates": [24.95, 60.17]}}
            ]}
            """
        let content = try GeoJSONReader.parse(Data(text.utf8), file: "t.geojson")
        #expect(content.overlays.count == 3)
        #expect(content.overlays[0].strokeColor == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(content.overlays[0].blendMode == .multiply && content.overlays[0].level == .aboveLabels)
        #expect(content.overlays[1].fillColor == RGBAColor(red: 0, green: 0, blue: 255, alpha: 128))
        if case .polygon(_, let holes) = content.overlays[1].geometry { #expect(holes.count == 1) } else { Issue.record("not a polygon") }
        if case .circle(_, let r) = content.overlays[2].geometry { #expect(r == 50) } else { Issue.record("not a circle") }
        #expect(content.annotations.count == 1 && content.annotations[0].title == "Here" && content.annotations[0].clusteringIdentifier == "a")
        #expect(content.points.count == 2)
    }

    @Test(arguments: [
        ("{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"properties\": {}, \"geometry\": {\"type\": \"LineString\", \"coordinates\": [[24.9, 60.1], [24.9, 95]]}}]}",
         "features[0].geometry.coordinates[1]"),
        ("{\"type\": \"Feature\", \"properties\": {\"stroke\": \"red\"}, \"geometry\": {\"type\": \"LineString\", \"coordinates\": [[24.9, 60.1], [24.9, 60.2]]}}",
         "properties.stroke"),
        ("{\"type\": \"Feature\", \"properties\": {\"blend-mode\": \"dodge\"}, \"geometry\": {\"type\": \"LineString\", \"coordinates\": [[24.9, 60.1], [24.9, 60.2]]}}",
         "properties.blend-mode"),
        ("{\"type\": \"Polygonal\", \"coordinates\": []}", "type"),
        ("[1, 2", "the top level"),
    ])
    func malformedInputNamesTheJSONPath(text: String, path: String) {
        do {
            _ = try GeoJSONReader.parse(Data(text.utf8), file: "bad.geojson")
            Issue.record("no error for \(text)")
        } catch {
            guard case .malformedGeoJSON = error else { Issue.record("\(error) is not malformedGeoJSON"); return }
            #expect(error.description.contains("bad.geojson: GeoJSON at \(path)"), "\(error)")
        }
    }

    @Test func missingFileIsMissingInput() {
        #expect(throws: MapSnapshotError.missingInput(file: "/nonexistent.geojson", detail: "no such file; check the path")) {
            try GeoJSONReader.read(file: "/nonexistent.geojson")
        }
    }
}
