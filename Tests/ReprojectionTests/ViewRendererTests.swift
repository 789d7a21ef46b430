import CViewKernels
import Foundation
import Imaging
import Testing
import TestSupport
@testable import Reprojection

@Suite("Fast renderer vs reference")
struct ViewRendererTests {
    static let panorama: PanoramaImage = {
        guard let image = try? PanoramaImage(Fixtures.gridPanorama(width: 1024)) else { preconditionFailure("2:1 fixture") }
        return image
    }()
    /// The steepest panorama: where the reference and a fast path that samples a little off part most.
    static let noise: PanoramaImage = {
        guard let image = try? PanoramaImage(Fixtures.noisePanorama(width: 1024)) else { preconditionFailure("2:1 fixture") }
        return image
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        var heading: Double, pitch: Double, fov: Double, pose: PanoramaPose
        var width = 160, height = 120
        var testDescription: String {
            "h\(heading) p\(pitch) fov\(fov) \(width)x\(height) pose(\(pose.headingDegrees),\(pose.pitchDegrees),\(pose.rollDegrees))"
        }
    }
    static let cases: [Case] = [
        Case(heading: 0, pitch: 0, fov: 90, pose: .north),
        Case(heading: 180, pitch: 0, fov: 90, pose: .north),          // the ±180° seam down the middle
        Case(heading: 175, pitch: 10, fov: 120, pose: .north),
        Case(heading: 30, pitch: 90, fov: 100, pose: .north),         // zenith in view
        Case(heading: 300, pitch: -90, fov: 60, pose: .north),        // nadir
        Case(heading: 0, pitch: 90, fov: 120, pose: .north),          // zenith at the centre, widest view
        Case(heading: 180, pitch: -89.5, fov: 120, pose: .north),     // nadir and seam together
        Case(heading: 200, pitch: 75, fov: 120, pose: .north),
        Case(heading: 45, pitch: -30, fov: 10, pose: .north),
        Case(heading: 90, pitch: 20, fov: 90, pose: PanoramaPose(headingDegrees: 280, pitchDegrees: 8, rollDegrees: -12)),
        Case(heading: 181, pitch: 40, fov: 75, pose: PanoramaPose(headingDegrees: 3, pitchDegrees: -20, rollDegrees: 30),
             width: 161, height: 97),                                 // odd sizes: partial blocks and span tails
    ]

    /// Fast vs reference, one kernel (AVX2 where the CPU has it, else the portable one) or the portable
    /// one forced, on the grid and on the noise panorama.
    func compare(_ c: Case, portable: Bool, kernel: SamplingKernel, blockSize: Int = 64) throws {
        let camera = try Fixtures.camera(c.heading, c.pitch, fov: c.fov, width: c.width, height: c.height)
        for (panorama, label) in [(Self.panorama, "grid"), (Self.noise, "noise")] {
            var renderer = try ViewRenderer(kernel: kernel, blockSizePixels: blockSize)
            renderer.usesPortableKernel = portable
            var fast = RGB8Image(width: c.width, height: c.height)
            try renderer.render(panorama, camera: camera, pose: c.pose, into: &fast)
            let reference = ReferenceRenderer.render(panorama, camera: camera, pose: c.pose, kernel: kernel)
            let d = Fixtures.difference(fast, reference)
            let name = "view-\(c.testDescription)-\(kernel)-\(portable ? "portable" : "dispatched")-block\(blockSize)-\(label)"
            let within = d.maximum <= Fixtures.fastPathMaximumDifferenceGreyLevels && d.mean <= Fixtures.fastPathMeanDifferenceGreyLevels
            // The pictures to look at: on failure, or for every case with LOOKAROUND_WRITE_VIEWS=1.
            var written = ""
            if !within || ProcessInfo.processInfo.environment["LOOKAROUND_WRITE_VIEWS"] == "1" {
                written = " (images: \(try Fixtures.writeComparison(fast, reference, name: name)))"
            }
            #expect(d.maximum <= Fixtures.fastPathMaximumDifferenceGreyLevels, "\(d), \(name)\(written)")
            #expect(d.mean <= Fixtures.fastPathMeanDifferenceGreyLevels, "\(d), \(name)\(written)")
        }
    }

