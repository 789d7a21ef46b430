import Foundation
import Imaging
import Testing
@testable import Video

/// The picture side of frames: video YCbCr (limited or full range; BT.601, BT.709 or BT.2020) into JPEG's
/// (full range, BT.601), checked against the colours themselves.
@Suite struct FramePictureTests {
    /// YCbCr of an RGB colour with a matrix and a range, as a video encoder makes it.
    static func encode(_ rgb: (Double, Double, Double), matrix: YCbCrMatrix, fullRange: Bool) -> (UInt8, UInt8, UInt8) {
        let (kr, kb) = matrix.coefficients, kg = 1 - kr - kb
        let (r, g, b) = (rgb.0 / 255, rgb.1 / 255, rgb.2 / 255)
        let y = kr * r + kg * g + kb * b, cb = (b - y) / (2 - 2 * kb), cr = (r - y) / (2 - 2 * kr)
        func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        return fullRange ? (clamp(y * 255), clamp(128 + cb * 255), clamp(128 + cr * 255))
            : (clamp(16 + y * 219), clamp(128 + cb * 224), clamp(128 + cr * 224))
    }

    @Test(arguments: [(YCbCrMatrix.bt601, true), (.bt601, false), (.bt709, true), (.bt709, false), (.bt2020, false)])
    func videoColoursBecomeJPEGColours(matrix: YCbCrMatrix, fullRange: Bool) {
        let colours: [(Double, Double, Double)] = [(200, 30, 40), (20, 180, 60), (40, 60, 210), (128, 128, 128), (240, 230, 200), (15, 20, 25), (90, 160, 200)]
        var image = YCbCr420Image(unfilledWidth: 2 * colours.count, height: 2)
        for (k, c) in colours.enumerated() {
            let (y, cb, cr) = Self.encode(c, matrix: matrix, fullRange: fullRange)
            for dy in 0..<2 { for dx in 0..<2 { image.luma[dy * image.width + 2 * k + dx] = y } }
            image.cb[k] = cb
            image.cr[k] = cr
        }
        YCbCrConversion(fullRange: fullRange, matrix: matrix).apply(to: &image)
        for (k, c) in colours.enumerated() {
            let expected = Self.encode(c, matrix: .bt601, fullRange: true)
            let got = (image.luma[2 * k], image.cb[k], image.cr[k])
            #expect(abs(Int(got.0) - Int(expected.0)) <= 2 && abs(Int(got.1) - Int(expected.1)) <= 2 && abs(Int(got.2) - Int(expected.2)) <= 2,
                    "\(matrix) \(fullRange ? "full" : "limited") \(c): \(got) against \(expected)")
        }
    }
}
