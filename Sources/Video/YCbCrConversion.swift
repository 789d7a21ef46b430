import Foundation
import Imaging
import Parallelism

/// Video YCbCr to JPEG's: limited range (16…235 luma, 16…240 chroma) to full range, and the video's
/// matrix (BT.709 for HD, BT.2020) to JFIF's BT.601. Both are linear in (Y, Cb, Cr); since both matrices
/// keep grey grey, chroma out depends on chroma in only, and luma out on luma plus the chroma sample
/// covering it. Applied in place in fixed point (1/16384), once per frame after the reprojection.
struct YCbCrConversion: Sendable {
    /// Whether the conversion changes anything (full-range BT.601 in: nothing to do).
    let isIdentity: Bool
    // Output = offset + coefficients × (input − input offsets), in 1/16384.
    private let lumaScale: Int32, lumaFromCb: Int32, lumaFromCr: Int32
    private let cbFromCb: Int32, cbFromCr: Int32, crFromCb: Int32, crFromCr: Int32
    private let lumaOffset: Int32

    init(fullRange: Bool, matrix: YCbCrMatrix) {
        isIdentity = fullRange && matrix == .bt601
        // Normalised input: y in 0…1, cb and cr in −½…½.
        let yScale = fullRange ? 1.0 / 255 : 1.0 / 219, cScale = fullRange ? 1.0 / 255 : 1.0 / 224
        lumaOffset = fullRange ? 0 : 16
        // YCbCr (source matrix) → RGB → YCbCr (BT.601).
        func toRGB(_ k: (kr: Double, kb: Double)) -> [[Double]] {
            let kg = 1 - k.kr - k.kb
            return [[1, 0, 2 - 2 * k.kr], [1, -k.kb / kg * (2 - 2 * k.kb), -k.kr / kg * (2 - 2 * k.kr)], [1, 2 - 2 * k.kb, 0]]
        }
        func fromRGB(_ k: (kr: Double, kb: Double)) -> [[Double]] {
            let kg = 1 - k.kr - k.kb
            return [[k.kr, kg, k.kb], [-k.kr / (2 - 2 * k.kb), -kg / (2 - 2 * k.kb), 0.5], [0.5, -kg / (2 - 2 * k.kr), -k.kb / (2 - 2 * k.kr)]]
        }
        let a = fromRGB(YCbCrMatrix.bt601.coefficients), b = toRGB(matrix.coefficients)
        var t = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 { for j in 0..<3 { t[i][j] = (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
        let one = 16384.0
        // Output luma 0…255 from y (×255), chroma ±127.5 from c (×255).
        lumaScale = Int32((t[0][0] * yScale * 255 * one).rounded())
        lumaFromCb = Int32((t[0][1] * cScale * 255 * one).rounded())
        lumaFromCr = Int32((t[0][2] * cScale * 255 * one).rounded())
        cbFromCb = Int32((t[1][1] * cScale * 255 * one).rounded())
        cbFromCr = Int32((t[1][2] * cScale * 255 * one).rounded())
        crFromCb = Int32((t[2][1] * cScale * 255 * one).rounded())
        crFromCr = Int32((t[2][2] * cScale * 255 * one).rounded())
    }

    /// Converts `image` in place (rows split across cores).
    func apply(to image: inout YCbCr420Image, maximumThreads: Int? = nil) {
        guard !isIdentity else { return }
        let width = image.width, height = image.height, cw = image.chromaWidth, ch = image.chromaHeight
        let c = self
        image.luma.withUnsafeMutableBufferPointer { lumaBuffer in
            image.cb.withUnsafeMutableBufferPointer { cbBuffer in
                image.cr.withUnsafeMutableBufferPointer { crBuffer in
                    nonisolated(unsafe) let luma = lumaBuffer, cb = cbBuffer, cr = crBuffer
                    // Chroma rows 2k and 2k+1 of luma use chroma row k: a chroma row and its luma rows go together.
                    Parallel.forEachRowRange(ch, minimumRowsPerChunk: 8, maximumThreads: maximumThreads) { rows in
                        for cy in rows {
                            for y in (2 * cy)..<min(2 * cy + 2, height) {
                                for x in 0..<width {
                                    let k = cy * cw + x / 2
                                    let u = Int32(cb[k]) - 128, v = Int32(cr[k]) - 128
                                    let l = (Int32(luma[y * width + x]) - c.lumaOffset) * c.lumaScale + u * c.lumaFromCb + v * c.lumaFromCr
                                    luma[y * width + x] = UInt8(clamping: (l + 8192) >> 14)
                                }
                            }
                            for x in 0..<cw {
                                let k = cy * cw + x
                                let u = Int32(cb[k]) - 128, v = Int32(cr[k]) - 128
                                cb[k] = UInt8(clamping: 128 + ((u * c.cbFromCb + v * c.cbFromCr + 8192) >> 14))
                                cr[k] = UInt8(clamping: 128 + ((u * c.crFromCb + v * c.crFromCr + 8192) >> 14))
                            }
                        }
                    }
                }
            }
        }
    }
}