    @Test("bilinear: every channel within 1 grey level of the exact Double reference (poles, seam, noise)", arguments: cases)
    func bilinearMatchesReference(_ c: Case) throws {
        try compare(c, portable: false, kernel: .bilinear)
        try compare(c, portable: false, kernel: .bilinear, blockSize: 16)
    }

    @Test("bilinear, portable span kernel: within 1 grey level of the reference", arguments: cases)
    func portableMatchesReference(_ c: Case) throws {
        try compare(c, portable: true, kernel: .bilinear)
    }

    @Test("bicubic fast path within 1 grey level of the reference", arguments: [cases[1], cases[3], cases[9], cases[10]])
    func bicubicMatchesReference(_ c: Case) throws {
        try compare(Case(heading: c.heading, pitch: c.pitch, fov: c.fov, pose: c.pose, width: 96, height: 64),
                    portable: false, kernel: .bicubic)
    }

    @Test("interpolated positions stay within 1/1024 px of the exact projection (poles and seam included)",
          arguments: cases)
    func interpolationErrorBound(_ c: Case) throws {
        // The panorama width the pyramid would pick for this view (≤ √2 source pixels per view pixel).
        let camera = try Fixtures.camera(c.heading, c.pitch, fov: c.fov, width: 320, height: 240)
        let ratio = ViewProjection(camera: camera, pose: c.pose, panoramaWidth: 8192).sourcePixelsPerViewPixel
        let width = 8192 >> PanoramaPyramid.levelIndex(forSourcePixelsPerViewPixel: ratio)
        for blockSize in [16, 32, 64] {
            var renderer = try ViewRenderer(blockSizePixels: blockSize)
            let worst = renderer.largestInterpolationError(panoramaWidth: width, camera: camera, pose: c.pose)
            #expect(worst <= ViewRenderer.interpolationToleranceSourcePixels, "block \(blockSize): worst \(worst) px")
        }
    }

    @Test("a benchmark frame (1920x1080 of 8192x4096, pitch ±20°) fits every block without splitting, within 1/1024 px",
          arguments: [(0.0, 0.0), (183.0, 20.0), (97.6, -19.5)])
    func benchmarkFrameInterpolation(heading: Double, pitch: Double) throws {
        let camera = try Fixtures.camera(heading, pitch, fov: 90, width: 1920, height: 1080)
        var renderer = try ViewRenderer()
        let worst = renderer.largestInterpolationError(panoramaWidth: 8192, camera: camera, pose: .north)
        #expect(worst <= ViewRenderer.interpolationToleranceSourcePixels, "worst \(worst) px")
        #expect(renderer.splitBlockCount == 0 && renderer.exactBlockCount == 0)
    }

