import Foundation

/// Linear radiance → 8-bit sRGB: an exponential shoulder `1 − e^(−k·x)` (soft highlights, no hard
/// clipping of bright facades) followed by the sRGB transfer curve, through a 4096-entry table.
struct ToneMapper: Sendable {
    let table: [UInt8]
    static let size = 4096
    /// Largest tone-mapped value in the table's domain: x ≥ `limit` maps to 255.
    let limit: Float = 6

    init(exposure: Double) {
        var t = [UInt8](repeating: 0, count: Self.size + 1)
        for i in 0...Self.size {
            let x = Double(i) / Double(Self.size) * 6
            let y = 1 - exp(-1.25 * exposure * x)
            let s = y <= 0.0031308 ? 12.92 * y : 1.055 * pow(y, 1 / 2.4) - 0.055
            t[i] = UInt8(max(0, min(255, (s * 255).rounded())))
        }
        table = t
    }

    @inline(__always) func map(_ x: Float, _ table: UnsafePointer<UInt8>) -> UInt8 {
        let i = Int(max(0, min(x, limit)) * (Float(Self.size) / limit))
        return table[i]
    }
}
