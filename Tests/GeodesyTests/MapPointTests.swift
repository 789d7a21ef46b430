import Foundation
import Testing
import TestSupport
@testable import Geodesy

/// Tolerances for the map projection tests, named once.
enum MapTolerance {
    /// Coordinate round trips through map points, degrees (~1 µm).
    static let degrees = 1e-11
    /// Map point positions, map points (a map point is ~15 cm at the equator).
    static let mapPoints = 1e-6
}


@Suite("MapPoint (Web Mercator)")
struct MapPointTests {
    let world = MapSize.world

    @Test func worldIsTwoToThe28() {
        #expect(world.width == 268_435_456 && world.height == 268_435_456)
        #expect(MapRect.world.size == world)
    }

    @Test func knownPoints() throws {
        let centre = MapPoint(try GeoCoordinate(latitude: 0, longitude: 0))
        #expect(centre == MapPoint(x: world.width / 2, y: world.height / 2))
        let topLeft = MapPoint(try GeoCoordinate(latitude: MapPoint.maximumLatitudeDegrees, longitude: -180))
        #expect(topLeft.x == 0 && abs(topLeft.y) < MapTolerance.mapPoints)
        #expect(abs(MapPoint.maximumLatitudeDegrees - 85.0511287798066) < 1e-12)
        // Beyond the Mercator limit the point stays on the world's edge.
        #expect(MapPoint(try GeoCoordinate(latitude: 90, longitude: 0)).y == 0)
        #expect(MapPoint(try GeoCoordinate(latitude: -90, longitude: 0)).y == world.height)
        #expect(MapPoint(try GeoCoordinate(latitude: 0, longitude: 90)).x == world.width * 0.75)
    }

    @Test func coordinateRoundTrip() throws {
        var rng = SeededGenerator(seed: 1)
        for _ in 0..<2000 {
            let c = try GeoCoordinate(latitude: Double.random(in: -85...85, using: &rng),
                                      longitude: Double.random(in: -180..<180, using: &rng))
            let back = try MapPoint(c).coordinate
            #expect(abs(back.latitude - c.latitude) < MapTolerance.degrees, "\(c)")
            #expect(abs(back.longitude - c.longitude) < MapTolerance.degrees, "\(c)")
        }
    }

    @Test func xBeyondTheWorldWraps() throws {
        let p = MapPoint(x: world.width * 1.25, y: world.height / 2)
        #expect(try p.coordinate.longitude == -90)
        #expect(try MapPoint(x: -world.width / 4, y: world.height / 2).coordinate.longitude == 90)
        // Any finite y is a valid latitude continuing the projection.
        #expect(try MapPoint(x: 0, y: -world.height).coordinate.latitude < 90)
    }

    @Test func nonFinitePointThrows() {
        let error = #expect { try MapPoint(x: .nan, y: 0).coordinate } throws: { error in
            guard case GeodesyError.notFinite("map point x", let x) = error else { return false }
            return x.isNaN
        }
        #expect((error as? GeodesyError)?.description.contains("map point x nan") == true)
        #expect(MapPoint(x: .infinity, y: 0).distanceMeters(to: MapPoint(x: 0, y: 0)).isNaN)
    }

    @Test func scaleAtLatitude() throws {
        let equator = try MapPoint.pointsPerMeter(atLatitude: 0)
        #expect(abs(equator - world.width / 40_075_016.685_578_49) < 1e-12)
        #expect(abs(try MapPoint.pointsPerMeter(atLatitude: 60) - 2 * equator) < 1e-9)
        #expect(abs(try MapPoint.metersPerMapPoint(atLatitude: 45) * MapPoint.pointsPerMeter(atLatitude: 45) - 1) < 1e-15)
        #expect(try MapPoint.pointsPerMeter(atLatitude: 90).isFinite)  // uses the Mercator limit
        let error = #expect(throws: GeodesyError.latitudeOutOfRange(95)) { try MapPoint.pointsPerMeter(atLatitude: 95) }
        #expect(error?.description.contains("[-90, 90]") == true)
    }

    @Test func distanceBetweenMapPointsMatchesScale() throws {
        // 1000 map points east at 60°N: the Mercator scale uses the equatorial radius, the ellipsoid's
        // parallel is a little longer (N cos φ), so they agree to e² sin²φ / 2 ≈ 0.25 %.
        let start = MapPoint(try GeoCoordinate(latitude: 60, longitude: 25))
        let end = MapPoint(x: start.x + 1000, y: start.y)
        let expected = 1000 * (try MapPoint.metersPerMapPoint(atLatitude: 60))
        #expect(abs(start.distanceMeters(to: end) / expected - 1) < 0.005)
        // And it is the geodesic distance between the two places.
        #expect(start.distanceMeters(to: end) == (try start.coordinate).distanceMeters(to: try end.coordinate))
    }
}