    @Test("a view of the zenith splits the blocks around it and projects exactly only the sub-blocks nearest it")
    func zenithSplits() throws {
        // Longitude turns around the pole: a cubic through nodes a block apart meets 1/1024 px only about
        // eight blocks away from it (the fourth derivative grows as 1/r⁴).
        let camera = try Fixtures.camera(0, 90, fov: 120, width: 1280, height: 720)
        var renderer = try ViewRenderer()
        let worst = renderer.largestInterpolationError(panoramaWidth: 4096, camera: camera, pose: .north)
        #expect(worst <= ViewRenderer.interpolationToleranceSourcePixels, "worst \(worst) px")
        let subBlocks = renderer.splitBlockCount * 16
        #expect(renderer.splitBlockCount > 0 && renderer.exactBlockCount > 0)
        // Exact pixels: a disc of about 8 sub-blocks (128 px) around the pole, a small part of the view.
        #expect(renderer.exactBlockCount * 256 < camera.width * camera.height / 8,
                "\(renderer.exactBlockCount) of \(subBlocks) sub-blocks exact, \(renderer.splitBlockCount) of \(renderer.blockCount) blocks split")
    }

    @Test("the AVX2 and portable span kernels agree on random spans (the same bytes on x86-64, else within 1 grey level), seam crossings included",
          .enabled(if: ViewRenderer.hasVectorKernel, "this CPU lacks AVX2: only the portable kernel runs here"))
    func kernelsAgree() throws {
        let panorama = Self.noise
        var generator = SeededRandom(seed: 42)
        func random() -> Double { generator.unit() }
        var differing = 0, total = 0
        try panorama.pixels.withUnsafeBufferPointer { pixels in
            for trial in 0..<400 {
                let count = 1 + Int(random() * 200)
                let wraps = trial % 4 == 0
                // A cubic path up to a few hundred pixels long across the panorama (across the seam when
                // wrapping), kept where the kernels' preconditions hold.
                var u: [Double] = [], v: [Double] = []
                while true {
                    let u0 = wraps ? Double(panorama.width) - 5 - random() * 100 : 10 + random() * 500
                    u = [u0, 0.5 + random() * 1.5, (random() - 0.5) * 0.004, (random() - 0.5) * 0.00002]
                    v = [20 + random() * 400, (random() - 0.5) * 0.4, (random() - 0.5) * 0.002, (random() - 0.5) * 0.00001]
                    let xs = (0..<count).map { m in u[0] + Double(m) * (u[1] + Double(m) * (u[2] + Double(m) * u[3])) }
                    let ys = (0..<count).map { m in v[0] + Double(m) * (v[1] + Double(m) * (v[2] + Double(m) * v[3])) }
                    let xOK = wraps ? xs.allSatisfy { $0 > 0 && $0 < 2 * Double(panorama.width) - 2 }
                        : xs.allSatisfy { $0 > 0.01 && $0 < Double(panorama.width) - 1.01 }
                    if xOK && ys.allSatisfy({ $0 > 0.01 && $0 < Double(panorama.height) - 1.01 }) { break }
                }
                var a = [UInt8](repeating: 0, count: 3 * count), b = a
                lk_bilinear_span_avx2(pixels.baseAddress, Int32(panorama.width), Int32(panorama.height), u, v, Int32(count), &a, wraps ? 1 : 0)
                lk_bilinear_span_portable(pixels.baseAddress, Int32(panorama.width), Int32(panorama.height), u, v, Int32(count), &b, wraps ? 1 : 0)
                for k in 0..<a.count where a[k] != b[k] {
                    differing += 1
                    try #require(abs(Int(a[k]) - Int(b[k])) <= 1, "trial \(trial) byte \(k): \(a[k]) vs \(b[k])")
                }
                total += a.count
            }
        }
        // On x86-64 the portable kernel is the AVX2 kernel's arithmetic in SSE2: the same bytes. Elsewhere
        // (plain C) it steps one pixel at a time in 40-bit fixed point against AVX2's 8 at a time in 20-bit
        // (within ~2^-14 px of the cubic): a 14-bit fraction now and then truncates the other way, which
        // moves a channel across a rounding boundary on this steepest of images.
        #if arch(x86_64)
        #expect(differing == 0, "\(differing) of \(total) bytes differ")
        #else
        #expect(Double(differing) / Double(total) < 0.02, "\(differing) of \(total) bytes differ")
        #endif
    }

    @Test("the span kernels write exactly 3 × count bytes (odd and even counts, seam crossings); a block span reaching a pole's last half row is left to the caller")
    func spansWriteOnlyTheirBytes() throws {
        let panorama = Self.noise
        try panorama.pixels.withUnsafeBufferPointer { pixels in
            let w = Int32(panorama.width), h = Int32(panorama.height)
            for count in [1, 2, 3, 7, 8, 9, 15, 16, 17, 63, 64, 65, 255, 256] {
                for wraps in [false, true] {
                    let u = [wraps ? Double(panorama.width) - 3.3 : 10.7, 1.13, 0.0002, -0.000001], v = [30.2, 0.07, 0.0001, 0]
                    for vector in ViewRenderer.hasVectorKernel ? [false, true] : [false] {
                        var out = [UInt8](repeating: 0xA5, count: 3 * count + 16)
                        out.withUnsafeMutableBufferPointer { o in
                            let start = o.baseAddress! + 8
                            if vector {
                                lk_bilinear_span_avx2(pixels.baseAddress, w, h, u, v, Int32(count), start, wraps ? 1 : 0)
                            } else {
                                lk_bilinear_span_portable(pixels.baseAddress, w, h, u, v, Int32(count), start, wraps ? 1 : 0)
                            }
                        }
                        let outside = Array(out[0..<8]) + Array(out[(8 + 3 * count)...])
                        #expect(outside.allSatisfy { $0 == 0xA5 }, "count \(count), wraps \(wraps), AVX2 \(vector): wrote outside the span")
                    }
                }
            }
            // A block whose rows reach the last half row above the bottom pole: refused, nothing written.
            var k = [Double](repeating: 0, count: 32)
            k[0] = 100; k[1] = 1; k[16] = Double(panorama.height) - 1.2; k[17] = 0.01
            var out = [UInt8](repeating: 0xA5, count: 3 * 64)
            let done = lk_bilinear_block_span(pixels.baseAddress, w, h, k, 0, 64, &out, 0)
            #expect(done == 0 && out.allSatisfy { $0 == 0xA5 })
            k[16] = 40
            #expect(lk_bilinear_block_span(pixels.baseAddress, w, h, k, 0, 64, &out, 0) == 1)
        }
    }

    @Test("a block checked once (lk_bilinear_block_check) has every tap inside the span kernels' preconditions, and lk_bilinear_row writes its rows' bytes as lk_bilinear_block_span does, nothing else")
    func checkedBlocksMatchSpans() throws {
        let panorama = Self.noise
        var generator = SeededRandom(seed: 11)
        func random() -> Double { generator.unit() }
        var accepted = 0, refused = 0, wrapping = 0
        try panorama.pixels.withUnsafeBufferPointer { pixels in
            let w = Int32(panorama.width), h = Int32(panorama.height), width = Double(panorama.width), height = Double(panorama.height)
            for trial in 0..<400 {
                // A bicubic like a view block's (a tilted, curving row path), anywhere in the panorama: near the
                // seam, near the poles and in between.
                var k = [Double](repeating: 0, count: 32)
                k[0] = trial % 4 == 0 ? width - 40 * random() : width * random()
                k[1] = 0.3 + random(); k[2] = (random() - 0.5) * 0.004; k[3] = (random() - 0.5) * 0.00002
                k[4] = (random() - 0.5) * 0.3; k[5] = (random() - 0.5) * 0.002; k[8] = (random() - 0.5) * 0.002
                k[16] = trial % 5 == 0 ? 0.5 + 3 * random() : (trial % 5 == 1 ? height - 1 - 60 * random() : height * random())
                k[17] = (random() - 0.5) * 0.3; k[18] = (random() - 0.5) * 0.004; k[20] = 0.3 + random()
                k[21] = (random() - 0.5) * 0.002; k[24] = (random() - 0.5) * 0.002; k[28] = (random() - 0.5) * 0.00002
                let count = 1 + Int(random() * 80), rows = 1 + Int(random() * 65)
                let mode = lk_bilinear_block_check(w, h, k, Int32(rows), Int32(count))
                guard mode != 0 else { refused += 1; continue }
                accepted += 1
                if mode == 2 { wrapping += 1 }
                for r in 0..<rows {
                    let t = Double(r)
                    for m in 0..<count {
                        let q = ViewRenderer.evaluate(k, s: Double(m), t: t)
                        try #require(q.v >= 0 && q.v < height - 1 && q.u > -width && q.u < 2 * width - 1,
                                     "trial \(trial) row \(r) pixel \(m): \(q) outside the span kernel's preconditions")
                        if mode == 1 { try #require(q.u >= 0 && q.u < width - 1, "trial \(trial): \(q) wraps but was not said to") }
                    }
                    // The portable kernel, the AVX2 one and its AVX-512 build (lk_bilinear_row's `vector` 0, 1, 2).
                    let kernels: [Int32] = [0] + (ViewRenderer.hasVectorKernel ? [1] : []) + (lk_view_kernels_have_avx512() != 0 ? [2] : [])
                    for kernel in kernels {
                        let vector = kernel != 0
                        var row = [UInt8](repeating: 0xA5, count: 3 * count + 16)
                        let modes: [UInt8] = [UInt8(mode)], x = [0, count - 1]
                        row.withUnsafeMutableBufferPointer { o in
                            lk_bilinear_row(pixels.baseAddress, w, h, k, modes, x, 1, t, o.baseAddress! + 8, kernel)
                        }
                        #expect(row[0..<8].allSatisfy { $0 == 0xA5 } && row[(8 + 3 * count)...].allSatisfy { $0 == 0xA5 },
                                "trial \(trial) row \(r): wrote outside the span")
                        var one = [UInt8](repeating: 0, count: 3 * count)
                        if lk_bilinear_block_span(pixels.baseAddress, w, h, k, t, Int32(count), &one, vector ? 1 : 0) == 1 {
                            try #require(Array(row[8..<(8 + 3 * count)]) == one, "trial \(trial) row \(r): bytes differ")
                        }
                    }
                }
                // A block left out (mode 0) is not touched.
                var untouched = [UInt8](repeating: 0xA5, count: 3 * count)
                let none: [UInt8] = [0], x = [0, count - 1]
                lk_bilinear_row(pixels.baseAddress, w, h, k, none, x, 1, 0, &untouched, 1)
                #expect(untouched.allSatisfy { $0 == 0xA5 })
            }
        }
        // Every outcome exercised.
        #expect(accepted > 100 && refused > 20 && wrapping > 10, "accepted \(accepted) (\(wrapping) across the seam), refused \(refused)")
    }

    @Test("a span's cubic bounds hold every value the span takes (the span kernel's preconditions rest on them)")
    func cubicBoundsHold() {
        var generator = SeededRandom(seed: 7)
        func random() -> Double { generator.unit() - 0.5 }
        for _ in 0..<2000 {
            let c = (1000 * random(), 4 * random(), 0.05 * random(), 0.0005 * random())
            let count = 1 + Int((random() + 0.5) * 256)
            let bounds = ViewRenderer.cubicBounds(c, count: count)
            for m in 0..<count {
                let x = Double(m), value = ((c.3 * x + c.2) * x + c.1) * x + c.0
                #expect(value >= bounds.low && value <= bounds.high, "\(c) count \(count) m \(m): \(value) outside \(bounds)")
            }
        }
    }

    @Test("rolling the panorama by half a turn and turning its pose by 180° gives the same view")
    func seamInvariance() throws {
        let image = Fixtures.gridPanorama(width: 512)
        var rolled = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                for c in 0..<3 { rolled[(x + 256) % 512, y, c] = image[x, y, c] }
            }
        }
        let camera = try Fixtures.camera(0, 5, fov: 90, width: 128, height: 96)
        var renderer = try ViewRenderer()
        let a = renderer.render(PanoramaPyramid(try PanoramaImage(image), minimumHeight: 256), camera: camera, pose: .north)
        let b = renderer.render(PanoramaPyramid(try PanoramaImage(rolled), minimumHeight: 256), camera: camera,
                                pose: PanoramaPose(headingDegrees: 180))
        #expect(Fixtures.difference(a, b).maximum <= 1)
    }

    @Test("one thread and all threads give identical pixels; output of the wrong size is an error")
    func threadsAgree() throws {
        let camera = try Fixtures.camera(170, 12, width: 200, height: 150)
        var renderer = try ViewRenderer()
        var one = RGB8Image(width: 200, height: 150), all = one
        try renderer.render(Self.panorama, camera: camera, pose: .north, into: &one, maximumThreads: 1)
        try renderer.render(Self.panorama, camera: camera, pose: .north, into: &all)
        #expect(one == all)
        var wrong = RGB8Image(width: 10, height: 10)
        #expect(throws: ReprojectionError.outputSizeMismatch(expectedWidth: 200, expectedHeight: 150,
                                                             actualWidth: 10, actualHeight: 10)) {
            try renderer.render(Self.panorama, camera: camera, pose: .north, into: &wrong)
        }
        #expect(throws: ReprojectionError.invalidParameter(name: "block size", value: "3 pixels", allowed: "4…64 pixels")) {
            _ = try ViewRenderer(blockSizePixels: 3)
        }
    }

    @Test("a non-2:1 image is refused")
    func notEquirectangular() {
        #expect(throws: ReprojectionError.notEquirectangular(width: 300, height: 200)) {
            _ = try PanoramaImage(RGB8Image(width: 300, height: 200))
        }
    }
}

