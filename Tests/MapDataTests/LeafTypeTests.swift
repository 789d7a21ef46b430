import Testing
@testable import MapData

/// Vegetation by what is known: `leaf_type`, then `wood`, then the genus of `genus`/`species`/`taxon`;
/// else the latitude's likely share of conifers.
@Suite struct LeafTypeTests {
    @Test func tagsInTheirOrder() {
        let table: [([String: String], LeafType?)] = [
            (["leaf_type": "needleleaved"], .needleleaved), (["leaf_type": "broadleaved"], .broadleaved),
            (["leaf_type": "mixed"], .mixed), (["leaf_type": "leafless"], .leafless),
            // leaf_type wins over wood and genus.
            (["leaf_type": "broadleaved", "wood": "coniferous", "genus": "Pinus"], .broadleaved),
            (["wood": "coniferous"], .needleleaved), (["wood": "deciduous"], .broadleaved), (["wood": "mixed"], .mixed),
            (["wood": "coniferous", "genus": "Betula"], .needleleaved),
            (["genus": "Picea"], .needleleaved), (["genus": "Larix"], .needleleaved), (["genus": "Tilia"], .broadleaved),
            (["species": "Pinus sylvestris"], .needleleaved), (["species": "Quercus robur"], .broadleaved),
            (["taxon": "Abies alba"], .needleleaved),
            // Nothing known: vernacular names, lists, junk, nothing.
            (["species:fi": "mänty"], nil), (["genus": "Pinus;Picea"], nil), (["leaf_type": "yes"], nil), ([:], nil),
            (["natural": "wood"], nil),
        ]
        for (tags, expected) in table { #expect(LeafType(tags: tags) == expected, "\(tags)") }
    }

    @Test func theLatitudesLikelyForest() {
        #expect(LeafType.likelyConiferShare(latitude: 60.47) == 0.8)   // Kotka
        #expect(LeafType.likelyConiferShare(latitude: 52.5) == 0.5)    // Berlin
        #expect(LeafType.likelyConiferShare(latitude: 43.7) == 0.3)    // Monaco
        #expect(LeafType.likelyConiferShare(latitude: 10) == 0.1)
        #expect(LeafType.likelyConiferShare(latitude: -41) == 0.2)
    }

    @Test func areasAndTreesCarryIt() throws {
        let data = try MapDataset(contentsOfFile: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/osm/grosser-stern/grosser-stern.osm").path)
        let woods = data.areas.filter { $0.kind == .wood }
        #expect(woods.count == 3)
        #expect(woods.filter { $0.leafType == .broadleaved }.count == 1 && woods.filter { $0.leafType == nil }.count == 2)
    }
}
