import Foundation

/// The xterm 256-colour palette and the nearest-colour search for the 256-colour text mode.
///
/// Indices 16…231 are the 6×6×6 cube with levels 0, 95, 135, 175, 215, 255 (index 16 + 36r + 6g + b);
/// 232…255 are the grey ramp 8, 18, …, 238. Indices 0…15 are never chosen: users and themes redefine
/// them. "Nearest" is the smallest squared Euclidean distance in OKLab (Björn Ottosson, 2020), a
/// perceptual space in which equal distances look about equally different.
public struct XtermPalette: Sendable {
    /// The palette shared by every encoder (immutable).
    public static let shared = XtermPalette()

    /// OKLab L, a, b of indices 16…255 (entry k is index 16 + k).
    private let lab: [SIMD4<Float>]
    /// The same entries sorted by L, with the palette index in `w`.
    private let byLightness: [SIMD4<Float>]
    /// sRGB 8-bit value → linear light.
    private let linear: [Float]

    private init() {
        var linear = [Float](repeating: 0, count: 256)
        for v in 0..<256 { linear[v] = Float(Self.linearize(Double(v) / 255)) }
        self.linear = linear
        lab = (16..<256).map { index in
            let c = Self.rgb(index: index)
            let l = Self.oklab(linearRed: Double(linear[Int(c.red)]), green: Double(linear[Int(c.green)]),
                               blue: Double(linear[Int(c.blue)]))
            return SIMD4(Float(l.L), Float(l.a), Float(l.b), 0)
        }
        byLightness = lab.enumerated().map { SIMD4($0.element.x, $0.element.y, $0.element.z, Float(16 + $0.offset)) }
            .sorted { $0.x < $1.x || ($0.x == $1.x && $0.w < $1.w) }
    }

    /// The sRGB colour of palette `index` (16…255; 0…15 get xterm's default system colours).
    public static func rgb(index: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        precondition((0..<256).contains(index), "palette index \(index) outside 0…255")
        switch index {
        case 0..<16:
            let system: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
                                                   (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
                                                   (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
            return system[index]
        case 16..<232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let k = index - 16
            return (levels[k / 36], levels[k / 6 % 6], levels[k % 6])
        default:
            let v = UInt8(8 + 10 * (index - 232))
            return (v, v, v)
        }
    }

    /// The palette index (16…255) nearest to an sRGB colour in OKLab.
    /// - Complexity: an exact search that walks the entries in order of lightness outward from the
    ///   colour's own and stops once the lightness difference alone exceeds the best distance
    ///   (typically a few dozen of the 240; `nearestIndexExhaustive` is the plain reference).
    public func nearestIndex(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let p = linear.withUnsafeBufferPointer { l in Self.oklabFloat(l[Int(red)], l[Int(green)], l[Int(blue)]) }
        return byLightness.withUnsafeBufferPointer { entries in
            // First entry with L ≥ p.L.
            var low = 0, high = entries.count
            while low < high { let mid = (low + high) / 2; if entries[mid].x < p.x { low = mid + 1 } else { high = mid } }
            var best = -1
            var bestDistance = Float.greatestFiniteMagnitude
            var up = low, down = low - 1
            while up < entries.count || down >= 0 {
                if up < entries.count {
                    let d = entries[up] - p
                    if d.x * d.x > bestDistance { up = entries.count } else {
                        let distance = d.x * d.x + d.y * d.y + d.z * d.z
                        if distance < bestDistance || (distance == bestDistance && Int(entries[up].w) < best) {
                            bestDistance = distance; best = Int(entries[up].w)
                        }
                        up += 1
                    }
                }
                if down >= 0 {
                    let d = entries[down] - p
                    if d.x * d.x > bestDistance { down = -1 } else {
                        let distance = d.x * d.x + d.y * d.y + d.z * d.z
                        if distance < bestDistance || (distance == bestDistance && Int(entries[down].w) < best) {
                            bestDistance = distance; best = Int(entries[down].w)
                        }
                        down -= 1
                    }
                }
            }
            return UInt8(best)
        }
    }

    /// The same answer by comparing all 240 entries (the reference for tests).
    public func nearestIndexExhaustive(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let p = linear.withUnsafeBufferPointer { l in Self.oklabFloat(l[Int(red)], l[Int(green)], l[Int(blue)]) }
        var best = 0
        var bestDistance = Float.greatestFiniteMagnitude
        for k in 0..<lab.count {
            let d = lab[k] - p
            let distance = d.x * d.x + d.y * d.y + d.z * d.z
            if distance < bestDistance { bestDistance = distance; best = k }
        }
        return UInt8(16 + best)
    }

    /// sRGB transfer function, decoded (0…1 → 0…1).
    static func linearize(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    private static func oklabFloat(_ r: Float, _ g: Float, _ b: Float) -> SIMD4<Float> {
        let l = Self.oklab(linearRed: Double(r), green: Double(g), blue: Double(b))
        return SIMD4(Float(l.L), Float(l.a), Float(l.b), 0)
    }

    /// OKLab of a linear-light sRGB colour (Ottosson's published matrices).
    static func oklab(linearRed r: Double, green g: Double, blue b: Double) -> (L: Double, a: Double, b: Double) {
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }
}

