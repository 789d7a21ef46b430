import Geodesy
import Imaging
import MapData
import MapSnapshot
@testable import Service
import Testing

/// Country names on map tiles: a tile names a country only at its label point (Natural Earth's), so a map
/// of tiles shows each name once. A single snapshot of part of a country names it at a point of its land
/// in view; a tile doing the same would repeat the name in every tile of the country (seen at zoom 5 on a
/// phone: "France" and "Germany" twice each).
@Suite struct MapTileLabelTests {
    /// France at zoom 7 without an extract (the world layer alone): every tile whose neighbourhood holds no
    /// country's label point is drawn exactly as with labels off, though its land is a country's.
    @Test func tilesNameACountryOnlyAtItsLabelPoint() throws {
        let snapshotter = try MapSnapshotter(dataset: .empty())
        let zoom = 7
        let labelTiles = try WorldBasemap.shipped().countries
            .filter { Double(zoom) >= $0.minimumLabelZoom - 1 && Double(zoom) <= $0.maximumLabelZoom + 2 }
            .map { try SlippyTile(containing: GeoCoordinate(latitude: $0.labelPosition.latitude, longitude: $0.labelPosition.longitude),
                                  zoom: zoom) }
        // Around France (lon −11…13, lat 37…55 at zoom 7): tiles none of whose eight neighbours holds a label point.
        var checked = 0, namedAwayFromTheLabelPoint = 0
        for x in 60...68 {
            for y in 42...48 {
                let tile = try SlippyTile(x: x, y: y, zoom: zoom)
                guard !labelTiles.contains(where: { abs($0.x - x) <= 1 && abs($0.y - y) <= 1 }) else { continue }
                let served = MapTileRoutes.mapTileOptions(tile, scale: 1, type: .standard, orthophoto: nil, coverage: nil)
                var unlabelled = served
                unlabelled.showsLabels = false
                var snapshotLike = served
                snapshotLike.namesCountriesOutOfView = true
                let bare = try snapshotter.snapshot(unlabelled).image.components
                #expect(try snapshotter.snapshot(served).image.components == bare, "tile \(tile) draws a name away from every label point")
                if try snapshotter.snapshot(snapshotLike).image.components != bare { namedAwayFromTheLabelPoint += 1 }
                checked += 1
            }
        }
        // The check has teeth: tiles were compared, and a snapshot's rule would have named a country on some.
        #expect(checked >= 4, "only \(checked) tiles without a label point near them")
        #expect(namedAwayFromTheLabelPoint >= 1, "no tile of the ones checked would name a country away from its label point")
    }
}
