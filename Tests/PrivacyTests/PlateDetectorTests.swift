import Foundation
import Imaging
import Testing
@testable import Privacy

/// The plate detector's text lines and plate tests on real plates.
@Suite struct PlateDetectorTests {
    /// A plate tilted by about 12° in shade (a VW Passat's show plate, grey-white with black letters): its
    /// text line is the region's oriented rectangle, so the colour test sees the plate and not the bumper
    /// and road around its axis-aligned box (the detector missed it while it tested that box), and the
    /// box blurred covers the whole plate as marked by hand.
    @Test func aTiltedPlateInShadeIsFound() throws {
        let detector = try PrivacyTestData.detector.get()
        let plates = try #require(detector.plates)
        let image = try PrivacyTestData.crop("plate-passat-tilted.png")
        let marked = PixelBox(x: 18, y: 33, width: 162, height: 66)
        let lines = try plates.textLines(image)
        let line = try #require(lines.max { a, b in a.bounds.intersectionArea(marked) < b.bounds.intersectionArea(marked) })
        var tilt = atan2(line.axisY, line.axisX) * 180 / .pi
        if tilt > 90 { tilt -= 180 }
        if tilt < -90 { tilt += 180 }
        #expect(tilt > 6 && tilt < 18, "the text line follows the plate's tilt (\(tilt)°)")
        #expect(line.contains(line.centerX, line.centerY))
        #expect(!line.contains(line.centerX, line.centerY + 2 * line.halfThickness), "a point a plate's height below is outside")
        let found = try plates.detect(image)
        let plate = try #require(found.first { $0.box.intersectionArea(marked) >= 0.5 * marked.area }, "found: \(found)")
        #expect(plate.kind == .plate)
        #expect(plate.box.intersectionArea(marked) >= 0.7 * marked.area, "the box \(plate.box) covers the plate \(marked)")
        #expect(plate.box.area <= 2 * marked.area, "the box \(plate.box) is not much larger than the plate \(marked)")
        // Through the whole detector (faces too, at once): the plate is found, and nothing else is a plate.
        let all = try detector.detect(image, panorama: nil)
        #expect(all.filter { $0.kind == .plate }.count == 1, "plates: \(all)")
    }

    /// The oriented rectangle of an axis-aligned region is its bounding box.
    @Test func anUprightLinesRectangleIsItsBox() {
        let line = TextLine(centerX: 50, centerY: 20, axisX: 1, axisY: 0, halfLength: 30, halfThickness: 8, score: 0.9)
        #expect(line.bounds == PixelBox(x: 20, y: 12, width: 60, height: 16))
        #expect(line.contains(79, 27) && !line.contains(81, 20) && !line.contains(50, 29))
    }
}
