import TestSupport
import Foundation
import Testing
@testable import Geodesy

@Suite("Slippy tiles and quadkeys")
struct SlippyTileTests {
    @Test func helsinkiAtZoom15() throws {
        // Computed with the OpenStreetMap wiki formula (x = ⌊(λ+180)/360 · 2^z⌋, y = ⌊(1 − asinh(tan φ)/π)/2 · 2^z⌋).
        let tile = try SlippyTile(containing: try GeoCoordinate(latitude: 60.1699, longitude: 24.9384), zoom: 15)
        #expect(tile.x == 18653 && tile.y == 9484 && tile.zoom == 15)
        #expect(tile.description == "15/18653/9484")
    }

    @Test func bingQuadkeyExamples() throws {
        // Bing Maps Tile System documentation: tile (3, 5) at level 3 has quadkey "213".
        #expect(try SlippyTile(x: 3, y: 5, zoom: 3).quadkey == "213")
        let tile = try SlippyTile(quadkey: "213")
        #expect(tile.x == 3 && tile.y == 5 && tile.zoom == 3)
        #expect(try SlippyTile(x: 0, y: 0, zoom: 0).quadkey == "")
        #expect(try SlippyTile(quadkey: "") == SlippyTile(x: 0, y: 0, zoom: 0))
        #expect(try SlippyTile(x: 1, y: 1, zoom: 1).quadkey == "3")
    }

    @Test func quadkeyRoundTrip() throws {
        var rng = SeededGenerator(seed: 6)
        for zoom in SlippyTile.zoomRange {
            for _ in 0..<20 {
                let count = 1 << zoom
                let tile = try SlippyTile(x: Int.random(in: 0..<count, using: &rng), y: Int.random(in: 0..<count, using: &rng),
                                          zoom: zoom)
                #expect(tile.quadkey.count == zoom)
                #expect(try SlippyTile(quadkey: tile.quadkey) == tile)
            }
        }
    }

    @Test func tileContainsItsCoordinate() throws {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<1000 {
            let c = try GeoCoordinate(latitude: Double.random(in: -85...85, using: &rng),
                                      longitude: Double.random(in: -180..<180, using: &rng))
            let tile = try SlippyTile(containing: c, zoom: Int.random(in: 0...30, using: &rng))
            #expect(tile.mapRect.contains(MapPoint(c)), "\(c) \(tile)")
            // The region's edges are the tile's edges; allow a nanodegree for rounding at deep zooms.
            let region = tile.region
            #expect(c.latitude <= region.northLatitude + 1e-9 && c.latitude >= region.southLatitude - 1e-9, "\(c) \(tile)")
        }
    }

    @Test func boundsOfKnownTiles() throws {
        let world = try SlippyTile(x: 0, y: 0, zoom: 0)
        #expect(world.mapRect == MapRect.world)
        #expect(world.northWest.longitude == -180)
        #expect(abs(world.northWest.latitude - MapPoint.maximumLatitudeDegrees) < 1e-12)
        let northEast = try SlippyTile(x: 1, y: 0, zoom: 1)
        #expect(northEast.northWest.longitude == 0 && abs(northEast.southEast.latitude) < 1e-12)
        #expect(northEast.region.span.longitudeDelta == 180 && northEast.region.center.longitude == 90)
        #expect(abs(northEast.region.center.latitude - MapPoint.maximumLatitudeDegrees / 2) < 1e-12)
    }

    @Test func edgesOfTheWorld() throws {
        let southPole = try SlippyTile(containing: try GeoCoordinate(latitude: -90, longitude: -180), zoom: 4)
        #expect(southPole.x == 0 && southPole.y == 15)
        let northPole = try SlippyTile(containing: try GeoCoordinate(latitude: 90, longitude: 179.9999999), zoom: 4)
        #expect(northPole.x == 15 && northPole.y == 0)
    }

    @Test func badInputThrowsWithValueAndRange() throws {
        let zoom = #expect(throws: GeodesyError.zoomOutOfRange(31)) { try SlippyTile(x: 0, y: 0, zoom: 31) }
        #expect(zoom?.description.contains("zoom 31") == true && zoom?.description.contains("0...30") == true)
        #expect(throws: GeodesyError.zoomOutOfRange(-1)) {
            try SlippyTile(containing: try GeoCoordinate(latitude: 0, longitude: 0), zoom: -1)
        }
        let tile = #expect(throws: GeodesyError.tileOutOfRange(x: 8, y: 0, zoom: 3)) { try SlippyTile(x: 8, y: 0, zoom: 3) }
        #expect(tile?.description.contains("0...7") == true)
        let quadkey = #expect(throws: GeodesyError.invalidQuadkey("214", position: 2)) { try SlippyTile(quadkey: "214") }
        #expect(quadkey?.description.contains("\"214\"") == true && quadkey?.description.contains("position 2") == true)
        let tooLong = String(repeating: "0", count: 31)
        #expect(throws: GeodesyError.invalidQuadkey(tooLong, position: nil)) { try SlippyTile(quadkey: tooLong) }
        // Arabic-Indic three is not a quadkey digit.
        #expect(throws: GeodesyError.invalidQuadkey("1٣", position: 1)) { try SlippyTile(quadkey: "1٣") }
    }

    @Test func codable() throws {
        let tile = try SlippyTile(x: 18653, y: 9484, zoom: 15)
        #expect(try JSONDecoder().decode(SlippyTile.self, from: JSONEncoder().encode(tile)) == tile)
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys  // Foundation's key order is otherwise the hash table's
        #expect(String(decoding: try sorted.encode(tile), as: UTF8.self) == #"{"x":18653,"y":9484,"zoom":15}"#)
        let bad = Data(#"{"x": 2, "y": 0, "zoom": 1}"#.utf8)
        #expect(throws: GeodesyError.tileOutOfRange(x: 2, y: 0, zoom: 1)) { try JSONDecoder().decode(SlippyTile.self, from: bad) }
    }
}
