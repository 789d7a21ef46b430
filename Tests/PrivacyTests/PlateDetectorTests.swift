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

/// The colour test on drawn text lines: black bars on white pass, white bars on a sign's blue do not.
@Suite struct PlateColourTests {
    /// A 60×20 line of `background` with vertical bars of `ink`: `bar` of every 10 columns, in `rows`.
    static func line(background: (UInt8, UInt8, UInt8), ink: (UInt8, UInt8, UInt8), bar: Int = 4, rows: Range<Int> = 4..<16) -> RGB8Image {
        var image = RGB8Image(width: 60, height: 20)
        for y in 0..<20 {
            for x in 0..<60 {
                let c = x % 10 < bar && rows.contains(y) ? ink : background
                let i = (y * 60 + x) * 3
                image.components[i] = c.0; image.components[i + 1] = c.1; image.components[i + 2] = c.2
            }
        }
        return image
    }

    @Test func blackCharactersOnWhiteAreAPlatesColoursWhiteLettersOnBlueAreNot() throws {
        let box = PixelBox(x: 0, y: 0, width: 60, height: 20)
        let plate = try #require(PlateColours(Self.line(background: (235, 235, 230), ink: (25, 25, 30)), box))
        #expect(plate.isDarkTextOnPlateBackground, "\(plate)")
        #expect(plate.darkChroma < 10)
        // Bold white letters filling 48 % of their box: light enough a fraction to pass as a background.
        let sign = try #require(PlateColours(Self.line(background: (10, 85, 145), ink: (240, 240, 240), bar: 6, rows: 2..<18), box))
        #expect(sign.darkChroma > 100 && sign.lightFraction > 0.45 && sign.lightFraction < 0.5, "\(sign)")
        #expect(!sign.isDarkTextOnPlateBackground, "white letters on blue: \(sign)")
        // Dark blue letters on a white plate (as some US plates): the white is clearly the background.
        let blueInk = try #require(PlateColours(Self.line(background: (240, 240, 240), ink: (20, 40, 120)), box))
        #expect(blueInk.lightFraction >= 0.55 && blueInk.isDarkTextOnPlateBackground, "\(blueInk)")
    }
}
