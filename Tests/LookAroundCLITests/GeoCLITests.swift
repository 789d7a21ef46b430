import Foundation
import Testing
import TestSupport

@Suite struct GeoCLITests {
    struct Distance: Decodable {
        var distanceMeters: Double
        var initialBearingDegrees: Double
        var finalBearingDegrees: Double?
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: Data(text.utf8))
    }

    /// Reference values from GeographicLib 2.1 (Python), WGS84.
    @Test func distanceMatchesGeographicLib() throws {
        let result = try Lookaround.run(["geo", "distance", "--from", "0,0", "--to", "0.5,179.7", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let distance = try Self.decode(Distance.self, result.stdout)
        #expect(abs(distance.distanceMeters - 19_944_127.420750458) < 1e-3)
        #expect(abs(distance.initialBearingDegrees - 15.556882793490544) < 1e-8)
        #expect(abs((distance.finalBearingDegrees ?? 0) - 164.44251389085494) < 1e-8)
    }

    @Test func distanceHumanReadable() throws {
        let result = try Lookaround.run(["geo", "distance", "--from", "60.1699,24.9523", "--to", "60.1686,24.9417"])
        #expect(result.exitCode == 0)
        #expect(result.stdout == "distance        606.019 m\ninitial bearing 256.176962°\nfinal bearing   256.167767°\n")
    }

    @Test func destinationRoundTripsWithDistance() throws {
        let result = try Lookaround.run(["geo", "destination", "--from", "60.1699,24.9523",
                                         "--bearing-degrees", "45", "--distance-meters", "1234.5", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        struct Destination: Decodable { var latitude: Double; var longitude: Double }
        let destination = try Self.decode(Destination.self, result.stdout)
        let back = try Lookaround.run(["geo", "distance", "--from", "60.1699,24.9523",
                                       "--to", "\(destination.latitude),\(destination.longitude)", "--json"])
        let distance = try Self.decode(Distance.self, back.stdout)
        #expect(abs(distance.distanceMeters - 1234.5) < 1e-3)
        #expect(abs(distance.initialBearingDegrees - 45) < 1e-6)
    }

    @Test func tileAndQuadkey() throws {
        let result = try Lookaround.run(["geo", "tile", "--at", "60.1699,24.9523", "--zoom", "15"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.hasPrefix("tile    15/18655/9484\nquadkey 120120211013311\n"))
        let reverse = try Lookaround.run(["geo", "tile", "--quadkey", "213"])
        #expect(reverse.stdout.hasPrefix("tile    3/3/5\n"))
    }

    @Test(arguments: [
        (["geo", "distance", "--from", "91,0", "--to", "0,0"], "--from latitude 91 is out of range; allowed -90…90"),
        (["geo", "distance", "--from", "nan,0", "--to", "0,0"], "--from latitude 'nan' is not a finite number"),
        (["geo", "distance", "--from", "10,200", "--to", "0,0"], "--from longitude 200 is out of range; allowed -180…180"),
        (["geo", "distance", "--from", "10", "--to", "0,0"], "--from '10' is not LAT,LON"),
        (["geo", "distance", "--to", "0,0"], "missing required option --from"),
        (["geo", "tile", "--at", "1,2", "--zoom", "31"], "--zoom 31 is out of range; allowed 0…30"),
        (["geo", "tile", "--quadkey", "12a"], "invalid character at position 2"),
        (["geo", "destination", "--from", "0,0", "--bearing-degrees", "inf", "--distance-meters", "1"],
         "--bearing-degrees 'inf' is not a finite number"),
        (["geo", "distance", "--form", "1,2", "--to", "0,0"], "did you mean '--from'?"),
    ])
    func badInputIsAUsageErrorNamingTheValue(arguments: [String], message: String) throws {
        let result = try Lookaround.run(arguments)
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }
}
