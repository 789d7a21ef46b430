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

    /// Two rows of a two-row plate (as the text detector returns them, one line each) make one rectangle
    /// around both; lines side by side, far apart or of very different lengths do not.
    @Test func twoStackedRowsAreOnePlate() throws {
        let top = TextLine(centerX: 50, centerY: 20, axisX: 1, axisY: 0, halfLength: 16, halfThickness: 5, score: 0.8)
        let bottom = TextLine(centerX: 51, centerY: 31, axisX: 1, axisY: 0, halfLength: 20, halfThickness: 5, score: 0.9)
        let rows = try #require(top.stacked(on: bottom))
        #expect(abs(rows.bounds.x - 31) < 1e-9 && abs(rows.bounds.maxX - 71) < 1e-9, "\(rows.bounds)")
        #expect(abs(rows.bounds.y - 15) < 1e-9 && abs(rows.bounds.maxY - 36) < 1e-9, "\(rows.bounds)")
        #expect(bottom.stacked(on: top) != nil)
        let beside = TextLine(centerX: 90, centerY: 20, axisX: 1, axisY: 0, halfLength: 16, halfThickness: 5, score: 0.8)
        #expect(top.stacked(on: beside) == nil, "a word beside is no second row")
        let far = TextLine(centerX: 50, centerY: 45, axisX: 1, axisY: 0, halfLength: 16, halfThickness: 5, score: 0.8)
        #expect(top.stacked(on: far) == nil, "a line two rows away is no second row")
        let long = TextLine(centerX: 50, centerY: 31, axisX: 1, axisY: 0, halfLength: 40, halfThickness: 5, score: 0.8)
        #expect(top.stacked(on: long) == nil, "a row 2.5 times as long is no plate's other row")
    }

    /// A drawn two-row plate (black bars in two rows on white, 40×30) is a plate as two rows, not as one line.
    @Test func aTwoRowPlateIsAPlateOnlyAsTwoRows() throws {
        var image = RGB8Image(width: 60, height: 50, fill: 90)
        for y in 10..<40 {
            for x in 10..<50 {
                let row = (13..<23).contains(y) || (27..<37).contains(y)
                let ink = row && x >= 13 && x < 47 && (x - 13) % 6 < 3
                let i = (y * 60 + x) * 3
                for c in 0..<3 { image.components[i + c] = ink ? 20 : 235 }
            }
        }
        let rows = TextLine(centerX: 30, centerY: 25, axisX: 1, axisY: 0, halfLength: 20, halfThickness: 15, score: 0.9)
        let plate = try #require(PlateDetector.plate(rows, in: image, rows: 2))
        #expect(plate.box == PixelBox(x: 10, y: 10, width: 40, height: 30))
        #expect(PlateDetector.plate(rows, in: image) == nil, "1.3 times as long as high is no one-row plate")
    }

    /// The photo enlarged for the plate search is bilinear: a black and a white pixel become a ramp.
    @Test func aFlatPhotosPlatesAreNotInItsTopThird() {
        // A 1200 × 900 photo: a box centred at y 299 is in the top third (a sign's), one at 301 is not.
        #expect(!PrivacyDetector.plausiblePlateInFlatPhoto(PixelBox(x: 500, y: 289, width: 60, height: 20), photoHeight: 900))
        #expect(PrivacyDetector.plausiblePlateInFlatPhoto(PixelBox(x: 500, y: 291, width: 60, height: 20), photoHeight: 900))
        #expect(PrivacyDetector.plausiblePlateInFlatPhoto(PixelBox(x: 500, y: 800, width: 60, height: 20), photoHeight: 900))
    }

    @Test func theDoubledPhotoIsBilinear() {
        var image = RGB8Image(width: 2, height: 1)
        for c in 0..<3 { image.components[3 + c] = 255 }
        let doubled = Resampling.doubled(image)
        #expect(doubled.width == 4 && doubled.height == 2)
        for y in 0..<2 {
            #expect((0..<4).map { doubled.components[(y * 4 + $0) * 3] } == [0, 64, 191, 255])
        }
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
        #expect(plate.isDarkTextOnPlateBackground(), "\(plate)")
        #expect(plate.darkChroma < 10)
        // Bold white letters filling 48 % of their box: light enough a fraction to pass as a background.
        let sign = try #require(PlateColours(Self.line(background: (10, 85, 145), ink: (240, 240, 240), bar: 6, rows: 2..<18), box))
        #expect(sign.darkChroma > 100 && sign.lightFraction > 0.45 && sign.lightFraction < 0.5, "\(sign)")
        #expect(!sign.isDarkTextOnPlateBackground(), "white letters on blue: \(sign)")
        // Dark blue letters on a white plate (as some US plates): the white is clearly the background.
        let blueInk = try #require(PlateColours(Self.line(background: (240, 240, 240), ink: (20, 40, 120)), box))
        #expect(blueInk.lightFraction >= 0.55 && blueInk.isDarkTextOnPlateBackground(), "\(blueInk)")
        // Red letters on white (a shop's sign) and purple ones are not a plate's; black on yellow is.
        let redInk = try #require(PlateColours(Self.line(background: (235, 235, 230), ink: (170, 30, 40)), box))
        #expect(redInk.darkIsRedOrPurple && !redInk.isDarkTextOnPlateBackground(), "\(redInk)")
        let purpleInk = try #require(PlateColours(Self.line(background: (235, 235, 230), ink: (90, 30, 110)), box))
        #expect(!purpleInk.isDarkTextOnPlateBackground(), "\(purpleInk)")
        let yellowPlate = try #require(PlateColours(Self.line(background: (230, 190, 30), ink: (25, 25, 20)), box))
        #expect(!yellowPlate.darkIsRedOrPurple && yellowPlate.isDarkTextOnPlateBackground(), "\(yellowPlate)")
        // A plate of two rows needs less contrast than one of one row (the rows are evidence already).
        let faint = try #require(PlateColours(Self.line(background: (200, 200, 200), ink: (160, 160, 160)), box))
        #expect(faint.isDarkTextOnPlateBackground(rows: 2) && !faint.isDarkTextOnPlateBackground(rows: 1), "\(faint)")
    }
}
