import Foundation
import Imaging
import Testing
@testable import Reprojection

/// Depth lookups for hit testing: interpolation on one surface, none across sky or depth edges.
@Suite struct PanoramaDepthMapTests {
    static let width = 512, height = 256
    static let cameraHeightMeters = 2.5

    /// Elevation of the ray through continuous row `y`, radians.
    static func elevation(_ y: Double) -> Double { (0.5 - y / Double(height)) * .pi }

    /// A level street seen from 2.5 m, at the simulator's depth-map size: sky above the horizon,
    /// ground below; in columns 128…255 a surface 10 m away from row 64 down, in columns 256…383 one
    /// 40 m away (constant ranges: spheres around the camera, which is all these tests need).
    static func map() throws -> PanoramaDepthMap {
        var components = [UInt16](repeating: DepthEncoding.skyValue, count: width * height)
        for row in 0..<height {
            let e = elevation(Double(row) + 0.5)
            for column in 0..<width {
                var range: Double?
                if e < 0 { range = cameraHeightMeters / sin(-e) }
                if row >= 64 && (128..<256).contains(column) { range = min(range ?? .infinity, 10) }
                if row >= 64 && (256..<384).contains(column) { range = min(range ?? .infinity, 40) }
                if let range, range < 655 { components[row * width + column] = UInt16((range * 100).rounded()) }
            }
        }
        return try PanoramaDepthMap(Gray16Image(width: width, height: height, components: components),
                                    nearestSurfaceMeters: cameraHeightMeters)
    }

    @Test func groundBetweenRowsFollowsThePlane() throws {
        let depth = try Self.map()
        // Between row centres below the horizon, in a column with nothing but ground.
        for y in [128.7, 130.5, 140.75, 180.1, 250.9] {
            let expected = Self.cameraHeightMeters / sin(-Self.elevation(y))
            let range = try #require(depth.rangeMeters(x: 50.3, y: y))
            // Inverse depth is linear in sin(elevation) on the ground: well under 1 % over a 0.7° row.
            #expect(abs(range - expected) <= 0.01 * expected + 0.01, "row \(y): \(range) m, expected \(expected) m")
        }
    }

    @Test func neverAveragesSkyWithASurface() throws {
        let depth = try Self.map()
        // Row 64 (y 64…65) is the surface's top row; row 63 is sky.
        #expect(depth.rangeMeters(x: 200.5, y: 63.9) == nil)
        #expect(try #require(depth.rangeMeters(x: 200.5, y: 64.1)) == 10)
        #expect(depth.rangeMeters(x: 50, y: 30) == nil)
        #expect(depth.rangeMeters(column: 50, row: 30) == nil)
    }

    @Test func depthEdgesKeepTheNearestSurface() throws {
        let depth = try Self.map()
        // Columns 255 (10 m) and 256 (40 m) meet at x = 256.
        #expect(try #require(depth.rangeMeters(x: 255.9, y: 100.5)) == 10)
        #expect(try #require(depth.rangeMeters(x: 256.1, y: 100.5)) == 40)
        // Ground 60…80 m away in column 127 is interpolated between its own rows only, not with the
        // 10 m surface in column 128.
        let ground = try #require(depth.rangeMeters(x: 127.9, y: 130.6))
        let expected = Self.cameraHeightMeters / sin(-Self.elevation(130.6))
        #expect(abs(ground - expected) <= 0.01 * expected, "\(ground) m, expected \(expected) m")
    }

    @Test func columnsWrapAroundTheSeam() throws {
        var components = [UInt16](repeating: 1_000, count: Self.width * Self.height)
        for row in 0..<Self.height { components[row * Self.width + Self.width - 1] = 1_010 }
        let depth = try PanoramaDepthMap(Gray16Image(width: Self.width, height: Self.height, components: components))
        // x = 0.25: a quarter of the way from column 511's centre (x = -0.5) to column 0's (x = 0.5).
        let range = try #require(depth.rangeMeters(x: 0.25, y: 100.5))
        let expected = 1 / (0.25 / 10.1 + 0.75 / 10)
        #expect(abs(range - expected) < 1e-9)
        #expect(depth.rangeMeters(column: -1, row: 0) == 10.1)
    }

    @Test func rejectsMapsThatAreNotTwoToOne() {
        #expect(throws: ReprojectionError.notEquirectangular(width: 30, height: 20)) {
            try PanoramaDepthMap(Gray16Image(width: 30, height: 20))
        }
        #expect(throws: ReprojectionError.invalidParameter(name: "nearest surface distance", value: "nan m",
                                                           allowed: "a finite number of metres above 0 (the camera height)")) {
            try PanoramaDepthMap(Gray16Image(width: 64, height: 32), nearestSurfaceMeters: .nan)
        }
    }
}