@Suite("Pyramid and aliasing")
struct PyramidTests {
    @Test("level choice follows source pixels per view pixel")
    func levelChoice() {
        #expect(PanoramaPyramid.levelIndex(forSourcePixelsPerViewPixel: 1.36) == 0)  // 1920 @ 90° of 8192
        #expect(PanoramaPyramid.levelIndex(forSourcePixelsPerViewPixel: 4.07) == 2)  // 640 @ 90° of 8192
        #expect(PanoramaPyramid.levelIndex(forSourcePixelsPerViewPixel: 0.5) == 0)
        #expect(PanoramaPyramid.levelIndex(forSourcePixelsPerViewPixel: 100, levelCount: 3) == 2)
    }

    @Test("halving averages 2×2 blocks (rounded)")
    func halving() throws {
        var image = RGB8Image(width: 8, height: 4)
        image[0, 0, 0] = 10; image[1, 0, 0] = 20; image[0, 1, 0] = 30; image[1, 1, 0] = 41
        for (x, y) in [(6, 2), (7, 2), (6, 3), (7, 3)] { image[x, y, 2] = 255 }
        let half = try #require(try PanoramaImage(image).halved()).rgbImage()
        #expect(half.width == 4 && half.height == 2)
        #expect(half[0, 0, 0] == 25)   // (10 + 20 + 30 + 41 + 2) / 4 = 25.75 → 25 (round half up of 25.25)
        #expect(half[3, 1, 2] == 255 && half[3, 1, 0] == 0)
        #expect(try PanoramaImage(RGB8Image(width: 4, height: 2)).halved() == nil)  // too small
        let checker = try #require(try PanoramaImage(Fixtures.checkerboardPanorama(width: 64)).halved())
        #expect(checker.pixels.allSatisfy { $0 == 0x0080_8080 })  // (0 + 255 + 0 + 255 + 2) / 4 = 128
    }

    @Test("a 1-px checkerboard rendered small is flat grey from the pyramid and aliased without it")
    func noAliasing() throws {
        let panorama = try PanoramaImage(Fixtures.checkerboardPanorama(width: 2048))
        let pyramid = PanoramaPyramid(panorama)
        let camera = try Fixtures.camera(37, 10, fov: 90, width: 64, height: 48)
        var renderer = try ViewRenderer()
        let filtered = renderer.render(pyramid, camera: camera, pose: .north)
        let aliased = renderer.render(PanoramaPyramid(levels: [panorama]), camera: camera, pose: .north)
        #expect(Fixtures.standardDeviation(filtered) < 4, "\(Fixtures.standardDeviation(filtered))")
        #expect(Fixtures.standardDeviation(aliased) > 30, "\(Fixtures.standardDeviation(aliased))")
    }
}