@Suite("MapRect across the 180th meridian")
struct MapRectTests {
    let w = MapSize.world.width

    @Test func spans180thMeridian() {
        #expect(!MapRect.world.spans180thMeridian)
        #expect(MapRect(x: w - 100, y: 0, width: 200, height: 10).spans180thMeridian)
        #expect(MapRect(x: -10, y: 0, width: 20, height: 10).spans180thMeridian)
        #expect(!MapRect(x: 10, y: 0, width: 20, height: 10).spans180thMeridian)
        #expect(!MapRect.null.spans180thMeridian)
    }

    @Test func remainderIsThePartBeyondTheMeridian() {
        #expect(MapRect(x: w - 100, y: 5, width: 300, height: 10).remainder == MapRect(x: 0, y: 5, width: 200, height: 10))
        #expect(MapRect(x: -30, y: 5, width: 100, height: 10).remainder == MapRect(x: w - 30, y: 5, width: 30, height: 10))
        #expect(MapRect(x: 10, y: 5, width: 100, height: 10).remainder.isNull)
        #expect(MapRect.null.remainder.isNull)
    }

    @Test func containsPointsOnBothSides() {
        let pacific = MapRect(x: w - 100, y: 0, width: 200, height: 100)
        #expect(pacific.contains(MapPoint(x: w - 50, y: 10)))
        #expect(pacific.contains(MapPoint(x: 50, y: 10)))       // east of the meridian, wrapped
        #expect(pacific.contains(MapPoint(x: w + 50, y: 10)))   // same place, unwrapped
        #expect(!pacific.contains(MapPoint(x: 150, y: 10)))
        #expect(!pacific.contains(MapPoint(x: 50, y: 100)))     // half-open at maxY
        #expect(pacific.contains(MapPoint(x: w - 100, y: 0)))   // closed at min
        #expect(!MapRect.null.contains(MapPoint(x: 0, y: 0)))
        #expect(pacific.contains(MapRect(x: 0, y: 10, width: 100, height: 10)))
        #expect(!pacific.contains(MapRect(x: 0, y: 10, width: 101, height: 10)))
    }

    @Test func intersectionAcrossTheMeridian() {
        let pacific = MapRect(x: w - 100, y: 0, width: 200, height: 100)
        let east = MapRect(x: 0, y: 50, width: 50, height: 100)
        #expect(pacific.intersects(east))
        #expect(pacific.intersection(east) == MapRect(x: w, y: 50, width: 50, height: 50))
        #expect(east.intersection(pacific) == MapRect(x: 0, y: 50, width: 50, height: 50))
        let far = MapRect(x: 1000, y: 0, width: 10, height: 10)
        #expect(!pacific.intersects(far))
        #expect(pacific.intersection(far).isNull)
        // Touching edges intersect in a zero-width rectangle.
        let touching = MapRect(x: 100, y: 0, width: 10, height: 10)
        #expect(pacific.intersects(touching))
        #expect(pacific.intersection(touching).width == 0)
    }

    @Test func unionPrefersTheShortWayRound() {
        let west = MapRect(x: w - 100, y: 0, width: 50, height: 10)
        let east = MapRect(x: 10, y: 5, width: 20, height: 10)
        let union = west.union(east)
        #expect(union == MapRect(x: w - 100, y: 0, width: 130, height: 15))
        #expect(union.spans180thMeridian)
        #expect(east.union(west) == union)
        #expect(west.union(.null) == west && MapRect.null.union(east) == east)
        // Two rectangles on opposite sides of the world never give more than one world width.
        let wide = MapRect(x: 0, y: 0, width: w * 0.6, height: 1).union(MapRect(x: w * 0.5, y: 0, width: w * 0.6, height: 1))
        #expect(wide.width == w)
    }

    @Test func setPropertiesOnRandomRects() {
        var rng = SeededGenerator(seed: 2)
        // Whole map points keep the arithmetic exact, so containment can be checked without a tolerance.
        let n = Int(w)
        func randomRect() -> MapRect {
            MapRect(x: Double(Int.random(in: 0..<n, using: &rng)), y: Double(Int.random(in: 0..<n / 2, using: &rng)),
                    width: Double(Int.random(in: 0...(n / 3), using: &rng)), height: Double(Int.random(in: 0...(n / 2), using: &rng)))
        }
        for _ in 0..<2000 {
            let a = randomRect(), b = randomRect()
            let union = a.union(b)
            #expect(union.contains(a) && union.contains(b), "\(a) ∪ \(b) = \(union)")
            let intersection = a.intersection(b)
            #expect(intersection.isNull == !a.intersects(b))
            #expect(a.intersects(b) == b.intersects(a))
            if !intersection.isNull {
                #expect(a.contains(intersection) && b.contains(intersection), "\(a) ∩ \(b) = \(intersection)")
            }
        }
    }
}
