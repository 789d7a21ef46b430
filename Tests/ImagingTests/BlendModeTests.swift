import Imaging
import TestSupport
import Testing

/// The fast premultiplied kernels against the scalar spec reference, and hand-computed spec values.
@Suite struct BlendModeTests {
    /// Float kernel vs reference, premultiplied channels in 0…1: rounding only.
    static let floatTolerance: Float = 1e-4
    /// 8-bit straight-alpha path vs reference rounded to 8 bits: one level.
    static let eightBitToleranceLevels = 1
    /// Hand-computed values (three to six decimals written out).
    static let handTolerance: Float = 1e-3

    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
        /// Bytes biased towards the interesting ends: 0, 255 and mid values.
        mutating func channel() -> UInt8 {
            switch next() % 8 {
            case 0: return 0
            case 1: return 255
            case 2: return 128
            default: return byte()
            }
        }
    }

    static func rgb(_ c: RGBAColor) -> BlendMode.ReferenceRGB {
        (Float(c.red) / 255, Float(c.green) / 255, Float(c.blue) / 255)
    }

    @Test(arguments: BlendMode.allCases)
    func eightBitPathMatchesReference(mode: BlendMode) {
        let count = 4096
        var generator = Generator(state: UInt64(mode.rawValue.count * 977 + 1))
        var backdrop = RGBA8Image(width: count, height: 1), source = RGBA8Image(width: count, height: 1)
        for i in 0..<(count * 4) {
            backdrop.components[i] = generator.channel()
            source.components[i] = generator.channel()
        }
        var canvas = Canvas(image: backdrop)
        canvas.draw(source, x: 0, y: 0, blendMode: mode)
        var worst = 0
        for x in 0..<count {
            let s = RGBAColor(red: source[x, 0, 0], green: source[x, 0, 1], blue: source[x, 0, 2], alpha: source[x, 0, 3])
            let b = RGBAColor(red: backdrop[x, 0, 0], green: backdrop[x, 0, 1], blue: backdrop[x, 0, 2],
                              alpha: backdrop[x, 0, 3])
            let expected = mode.referenceComposite(source: Self.rgb(s), sourceAlpha: Float(s.alpha) / 255,
                                                   backdrop: Self.rgb(b), backdropAlpha: Float(b.alpha) / 255)
            let expectedAlpha = Int((expected.alpha * 255).rounded())
            var differences = [abs(Int(canvas.image[x, 0, 3]) - expectedAlpha)]
            if expectedAlpha > 0 {
                let channels = [expected.color.red, expected.color.green, expected.color.blue]
                for c in 0..<3 {
                    let e = Int((min(max(channels[c], 0), 1) * 255).rounded())
                    differences.append(abs(Int(canvas.image[x, 0, c]) - e))
                }
            }
            worst = max(worst, differences.max() ?? 0)
            if differences.contains(where: { $0 > Self.eightBitToleranceLevels }) {
                let got = (0..<4).map { canvas.image[x, 0, $0] }
                Issue.record("\(mode) source \(s) backdrop \(b): got \(got); expected \(expected)")
                return
            }
        }
        #expect(worst <= Self.eightBitToleranceLevels)
    }

    @Test(arguments: BlendMode.allCases)
    func floatKernelMatchesReference(mode: BlendMode) {
        var generator = Generator(state: 12345)
        func unit() -> Float { Float(generator.next() % 100_001) / 100_000 }
        for _ in 0..<2000 {
            let sa = generator.next() % 5 == 0 ? 1 : unit(), ba = generator.next() % 5 == 0 ? 1 : unit()
            let s = (unit(), unit(), unit()), b = (unit(), unit(), unit())
            let fast = Compositing.composite(
                PremultipliedColor(red: s.0 * sa, green: s.1 * sa, blue: s.2 * sa, alpha: sa),
                onto: PremultipliedColor(red: b.0 * ba, green: b.1 * ba, blue: b.2 * ba, alpha: ba), mode: mode)
            let reference = mode.referenceComposite(source: s, sourceAlpha: sa, backdrop: b, backdropAlpha: ba)
            let expected = [reference.color.red * reference.alpha, reference.color.green * reference.alpha,
                            reference.color.blue * reference.alpha, reference.alpha]
            let got = [fast.red, fast.green, fast.blue, fast.alpha]
            for c in 0..<4 where abs(got[c] - expected[c]) > Self.floatTolerance {
                Issue.record("\(mode) s \(s) αs \(sa) b \(b) αb \(ba): got \(got), expected \(expected)")
                return
            }
        }
    }

    static func opaqueBlend(_ mode: BlendMode, backdrop: BlendMode.ReferenceRGB,
                            source: BlendMode.ReferenceRGB) -> [Float] {
        let premultipliedResult = Compositing.composite(
            PremultipliedColor(red: source.red, green: source.green, blue: source.blue, alpha: 1),
            onto: PremultipliedColor(red: backdrop.red, green: backdrop.green, blue: backdrop.blue, alpha: 1),
            mode: mode)
        return [premultipliedResult.red, premultipliedResult.green, premultipliedResult.blue]
    }

    static func close(_ a: [Float], _ b: [Float]) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= handTolerance }
    }

    /// Opaque source over opaque backdrop: the result is B(Cb, Cs) itself, worked out by hand from the spec.
    @Test func handComputedSpecValues() {
        let cb = (Float(1), Float(0.5), Float(0.2)), half = (Float(0.5), Float(0.5), Float(0.5))
        #expect(Self.close(Self.opaqueBlend(.multiply, backdrop: cb, source: half), [0.5, 0.25, 0.1]))
        #expect(Self.close(Self.opaqueBlend(.screen, backdrop: cb, source: half), [1, 0.75, 0.6]))
        // overlay = HardLight(Cs, Cb): Cb 1 → Screen(0.5, 1) = 1; Cb 0.5 → Multiply(0.5, 1); Cb 0.2 → Multiply(0.5, 0.4).
        #expect(Self.close(Self.opaqueBlend(.overlay, backdrop: cb, source: half), [1, 0.5, 0.2]))
        #expect(Self.close(Self.opaqueBlend(.darken, backdrop: cb, source: half), [0.5, 0.5, 0.2]))
        #expect(Self.close(Self.opaqueBlend(.lighten, backdrop: cb, source: half), [1, 0.5, 0.5]))
        // color-burn: Cb 1 → 1; Cb 0.8, Cs 0.5 → 1 − 0.2/0.5 = 0.6; Cb 0.5, Cs 0.25 → 1 − min(1, 2) = 0; Cs 0 → 0.
        #expect(Self.close(Self.opaqueBlend(.colorBurn, backdrop: (1, 0.8, 0.5), source: (0.3, 0.5, 0.25)), [1, 0.6, 0]))
        #expect(Self.close(Self.opaqueBlend(.colorBurn, backdrop: (0.3, 0.3, 0.3), source: (0, 0, 0)), [0, 0, 0]))
        // hard-light: Cs 0.25 → Multiply(0.5, 0.5) = 0.25; Cs 0.75 → Screen(0.5, 0.5) = 0.75; Cs 0.5 → Cb.
        #expect(Self.close(Self.opaqueBlend(.hardLight, backdrop: half, source: (0.25, 0.75, 0.5)), [0.25, 0.75, 0.5]))
        // luminosity: SetLum((1,0,0), 0.5) = (1.2, 0.2, 0.2) clipped about L = 0.5 → (1, 2/7, 2/7).
        #expect(Self.close(Self.opaqueBlend(.luminosity, backdrop: (1, 0, 0), source: half), [1, 2.0 / 7, 2.0 / 7]))
        // color: SetLum(Cs = (1,0,0), Lum(grey 0.5)) is the same computation.
        #expect(Self.close(Self.opaqueBlend(.color, backdrop: half, source: (1, 0, 0)), [1, 2.0 / 7, 2.0 / 7]))
        // hue: SetSat((1,0,0), Sat(Cb) = 0.6) = (0.6, 0, 0), Lum 0.18 → +0.204 to reach Lum(Cb) = 0.384.
        #expect(Self.close(Self.opaqueBlend(.hue, backdrop: (0.2, 0.4, 0.8), source: (1, 0, 0)), [0.804, 0.204, 0.204]))
        // hue onto grey: Sat(Cb) = 0 gives grey at Lum(Cb).
        #expect(Self.close(Self.opaqueBlend(.hue, backdrop: half, source: (1, 0, 0)), [0.5, 0.5, 0.5]))
        // saturation: SetSat((0.8,0.4,0.2), 1) = (1, 1/3, 0), then SetLum to 0.498 and ClipColor.
        #expect(Self.close(Self.opaqueBlend(.saturation, backdrop: (0.8, 0.4, 0.2), source: (1, 0, 0)),
                           [1, 0.335099, 0.002649]))
    }

    /// The general formula with translucent layers, worked by hand.
    @Test func translucentBackdropUsesTheGeneralFormula() {
        // Normal: red at 0.5 over blue at 0.5 → αo 0.75, co (0.5, 0, 0.25) → Co (2/3, 0, 1/3).
        let normal = Compositing.composite(PremultipliedColor(red: 0.5, green: 0, blue: 0, alpha: 0.5),
                                           onto: PremultipliedColor(red: 0, green: 0, blue: 0.5, alpha: 0.5),
                                           mode: .normal)
        #expect(Self.close([normal.red, normal.green, normal.blue, normal.alpha], [0.5, 0, 0.25, 0.75]))
        // Multiply: opaque white over (0.2, 0.4, 0.6) at 0.5 → Cs' = 0.5·1 + 0.5·Cb = (0.6, 0.7, 0.8), αo 1.
        let multiply = Compositing.composite(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1),
                                             onto: PremultipliedColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.5),
                                             mode: .multiply)
        #expect(Self.close([multiply.red, multiply.green, multiply.blue, multiply.alpha], [0.6, 0.7, 0.8, 1]))
        // Onto a transparent backdrop every mode gives the source unchanged.
        for mode in BlendMode.allCases {
            let r = Compositing.composite(PremultipliedColor(red: 0.2, green: 0.1, blue: 0.3, alpha: 0.4),
                                          onto: PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0), mode: mode)
            #expect(Self.close([r.red, r.green, r.blue, r.alpha], [0.2, 0.1, 0.3, 0.4]), "\(mode)")
        }
        // Reference agrees: normal straight result.
        let ref = BlendMode.normal.referenceComposite(source: (1, 0, 0), sourceAlpha: 0.5,
                                                      backdrop: (0, 0, 1), backdropAlpha: 0.5)
        #expect(Self.close([ref.color.red, ref.color.green, ref.color.blue, ref.alpha], [2.0 / 3, 0, 1.0 / 3, 0.75]))
    }

    /// A whole image (split across cores) gives, pixel for pixel, what the one-pixel kernel gives.
    @Test(arguments: [BlendMode.normal, .overlay, .luminosity])
    func wholeImageCompositingMatchesPerPixelKernel(mode: BlendMode) {
        var generator = Generator(state: 4242)
        var backdrop = RGBA8Image(width: 160, height: 120), source = RGBA8Image(width: 100, height: 90)
        for i in backdrop.components.indices { backdrop.components[i] = generator.channel() }
        for i in source.components.indices { source.components[i] = generator.channel() }
        var result = backdrop
        Compositing.composite(source, onto: &result, x: 70, y: 40, opacity: 0.75, mode: mode)
        var worst = 0
        for y in 0..<120 {
            for x in 0..<160 {
                let b = RGBAColor(red: backdrop[x, y, 0], green: backdrop[x, y, 1], blue: backdrop[x, y, 2],
                                  alpha: backdrop[x, y, 3])
                var expected = b
                if x >= 70, y >= 40, x - 70 < 100, y - 40 < 90 {
                    let s = RGBAColor(red: source[x - 70, y - 40, 0], green: source[x - 70, y - 40, 1],
                                      blue: source[x - 70, y - 40, 2], alpha: source[x - 70, y - 40, 3])
                    var sp = s.premultiplied
                    sp = PremultipliedColor(red: sp.red * 0.75, green: sp.green * 0.75, blue: sp.blue * 0.75,
                                            alpha: sp.alpha * 0.75)
                    if s.alpha > 0 { expected = Compositing.composite(sp, onto: b.premultiplied, mode: mode).straight }
                }
                let got = (0..<4).map { Int(result[x, y, $0]) }
                let want = [Int(expected.red), Int(expected.green), Int(expected.blue), Int(expected.alpha)]
                worst = max(worst, zip(got, want).map { abs($0 - $1) }.max() ?? 0)
            }
        }
        #expect(worst <= Self.eightBitToleranceLevels)
    }

    @Test func imageCompositingHonoursOffsetOpacityAndClipping() {
        var destination = RGBA8Image(width: 8, height: 8, fill: 255)         // opaque white
        var overlay = RGBA8Image(width: 4, height: 4)
        for i in 0..<16 { overlay.components[4 * i + 3] = 255 }                // opaque black
        Compositing.composite(overlay, onto: &destination, x: 6, y: -2, opacity: 0.5, mode: .normal)
        #expect(destination[6, 0, 0] == 128 && destination[7, 1, 0] == 128)
        #expect(destination[5, 0, 0] == 255 && destination[6, 2, 0] == 255)
        #expect(destination[6, 0, 3] == 255)
        // Fully outside: nothing changes.
        let before = destination
        Compositing.composite(overlay, onto: &destination, x: 100, y: 0)
        #expect(destination == before)
    }

    /// Every mode on one sheet: a backdrop of colour bars (with a grey ramp row), two translucent
    /// swatches per cell drawn with the cell's mode, labelled with the mode's CSS name.
    @Test func goldenBlendModeSheet() throws {
        let cellWidth = 128, cellHeight = 85
        var canvas = Canvas(width: 512, height: 256, background: .white)
        let bars = [RGBAColor(red: 230, green: 40, blue: 40), RGBAColor(red: 250, green: 210, blue: 30),
                    RGBAColor(red: 40, green: 180, blue: 70), RGBAColor(red: 30, green: 190, blue: 210),
                    RGBAColor(red: 40, green: 70, blue: 220), RGBAColor(red: 210, green: 50, blue: 190),
                    RGBAColor(red: 250, green: 250, blue: 250), RGBAColor(red: 20, green: 20, blue: 20)]
        for x in stride(from: 0, to: 512, by: 16) {
            var bar = Path()
            bar.addRectangle(x: Double(x), y: 0, width: 16, height: 256)
            canvas.fill(bar, color: bars[(x / 16) % bars.count])
        }
        // A grey ramp across the upper band of every cell row, for the non-separable modes.
        for row in 0..<3 {
            for x in stride(from: 0, to: 512, by: 8) {
                var step = Path()
                step.addRectangle(x: Double(x), y: Double(row * cellHeight + 6), width: 8, height: 14)
                let v = UInt8((x % cellWidth) * 255 / (cellWidth - 8))
                canvas.fill(step, color: RGBAColor(red: v, green: v, blue: v))
            }
        }
        let renderer = TextRenderer(fonts: try FontLibrary())
        let label = TextStyle(pixelSize: 13, weight: .bold, color: RGBAColor(red: 15, green: 15, blue: 25),
                              halo: .init(width: 2, color: .white))
        for (i, mode) in BlendMode.allCases.enumerated() {
            let x0 = Double((i % 4) * cellWidth), y0 = Double((i / 4) * cellHeight)
            var warm = Path()
            warm.addCircle(center: PixelPoint(x0 + 46, y0 + 40), radius: 30)
            canvas.fill(warm, color: RGBAColor(red: 255, green: 140, blue: 20, alpha: 220), blendMode: mode)
            var cool = Path()
            cool.addRectangle(x: x0 + 60, y: y0 + 14, width: 56, height: 50)
            canvas.fill(cool, color: RGBAColor(red: 60, green: 120, blue: 255, alpha: 160), blendMode: mode)
            try renderer.draw(mode.cssName, at: PixelPoint(x0 + 6, y0 + 80), style: label, on: &canvas)
        }
        GoldenImage.check(canvas.image, named: "blend-modes")
    }
}
