import Foundation
import Imaging
@testable import Reprojection
import Testing
import TestSupport

/// The equi-angular cubemap: its layout and turns are FFmpeg's `v360` `eac` (the layout a GoPro MAX's
/// strips make), the map to equirectangular agrees with its plain reference, and a round trip keeps the
/// picture.
@Suite struct EquiAngularCubemapTests {
    static let panorama = Lookaround.repository.appendingPathComponent("Panoramas/helsinki/aleksanterinkatu-010.jpg").path

    static func plane(_ image: RGB8Image, channel: Int) -> [UInt8] {
        stride(from: channel, to: image.components.count, by: 3).map { image.components[$0] }
    }

    @Test func directionsAndPositionsAreInverse() {
        let cube = EquiAngularCubemap(faceSize: 64)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let d = SIMD3(Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator), Double.random(in: -1...1, using: &generator))
            guard (d * d).sum() > 1e-3 else { continue }
            let p = cube.position(of: d)
            #expect(p.x >= Double(p.minX) && p.x <= Double(p.maxX + 1) && p.y >= Double(p.minY) && p.y <= Double(p.maxY + 1))
            let back = cube.direction(x: min(p.x, Double(p.maxX) + 0.999), y: min(p.y, Double(p.maxY) + 0.999))
            let cosine = (back * d).sum() / ((back * back).sum() * (d * d).sum()).squareRoot()
            #expect(cosine > 0.9999, "\(d) → (\(p.x), \(p.y)) → \(back)")
        }
        // The front face's centre is forward; the up face holds the zenith; the back face the direction behind.
        let front = cube.position(of: SIMD3(1, 0, 0)), up = cube.position(of: SIMD3(0, 0, 1)), back = cube.position(of: SIMD3(-1, 0, 0))
        #expect(front.x == 96 && front.y == 32 && up.x == 160 && up.y == 96 && back.x == 96 && back.y == 96)
    }

    /// FFmpeg 5.1's `v360=e:eac` of the same panorama: the faces, where they sit and how they are turned.
    /// FFmpeg insets its EAC faces by 2 pixels (YouTube's padding: at the layout's left and right, above and
    /// below each row); made 4 + 3f by 8 + 2f, its faces are exactly f square at (2 + k·f, 2) and (2 + k·f, f + 6),
    /// the layout a GoPro MAX's strips make. At the panorama's own resolution (512-pixel faces for 2048 columns)
    /// the two renderings then differ only by their interpolation (bilinear here, bicubic there); a face turned
    /// a quarter the wrong way loses more than 5 dB.
    @Test func layoutIsFFmpegsEAC() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { try Test.cancel("skipped: no /usr/bin/ffmpeg") }
        let output = try Lookaround.temporaryDirectory().appendingPathComponent("eac.png").path
        let run = try Lookaround.runProcess("/usr/bin/ffmpeg", ["-v", "error", "-i", Self.panorama, "-vf", "format=rgb24,v360=e:eac:w=1540:h=1032:interp=cubic",
                                                                 "-frames:v", "1", output])
        #expect(run.exitCode == 0, "\(run.stderr)")
        let theirs = try PNGCodec.decodeRGB(try ImageFile.read(output))
        let ours = EquiAngularCubemap(faceSize: 512).render(from: try JPEGCodec.decodeRGB(try ImageFile.read(Self.panorama)).image)
        #expect(ours.width == 1536 && ours.height == 1024)
        for row in 0..<2 {
            for column in 0..<3 {
                let a = ours.cropped(x: column * 512, y: row * 512, width: 512, height: 512)
                let b = theirs.cropped(x: 2 + column * 512, y: row == 0 ? 2 : 518, width: 512, height: 512)
                let psnr = ImageMetrics.psnr(a, b)
                #expect(psnr > 29, "face at column \(column), row \(row): \(psnr) dB")
                // The control: the same face turned a quarter.
                var turned = a
                for y in 0..<512 { for x in 0..<512 { for c in 0..<3 { turned.components[3 * (y * 512 + x) + c] = a.components[3 * ((511 - x) * 512 + y) + c] } } }
                #expect(ImageMetrics.psnr(turned, b) < psnr - 5, "face at column \(column), row \(row) turned: \(ImageMetrics.psnr(turned, b)) dB")
            }
        }
    }

    @Test func mapMatchesTheReference() {
        let cube = EquiAngularCubemap(faceSize: 24)
        var source = [UInt8](repeating: 0, count: cube.width * cube.height)
        for y in 0..<cube.height { for x in 0..<cube.width { source[y * cube.width + x] = UInt8((x * 7 + y * 13) % 251) } }
        let remap = cube.equirectangularRemap(outputWidth: 96, outputHeight: 48)
        var fast = [UInt8](repeating: 0, count: 96 * 48)
        source.withUnsafeBufferPointer { s in fast.withUnsafeMutableBufferPointer { remap.apply(s.baseAddress!, sourceStride: cube.width, to: $0.baseAddress!) } }
        let reference = PlaneRemap.referenceApply(source, sourceWidth: cube.width, sourceHeight: cube.height, outputWidth: 96, outputHeight: 48) { x, y in
            cube.position(equirectangularX: x, y: y, width: 96, height: 48)
        }
        let worst = zip(fast, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest difference \(worst) levels")
    }

    /// Panorama → cube → panorama, each plane through the map: the picture comes back.
    @Test func roundTripKeepsThePicture() throws {
        let original = try Resampler.resize(try JPEGCodec.decodeRGB(try ImageFile.read(Self.panorama)).image, to: PixelSize(width: 1024, height: 512))
        let cube = EquiAngularCubemap(faceSize: 256)
        let faces = cube.render(from: original)
        let remap = cube.equirectangularRemap(outputWidth: 1024, outputHeight: 512)
        var back = RGB8Image(width: 1024, height: 512)
        for channel in 0..<3 {
            let plane = Self.plane(faces, channel: channel)
            var out = [UInt8](repeating: 0, count: 1024 * 512)
            plane.withUnsafeBufferPointer { s in out.withUnsafeMutableBufferPointer { remap.apply(s.baseAddress!, sourceStride: cube.width, to: $0.baseAddress!) } }
            for i in 0..<out.count { back.components[3 * i + channel] = out[i] }
        }
        let psnr = ImageMetrics.psnr(back, original)
        #expect(psnr > 30, "round trip \(psnr) dB")
    }
}
