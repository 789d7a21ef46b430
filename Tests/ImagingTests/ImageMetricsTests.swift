import Foundation
import Imaging
import Testing

@Suite struct ImageMetricsTests {
    /// A deterministic test pattern: gradients and a few hard edges.
    static func pattern(width: Int = 64, height: Int = 48) -> RGB8Image {
        var image = RGB8Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y, 0] = UInt8((x * 255) / (width - 1))
                image[x, y, 1] = UInt8((y * 255) / (height - 1))
                image[x, y, 2] = (x / 8 + y / 8) % 2 == 0 ? 40 : 215
            }
        }
        return image
    }

    @Test func identicalImagesHaveInfinitePSNRAndUnitSSIM() {
        let a = Self.pattern()
        #expect(ImageMetrics.psnr(a, a) == .infinity)
        #expect(abs(ImageMetrics.ssim(a, a) - 1) < 1e-6)
        #expect(ImageMetrics.maximumAbsoluteDifference(a, a) == 0)
    }

    @Test func psnrMatchesTheDefinition() {
        let a = Self.pattern()
        var b = a
        // Every value off by exactly 4 (clamped away from the ends so the error is exact).
        for i in b.components.indices { b.components[i] = a.components[i] < 128 ? a.components[i] + 4 : a.components[i] - 4 }
        #expect(ImageMetrics.meanSquaredError(a, b) == 16)
        #expect(abs(ImageMetrics.psnr(a, b) - 10 * log10(255.0 * 255.0 / 16.0)) < 1e-9)   // 36.09 dB
        #expect(ImageMetrics.meanAbsoluteDifference(a, b) == 4)
        #expect(ImageMetrics.differingPixelFraction(a, b, threshold: 3) == 1)
        #expect(ImageMetrics.differingPixelFraction(a, b, threshold: 4) == 0)
    }

    @Test func ssimFallsWithStructureNotWithSmallNoise() {
        let a = Self.pattern()
        var noisy = a, scrambled = a
        var state: UInt64 = 12345
        for i in noisy.components.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = Int(state >> 61) - 3            // -3…4
            noisy.components[i] = UInt8(clamping: Int(a.components[i]) + noise)
        }
        scrambled.components.reverse()
        let ssimNoisy = ImageMetrics.ssim(a, noisy), ssimScrambled = ImageMetrics.ssim(a, scrambled)
        #expect(ssimNoisy > 0.9 && ssimNoisy < 1)
        #expect(ssimScrambled < 0.5)
    }

    @Test func diffImageMarksOnlyDifferingPixelsInRed() {
        let a = Self.pattern(width: 8, height: 8)
        var b = a
        b[3, 5, 1] = b[3, 5, 1] &+ 40
        let diff = ImageMetrics.diffImage(a, b)
        for y in 0..<8 {
            for x in 0..<8 {
                let isRed = diff[x, y, 0] > 0 && diff[x, y, 1] == 0 && diff[x, y, 2] == 0
                #expect(isRed == (x == 3 && y == 5), "pixel (\(x), \(y))")
            }
        }
    }
}
