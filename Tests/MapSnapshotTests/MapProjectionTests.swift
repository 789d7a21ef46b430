import Foundation
import Geodesy
import Imaging
@testable import MapSnapshot
import Testing

@Suite struct MapProjectionTests {
    static let cameras: [MapCamera] = [
        try! MapCamera(centerCoordinate: MapTestFixtures.centre, centerCoordinateDistanceMeters: 1500),
        try! MapCamera(centerCoordinate: MapTestFixtures.centre, centerCoordinateDistanceMeters: 800, heading: .degrees(37),
                       pitch: MapCameraPitch(degrees: 55)),
        try! MapCamera(centerCoordinate: MapTestFixtures.centre, centerCoordinateDistanceMeters: 600, heading: .degrees(300),
                       pitch: MapCameraPitch(degrees: 80)),
        try! MapCamera(centerCoordinate: GeoCoordinate(latitude: -17, longitude: 179.99), centerCoordinateDistanceMeters: 3_000_000),
    ]

    /// point → coordinate → point, over a grid of the image below the horizon, within 0.5 px (in fact ~1e-6).
    @Test(arguments: cameras)
    func pointCoordinateRoundTrip(camera: MapCamera) throws {
        let projection = MapProjection(camera: camera, widthPixels: 640, heightPixels: 480, scale: 1)
        var checked = 0
        for y in stride(from: 0.5, to: 480, by: 23) {
            for x in stride(from: 0.5, to: 640, by: 31) {
                let p = PixelPoint(x, y)
                guard let c = projection.coordinate(forPixel: p) else {
                    #expect(y < projection.horizonRow + 1, "nil below the horizon at \(p)")
                    continue
                }
                let back = try #require(projection.pixel(for: c))
                #expect((back - p).length < 0.5, "\(p) → \(c) → \(back)")
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test func coordinateIsNilAboveTheHorizon() throws {
        let camera = Self.cameras[2]
        let projection = MapProjection(camera: camera, widthPixels: 640, heightPixels: 480, scale: 1)
        #expect(projection.horizonRow > 0 && projection.horizonRow < 240)
        #expect(projection.coordinate(forPixel: PixelPoint(320, projection.horizonRow - 2)) == nil)
        #expect(projection.coordinate(forPixel: PixelPoint(320, projection.horizonRow + 2)) != nil)
        let snapshot = MapSnapshot(image: RGBA8Image(width: 1, height: 1), camera: camera, projection: projection)
        #expect(snapshot.coordinate(for: PixelPoint(320, 1)) == nil)
    }

    @Test func snapshotPointsAreInPointsAtScale2() throws {
        let options = MapSnapshotOptions(region: try MapTestFixtures.region(meters: 600), size: PointSize(width: 200, height: 100), scale: 2)
        let camera = try options.resolvedCamera()
        let projection = MapProjection(camera: camera, widthPixels: 400, heightPixels: 200, scale: 2)
        let snapshot = MapSnapshot(image: RGBA8Image(width: 1, height: 1), camera: camera, projection: projection)
        let p = try #require(snapshot.point(for: MapTestFixtures.centre))
        // The camera centres on the Mercator middle of the region, 0.02 m from its degree middle.
        #expect(abs(p.x - 100) < 1e-6 && abs(p.y - 50) < 0.01, "\(p)")
        let c = try #require(snapshot.coordinate(for: PixelPoint(150, 20)))
        let back = try #require(snapshot.point(for: c))
        #expect((back - PixelPoint(150, 20)).length < 0.5 / 2)
    }

    /// A region across the 180th meridian: both sides project inside the image, east of each other.
    @Test func regionAcrossThe180thMeridian() throws {
        let region = try CoordinateRegion(center: GeoCoordinate(latitude: -17, longitude: 180 - 360), span: CoordinateSpan(latitudeDelta: 4, longitudeDelta: 6))
        #expect(region.spans180thMeridian)
        let options = MapSnapshotOptions(region: region, size: PointSize(width: 300, height: 300))
        let projection = MapProjection(camera: try options.resolvedCamera(), widthPixels: 300, heightPixels: 300, scale: 1)
        let west = try #require(projection.pixel(for: GeoCoordinate(latitude: -17, longitude: 178)))
        let east = try #require(projection.pixel(for: GeoCoordinate(latitude: -17, longitude: -178)))
        #expect(west.x > 0 && west.x < 150 && east.x > 150 && east.x < 300)
        #expect(abs((east.x - west.x) - 200) < 1)      // 4° of a 6° wide view 300 px wide
        let c = try #require(projection.coordinate(forPixel: PixelPoint(299, 150)))
        #expect(abs(c.longitude - (-177.02)) < 0.001)    // 180 - 3 + 6 × 299/300
        let rect = MapRect(region)
        let fromRect = MapSnapshotOptions(framing: .mapRect(rect), size: PointSize(width: 300, height: 300))
        #expect(abs(try fromRect.resolvedCamera().centerCoordinateDistanceMeters - (try options.resolvedCamera()).centerCoordinateDistanceMeters) < 1e-6)
    }
}
