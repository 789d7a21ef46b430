import Foundation
import Imaging
import Synchronization
import TestSupport
import Testing

/// FreeType text: glyph mapping with CJK fallback, metrics, errors, the glyph cache and golden images.
@Suite struct TextTests {
    static let labels = ["Pääposti", "Aleksis Kiven muistopatsas", "赫尔辛基大教堂"]

    static func fonts(capacity: Int = FontLibrary.defaultGlyphCacheCapacity) throws -> FontLibrary {
        try FontLibrary(glyphCacheCapacity: capacity)
    }

    @Test(arguments: FontWeight.allCases)
    func everyCharacterMapsToARealGlyph(weight: FontWeight) throws {
        let fonts = try Self.fonts()
        for label in Self.labels {
            for glyph in fonts.mapGlyphs(label, weight: weight) {
                #expect(glyph.glyphIndex != 0, "\(label): U+\(String(glyph.scalar.value, radix: 16)) is .notdef")
                let isCJK = (0x4E00...0x9FFF).contains(glyph.scalar.value)
                let primary: FontFace = weight == .bold ? .bold : .regular
                #expect(glyph.face == (isCJK ? .fallback : primary),
                        "\(label): U+\(String(glyph.scalar.value, radix: 16)) from \(glyph.face)")
            }
        }
    }

    @Test func measuredWidthsArePositiveAndPlausible() throws {
        let fonts = try Self.fonts()
        let style = TextStyle(pixelSize: 20)
        for label in Self.labels {
            let metrics = try fonts.measure(label, style: style)
            let count = Double(label.unicodeScalars.count)
            let isCJK = label.unicodeScalars.allSatisfy { $0.value >= 0x4E00 }
            // Latin in DejaVu Sans averages 0.45–0.75 em per character; CJK ideographs are 1 em each.
            let perCharacter = metrics.advanceWidth / count / style.pixelSize
            if isCJK {
                #expect(abs(perCharacter - 1) < 0.05, "\(label): \(perCharacter) em per character")
            } else {
                #expect(perCharacter > 0.45 && perCharacter < 0.75, "\(label): \(perCharacter) em per character")
            }
            #expect(metrics.ascent > 0.7 * style.pixelSize && metrics.ascent < 1.2 * style.pixelSize)
            #expect(metrics.descent > 0.1 * style.pixelSize && metrics.descent < 0.4 * style.pixelSize)
            #expect(metrics.inkWidth > 0.8 * metrics.advanceWidth && metrics.inkWidth < 1.1 * metrics.advanceWidth + 2)
            #expect(metrics.inkMinY < 0 && metrics.inkHeight <= metrics.lineHeight + 2)
        }
        // Width scales with the size, and bold is wider.
        let small = try fonts.measure("Pääposti", style: TextStyle(pixelSize: 12)).advanceWidth
        let large = try fonts.measure("Pääposti", style: TextStyle(pixelSize: 36)).advanceWidth
        #expect(abs(large / small - 3) < 0.05)
        let bold = try fonts.measure("Pääposti", style: TextStyle(pixelSize: 12, weight: .bold)).advanceWidth
        #expect(bold > small)
        // Empty text measures zero.
        #expect(try fonts.measure("", style: style).advanceWidth == 0)
    }

    @Test func boldCJKIsEmboldenedSynthetically() throws {
        let renderer = TextRenderer(fonts: try Self.fonts())
        func ink(_ weight: FontWeight) throws -> (Int, Double) {
            var canvas = Canvas(width: 200, height: 40)
            let metrics = try renderer.draw("赫尔辛基大教堂", at: PixelPoint(2, 30),
                                            style: TextStyle(pixelSize: 24, weight: weight), on: &canvas)
            return (canvas.image.components.enumerated().filter { $0.offset % 4 == 3 }.reduce(0) { $0 + Int($1.element) },
                    metrics.advanceWidth)
        }
        let (regular, regularWidth) = try ink(.regular), (bold, boldWidth) = try ink(.bold)
        #expect(Double(bold) > 1.15 * Double(regular), "bold ink \(bold) vs regular \(regular)")
        #expect(boldWidth > regularWidth && boldWidth < regularWidth * 1.1)
    }

    @Test func kerningTightensAV() throws {
        let fonts = try Self.fonts()
        let style = TextStyle(pixelSize: 40)
        let pair = try fonts.measure("AV", style: style).advanceWidth
        let apart = try fonts.measure("A", style: style).advanceWidth + fonts.measure("V", style: style).advanceWidth
        #expect(pair < apart - 1, "AV \(pair) vs A+V \(apart)")
    }

    @Test func haloWidensTheInkBox() throws {
        let fonts = try Self.fonts()
        let plain = try fonts.measure("Pääposti", style: TextStyle(pixelSize: 24))
        let haloed = try fonts.measure("Pääposti", style: TextStyle(pixelSize: 24, halo: .init(width: 3, color: .white)))
        #expect(abs(haloed.inkWidth - plain.inkWidth - 6) <= 2)
        #expect(haloed.advanceWidth == plain.advanceWidth)
    }

    @Test func drawingStaysInsideTheMeasuredInkBox() throws {
        let renderer = TextRenderer(fonts: try Self.fonts())
        let style = TextStyle(pixelSize: 18, color: .black, halo: .init(width: 2, color: .white))
        for label in Self.labels {
            var canvas = Canvas(width: 320, height: 40)
            let origin = PixelPoint(10.3, 28)
            let metrics = try renderer.draw(label, at: origin, style: style, on: &canvas)
            var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min, dark = 0, light = 0
            for y in 0..<canvas.height {
                for x in 0..<canvas.width where canvas.image[x, y, 3] > 0 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                    if canvas.image[x, y, 3] == 255 { if canvas.image[x, y, 0] < 64 { dark += 1 } else { light += 1 } }
                }
            }
            #expect(Double(minX) >= origin.x + metrics.inkMinX - 1 && Double(maxX) < origin.x + metrics.inkMaxX + 1, "\(label)")
            #expect(Double(minY) >= 28 + metrics.inkMinY && Double(maxY) < 28 + metrics.inkMaxY, "\(label)")
            #expect(dark > 20 && light > 20, "\(label): text \(dark) px, halo \(light) px")
        }
    }

    @Test func missingFontNamesThePathAndThePackage() {
        let paths = FontPaths(regular: FontPaths.debian.regular, bold: FontPaths.debian.bold,
                              fallback: "/nonexistent/wqy-microhei.ttc")
        do {
            _ = try FontLibrary(paths: paths)
            Issue.record("expected an error")
        } catch let error as ImagingError {
            guard case .font(let path, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(path == "/nonexistent/wqy-microhei.ttc")
            #expect(error.description.contains("fonts-wqy-microhei"))
            #expect(error.description.contains("/nonexistent/wqy-microhei.ttc"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
        let notAFont = FontPaths(regular: "/etc/hostname", bold: FontPaths.debian.bold, fallback: FontPaths.debian.fallback)
        #expect { try FontLibrary(paths: notAFont) } throws: { error in
            guard case ImagingError.font(let path, let detail) = error else { return false }
            return path == "/etc/hostname" && detail.contains("FreeType cannot read it")
        }
    }

    @Test func outOfRangeSizesAreErrors() throws {
        let fonts = try Self.fonts()
        #expect(throws: ImagingError.invalidParameter(name: "text pixel size", value: "0.0", allowed: "1.0…512.0 pixels")) {
            try fonts.measure("x", style: TextStyle(pixelSize: 0))
        }
        #expect(throws: ImagingError.invalidParameter(name: "text pixel size", value: "nan", allowed: "1.0…512.0 pixels")) {
            try fonts.measure("x", style: TextStyle(pixelSize: .nan))
        }
        #expect(throws: ImagingError.invalidParameter(name: "halo width", value: "100.0",
                                                      allowed: "more than 0 and at most 32.0 pixels")) {
            try fonts.measure("x", style: TextStyle(pixelSize: 12, halo: .init(width: 100, color: .white)))
        }
    }

    @Test func glyphCacheStaysBounded() throws {
        let fonts = try Self.fonts(capacity: 16)
        let renderer = TextRenderer(fonts: fonts)
        var canvas = Canvas(width: 400, height: 40)
        for size in [10.0, 11, 12] {
            try renderer.draw("abcdefghijklmnopqrstuvwxyz 赫尔辛基", at: PixelPoint(0, 30),
                              style: TextStyle(pixelSize: size), on: &canvas)
        }
        #expect(fonts.cachedGlyphCount <= 16)
        // Evicted glyphs render again identically.
        let a = try fonts.measure("Pääposti", style: TextStyle(pixelSize: 12))
        #expect(try fonts.measure("Pääposti", style: TextStyle(pixelSize: 12)) == a)
    }

    @Test func concurrentUseIsSafe() throws {
        let fonts = try Self.fonts(capacity: 32)
        let expected = try fonts.measure("Aleksis Kiven muistopatsas 赫尔辛基大教堂", style: TextStyle(pixelSize: 15))
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let renderer = TextRenderer(fonts: fonts)
            var canvas = Canvas(width: 300, height: 30)
            for size in [15.0, Double(10 + i)] {
                let m = try? renderer.draw("Aleksis Kiven muistopatsas 赫尔辛基大教堂", at: PixelPoint(0, 20),
                                           style: TextStyle(pixelSize: size), on: &canvas)
                if size == 15, m != expected { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }

    // MARK: - Golden images

    /// A busy, colourful background: a checkerboard of colours, discs and diagonal bands (kept
    /// compressible so the golden PNG stays small).
    static func busyBackground(width: Int, height: Int) -> Canvas {
        var canvas = Canvas(width: width, height: height, background: RGBAColor(red: 235, green: 225, blue: 200))
        let palette = [RGBAColor(red: 220, green: 70, blue: 60), RGBAColor(red: 250, green: 190, blue: 40),
                       RGBAColor(red: 60, green: 160, blue: 90), RGBAColor(red: 50, green: 110, blue: 200),
                       RGBAColor(red: 150, green: 70, blue: 170), RGBAColor(red: 30, green: 30, blue: 40)]
        var checker = Path()
        for row in 0..<(height / 32) {
            for column in 0..<(width / 32) where (row + column) % 2 == 0 {
                checker.addRectangle(x: Double(column * 32), y: Double(row * 32), width: 32, height: 32)
            }
        }
        canvas.fill(checker, color: RGBAColor(red: 120, green: 130, blue: 150))
        for i in 0..<6 {
            let start = Double(i) * 110 - 60
            canvas.drawLine(from: PixelPoint(start, Double(height)), to: PixelPoint(start + 160, 0), width: 14,
                            color: palette[i % palette.count])
        }
        for i in 0..<6 {
            let centre = PixelPoint(Double((i * 97) % width), Double((i * 53) % height))
            canvas.fillCircle(center: centre, radius: Double(18 + (i * 7) % 25), color: palette[(i + 2) % palette.count])
        }
        return canvas
    }

    static let ink = RGBAColor(red: 20, green: 20, blue: 30)
    static let whiteHalo = TextStyle.Halo(width: 2, color: RGBAColor(red: 255, green: 255, blue: 250))

    /// Draws rows of labels (size, weight, halo or not, which labels) from `firstBaseline` down.
    static func drawRows(_ rows: [(Double, FontWeight, Bool, [String])], firstBaseline: Double,
                         renderer: TextRenderer, on canvas: inout Canvas) throws -> Double {
        var y = firstBaseline
        for (size, weight, withHalo, labels) in rows {
            let style = TextStyle(pixelSize: size, weight: weight, color: ink, halo: withHalo ? whiteHalo : nil)
            var x = 8.0
            for label in labels {
                let metrics = try renderer.draw(label, at: PixelPoint(x, y), style: style, on: &canvas)
                x += metrics.advanceWidth + size
            }
            y += size * 1.55 + 6
        }
        return y
    }

    /// Small sizes (12 and 16 pixels), with and without halo, regular and bold. Two sheets rather than
    /// one keep each golden PNG under ~60 KB.
    @Test func goldenTextSmallSizes() throws {
        let renderer = TextRenderer(fonts: try Self.fonts())
        var canvas = Self.busyBackground(width: 512, height: 128)
        _ = try Self.drawRows([(12, .regular, false, Self.labels), (12, .regular, true, Self.labels),
                               (16, .regular, true, Self.labels), (16, .bold, false, Self.labels)],
                              firstBaseline: 20, renderer: renderer, on: &canvas)
        GoldenImage.check(canvas.image, named: "text-small")
    }

    /// Large sizes (24 and 36 pixels) with halos, including white text on a translucent dark halo.
    @Test func goldenTextLargeSizes() throws {
        let renderer = TextRenderer(fonts: try Self.fonts())
        var canvas = Self.busyBackground(width: 512, height: 128)
        _ = try Self.drawRows([(24, .regular, true, [Self.labels[0], Self.labels[2]]),
                               (24, .bold, true, [Self.labels[1]])],
                              firstBaseline: 26, renderer: renderer, on: &canvas)
        try renderer.draw("赫尔辛基大教堂 · Pääposti", at: PixelPoint(8.5, 112),
                          style: TextStyle(pixelSize: 36, weight: .bold, color: .white,
                                           halo: .init(width: 3, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 170))),
                          on: &canvas)
        GoldenImage.check(canvas.image, named: "text-large")
    }
}
