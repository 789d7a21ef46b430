import Imaging
@testable import MapSnapshot
import Testing

@Suite struct AnnotationGroupingTests {
    static func points(spacing: Double) -> [(index: Int, position: PixelPoint, identifier: String?)] {
        (0..<1000).map { i in (i, PixelPoint(Double(i % 40) * spacing, Double(i / 40) * spacing), "poi") }
    }

    @Test func thousandPointsCollapseIntoCountedGroupsThatSplitWhenZoomingIn() {
        let far = AnnotationGrouping.group(Self.points(spacing: 2), distance: 44)
        let near = AnnotationGrouping.group(Self.points(spacing: 16), distance: 44)
        let closest = AnnotationGrouping.group(Self.points(spacing: 50), distance: 44)
        #expect(far.reduce(0) { $0 + $1.members.count } == 1000)
        #expect(far.count < 20)
        #expect(near.count > far.count && near.count < 1000)
        #expect(closest.count == 1000)
    }

    @Test func differentIdentifiersNeverGroup() {
        let points: [(index: Int, position: PixelPoint, identifier: String?)] = [
            (0, PixelPoint(0, 0), "a"), (1, PixelPoint(1, 0), "b"), (2, PixelPoint(2, 0), nil), (3, PixelPoint(3, 0), "a")]
        let groups = AnnotationGrouping.group(points, distance: 44)
        #expect(groups.count == 3)
        #expect(groups.first { $0.members.contains(0) }?.members == [0, 3])
    }
}
