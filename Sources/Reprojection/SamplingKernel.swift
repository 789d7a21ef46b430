/// How a view samples the panorama between pixel centres.
public enum SamplingKernel: String, Sendable, CaseIterable, Codable {
    /// 2×2 taps, linear weights: the interactive default.
    case bilinear
    /// 4×4 taps, Catmull–Rom cubic (a = −0.5): sharper, about 3× slower.
    case bicubic

    /// The Catmull–Rom weights of the four taps at offsets −1, 0, 1, 2 for a fraction `t` ∈ [0, 1).
    @inlinable static func cubicWeights(_ t: Double) -> (Double, Double, Double, Double) {
        let t2 = t * t, t3 = t2 * t
        return (-0.5 * t3 + t2 - 0.5 * t,
                1.5 * t3 - 2.5 * t2 + 1,
                -1.5 * t3 + 2 * t2 + 0.5 * t,
                0.5 * t3 - 0.5 * t2)
    }
}
