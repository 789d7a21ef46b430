import Foundation
import Imaging
import Testing

@Suite struct ResamplerTests {
    /// Fast and reference paths may differ by float rounding only.
    static let fastVersusReferenceLevels = 1

    static func noiseImage<F: PixelFormat>(_ type: F.Type, width: Int, height: Int, seed: UInt64 = 7) -> Image<F>
    where F.Component == UInt8 {
        var image = Image<F>(width: width, height: height)
        var state = seed
        for i in image.components.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            image.components[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return image
    }

    static let sizes: [(PixelSize, PixelSize)] = [
        (PixelSize(width: 37, height: 23), PixelSize(width: 11, height: 7)),    // shrink, odd factor
        (PixelSize(width: 16, height: 12), PixelSize(width: 40, height: 29)),   // enlarge
        (PixelSize(width: 30, height: 20), PixelSize(width: 15, height: 31)),   // mixed
    ]

    @Test(arguments: ResamplingFilter.allCases)
    func fastPathMatchesScalarReference(filter: ResamplingFilter) throws {
        for (from, to) in Self.sizes {
            let rgb = Self.noiseImage(RGB8.self, width: from.width, height: from.height)
            let fast = try Resampler.resize(rgb, to: to, filter: filter)
            let reference = try Resampler.resizeReference(rgb, to: to, filter: filter)
            #expect(ImageMetrics.maximumAbsoluteDifference(fast, reference) <= Self.fastVersusReferenceLevels,
                    "RGB \(from) → \(to)")
            let rgba = Self.noiseImage(RGBA8.self, width: from.width, height: from.height, seed: 99)
            let fastA = try Resampler.resize(rgba, to: to, filter: filter)
            let referenceA = try Resampler.resizeReference(rgba, to: to, filter: filter)
            #expect(ImageMetrics.maximumAbsoluteDifference(fastA, referenceA) <= Self.fastVersusReferenceLevels,
                    "RGBA \(from) → \(to)")
            let gray = Self.noiseImage(Gray8.self, width: from.width, height: from.height, seed: 3)
            let fastG = try Resampler.resize(gray, to: to, filter: filter)
            let referenceG = try Resampler.resizeReference(gray, to: to, filter: filter)
            #expect(ImageMetrics.maximumAbsoluteDifference(fastG, referenceG) <= Self.fastVersusReferenceLevels,
                    "Gray \(from) → \(to)")
        }
    }

    @Test(arguments: ResamplingFilter.allCases)
    func constantImageStaysConstant(filter: ResamplingFilter) throws {
        let image = RGB8Image(width: 50, height: 30, fill: 173)
        for size in [PixelSize(width: 13, height: 9), PixelSize(width: 77, height: 41)] {
            let out = try Resampler.resize(image, to: size, filter: filter)
            #expect(out.components.allSatisfy { $0 == 173 }, "\(filter) → \(size)")
        }
    }

    @Test func areaHalvingIsTheMeanOfEachTwoByTwoBlock() throws {
        let image = Self.noiseImage(Gray8.self, width: 20, height: 10)
        let half = try Resampler.resize(image, to: PixelSize(width: 10, height: 5), filter: .area)
        for y in 0..<5 {
            for x in 0..<10 {
                let sum = Int(image[2 * x, 2 * y, 0]) + Int(image[2 * x + 1, 2 * y, 0])
                    + Int(image[2 * x, 2 * y + 1, 0]) + Int(image[2 * x + 1, 2 * y + 1, 0])
                #expect(abs(Int(half[x, y, 0]) * 4 - sum) <= 2, "(\(x), \(y))")
            }
        }
    }

    /// A one-pixel checkerboard shrunk 8× must come out flat grey, not as moiré.
    @Test(arguments: ResamplingFilter.allCases)
    func shrinkingDoesNotAlias(filter: ResamplingFilter) throws {
        var board = Gray8Image(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 { board[x, y, 0] = (x + y) % 2 == 0 ? 0 : 255 } }
        let small = try Resampler.resize(board, to: PixelSize(width: 29, height: 31), filter: filter)
        let values = small.components.map(Int.init)
        #expect(values.allSatisfy { abs($0 - 128) <= 12 }, "range \(values.min()!)…\(values.max()!)")
    }

    @Test func bilinearEnlargementInterpolatesBetweenCentres() throws {
        let image = Gray8Image(width: 2, height: 1, components: [0, 200])
        let out = try Resampler.resize(image, to: PixelSize(width: 4, height: 1), filter: .bilinear)
        // Output centres at source x = 0.25, 0.75, 1.25, 1.75 → edge-clamped 0, 50, 150, 200.
        #expect(out.components == [0, 50, 150, 200])
    }

    @Test func transparentPixelsDoNotBleedColour() throws {
        // Opaque red next to fully transparent green: the result must stay red wherever visible.
        var image = RGBA8Image(width: 8, height: 1)
        for x in 0..<8 {
            if x < 4 { image[x, 0, 0] = 255; image[x, 0, 3] = 255 } else { image[x, 0, 1] = 255 }
        }
        let out = try Resampler.resize(image, to: PixelSize(width: 3, height: 1), filter: .lanczos3)
        for x in 0..<3 where out[x, 0, 3] > 0 {
            #expect(out[x, 0, 1] <= 2 && out[x, 0, 0] >= 250, "pixel \(x): \(out[x, 0, 0]) \(out[x, 0, 1])")
        }
    }

    @Test func zeroSizeIsAnError() {
        let image = RGB8Image(width: 4, height: 4)
        #expect(throws: ImagingError.invalidParameter(name: "output size", value: "0x3", allowed: "positive width and height")) {
            try Resampler.resize(image, to: PixelSize(width: 0, height: 3))
        }
    }
}
