import Testing
import TestSupport
@testable import MapData

/// The reader's compact node table gives back exactly the coordinates it was given, however they come.
@Suite struct NodeCoordinateTableTests {
    /// 100,000 nodes in increasing id order on PBF's 1e-7° grid (as libreadosm computes them, the
    /// nanodegree integer over 1e9), with ids and values out of order, repeated and off the grid mixed
    /// in: every lookup returns the very `Double`s stored, the last value of a repeated id, and nil for
    /// an id never stored.
    @Test func everyCoordinateComesBackExactly() {
        var random = SeededRandom(seed: 42)
        var table = NodeCoordinateTable()
        var expected: [Int64: OSMCoordinate] = [:]
        var id: Int64 = 1_000
        for k in 0..<100_000 {
            id += Int64(1 + (random.next() >> 11) % 50)
            var key = id
            let latitudeUnits = Int64((random.next() >> 11) % 1_800_000_000) - 900_000_000
            let longitudeUnits = Int64((random.next() >> 11) % 3_600_000_000) - 1_800_000_000
            var c = OSMCoordinate(latitude: Double(latitudeUnits * 100) / 1e9, longitude: Double(longitudeUnits * 100) / 1e9)
            switch k % 97 {
            case 3: c = OSMCoordinate(latitude: random.unit() * 180 - 90, longitude: random.unit() * 360 - 180)   // off the grid
            case 5: key = 1_000 + Int64((random.next() >> 11) % UInt64(id - 1_000))                                    // out of order or repeated
            default: break
            }
            table[key] = c
            expected[key] = c
        }
        var exact = 0
        for (key, c) in expected {
            if let found = table[key], found.latitude == c.latitude, found.longitude == c.longitude { exact += 1 }
        }
        #expect(exact == expected.count, "\(exact) of \(expected.count) exact")
        #expect(table[999] == nil && table[id + 1] == nil)
    }
}
