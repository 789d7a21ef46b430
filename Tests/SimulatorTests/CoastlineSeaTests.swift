import Foundation
import Geodesy
import Imaging
import MapData
import Testing
import TestSupport
@testable import Simulator

/// The sea of a coastline-mapped harbour in the simulated streets, as on the map: a small extract of
/// its own (a straight coastline across the whole extract, land north of it with a quay road and a
/// building, sea south of it), simulated over a region at the quay only, as `simulate` builds the city
/// round the captures it plans.
@Suite struct CoastlineSeaTests {
    static let origin = (latitude: 60.1600, longitude: 24.9600)

    /// The extract: 2 km × 1.1 km; the coastline runs west to east (land on its left) 500 m south of
    /// the north edge, with only its two ends as nodes; the quay road 25 m north of it.
    static func osm(frame: LocalTangentFrame) throws -> String {
        var extract = OSMTestExtract(frame: frame)
        // The extract's box is its nodes' extent (as a cut extract's is): a buoy 600 m out at sea and a
        // beacon 500 m inland span it; the coastline's ends lie on its west and east edges.
        let coastWest = try extract.node(-1000, 0), coastEast = try extract.node(1000, 0)
        let buoy = try extract.node(0, -600), beacon = try extract.node(0, 500)
        extract.way(100, [coastWest, coastEast], [("natural", "coastline")])
        extract.way(101, [try extract.node(-60, 25), try extract.node(60, 25)], [("highway", "residential"), ("name", "Satamakatu")])
        let corners = [try extract.node(-20, 40), try extract.node(20, 40), try extract.node(20, 55), try extract.node(-20, 55)]
        extract.way(102, corners + [corners[0]], [("building", "yes"), ("building:levels", "3")])
        extract.way(103, [buoy, beacon], [("power", "line")])
        return extract.document
    }

    @Test func aCaptureOnTheQuaySeesTheSea() throws {
        let frame = try LocalTangentFrame(origin: try GeoCoordinate(latitude: Self.origin.latitude, longitude: Self.origin.longitude))
        let path = try Lookaround.temporaryDirectory().appendingPathComponent("harbour.osm").path
        try Data(try Self.osm(frame: frame).utf8).write(to: URL(fileURLWithPath: path))
        let dataset = try MapDataset(contentsOfFile: path)
        // The map's water model has the sea south of the coastline.
        func coordinate(_ east: Double, _ north: Double) throws -> OSMCoordinate {
            let g = try frame.geodetic(from: EastNorthUp(east: east, north: north, up: 0)).coordinate
            return OSMCoordinate(latitude: g.latitude, longitude: g.longitude)
        }
        #expect(dataset.water.isSea(try coordinate(0, -80)))
        #expect(!dataset.water.isSea(try coordinate(0, 80)))
        // The city round the quay road only (the region `simulate` plans its captures in), 120 m margin.
        let south = try coordinate(-60, 15), north = try coordinate(60, 60)
        let region = OSMBoundingBox(minLatitude: south.latitude, minLongitude: south.longitude,
                                    maxLatitude: north.latitude, maxLongitude: north.longitude)
        let model = try CityModel(dataset: dataset, region: region,
                                  options: CityModelOptions(marginMeters: 120, includeSigns: false, includeStreetPlates: false))
        // On the quay road, the water 25 m away, looking south over it.
        let eye = model.position(of: try GeoCoordinate(latitude: try coordinate(0, 25).latitude, longitude: try coordinate(0, 25).longitude),
                                 heightMeters: 2.5)
        let camera = try PinholeCamera(position: eye, headingDegrees: 180, pitchDegrees: 0, fieldOfViewDegrees: 90,
                                       width: 160, height: 90)
        let maps = model.renderDepthAndLabels(camera)
        // Below the horizon, past the quay road and its edge (more than 40 m away), it is sea.
        var far = 0, water = 0
        for y in (camera.height / 2)..<camera.height {
            for x in 0..<camera.width where maps.depth[x, y, 0] != DepthEncoding.skyValue {
                guard Double(maps.depth[x, y, 0]) * DepthEncoding.metersPerUnit > 40 else { continue }
                far += 1
                if maps.labels[x, y, 0] == LabelClass.water.rawValue { water += 1 }
            }
        }
        #expect(far > 300, "pixels below the horizon beyond 40 m: \(far)")
        #expect(Double(water) > 0.95 * Double(far), "water \(water) of \(far) pixels beyond the quay")
    }
}
