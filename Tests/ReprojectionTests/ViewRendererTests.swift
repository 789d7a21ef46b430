import Imaging
import Testing
@testable import Reprojection

@Suite("Fast renderer vs reference")
struct ViewRendererTests {
    static let panorama: PanoramaImage = {
        guard let image = try? PanoramaImage(Fixtures.gridPanorama(width: 1024)) else { preconditionFailure("2:1 fixture") }
        return image
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        var heading: Double, pitch: Double, fov: Double, pose: PanoramaPose
        var testDescription: String { "h\(heading) p\(pitch) fov\(fov) pose(\(pose.headingDegrees),\(pose.pitchDegrees),\(pose.rollDegrees))" }
    }
    static let cases: [Case] = [
        Case(heading: 0, pitch: 0, fov: 90, pose: .north),
        Case(heading: 180, pitch: 0, fov: 90, pose: .north),          // across the seam
        Case(heading: 175, pitch: 10, fov: 120, pose: .north),
        Case(heading: 30, pitch: 90, fov: 100, pose: .north),         // zenith in view
        Case(heading: 300, pitch: -90, fov: 60, pose: .north),        // nadir
        Case(heading: 200, pitch: 75, fov: 120, pose: .north),
        Case(heading: 45, pitch: -30, fov: 10, pose: .north),
        Case(heading: 90, pitch: 20, fov: 90, pose: PanoramaPose(headingDegrees: 280, pitchDegrees: 8, rollDegrees: -12)),
    ]

    @Test("bilinear fast path within tolerance of the exact Double reference", arguments: cases)
    func bilinearMatchesReference(_ c: Case) throws {
        let camera = try Fixtures.camera(c.heading, c.pitch, fov: c.fov, width: 160, height: 120)
        var renderer = try ViewRenderer(kernel: .bilinear, blockSizePixels: 16)
        var fast = RGB8Image(width: 160, height: 120)
        try renderer.render(Self.panorama, camera: camera, pose: c.pose, into: &fast)
        let reference = ReferenceRenderer.render(Self.panorama, camera: camera, pose: c.pose, kernel: .bilinear)
        let d = Fixtures.difference(fast, reference)
        #expect(d.maximum <= Fixtures.fastPathMaximumDifferenceGreyLevels, "\(d)")
        #expect(d.mean <= Fixtures.fastPathMeanDifferenceGreyLevels, "\(d)")
    }

    @Test("bicubic fast path within tolerance of the reference", arguments: [cases[1], cases[3], cases[7]])
    func bicubicMatchesReference(_ c: Case) throws {
        let camera = try Fixtures.camera(c.heading, c.pitch, fov: c.fov, width: 96, height: 64)
        var renderer = try ViewRenderer(kernel: .bicubic)
        var fast = RGB8Image(width: 96, height: 64)
        try renderer.render(Self.panorama, camera: camera, pose: c.pose, into: &fast)
        let reference = ReferenceRenderer.render(Self.panorama, camera: camera, pose: c.pose, kernel: .bicubic)
        let d = Fixtures.difference(fast, reference)
        #expect(d.maximum <= Fixtures.fastPathMaximumDifferenceGreyLevels, "\(d)")
        #expect(d.mean <= Fixtures.fastPathMeanDifferenceGreyLevels, "\(d)")
    }

    @Test("interpolated positions stay within 0.05 px of the exact projection (poles and seam included)",
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
