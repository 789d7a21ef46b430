/// An sRGB colour with straight (not premultiplied) alpha, 8 bits per channel: the form colours are
/// written in and stored in (`RGBA8Image`). Drawing converts it to `PremultipliedColor` once per call.
public struct RGBAColor: Sendable, Hashable {
    /// Red, 0…255 (sRGB-encoded).
    public var red: UInt8
    /// Green, 0…255 (sRGB-encoded).
    public var green: UInt8
    /// Blue, 0…255 (sRGB-encoded).
    public var blue: UInt8
    /// Opacity, 0 (transparent) … 255 (opaque).
    public var alpha: UInt8

    /// A colour from its four channels (alpha straight, opaque by default).
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour written in hex: `#rgb`, `#rrggbb` or `#rrggbbaa` (either case); nil for anything else.
    public init?(hex text: String) {
        guard text.hasPrefix("#") else { return nil }
        var digits = Array(text.utf8.dropFirst())
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0 | 0x20) })
        else { return nil }
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6 || digits.count == 8, let v = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else { return nil }
        if digits.count == 6 {
            self.init(red: UInt8(v >> 16 & 255), green: UInt8(v >> 8 & 255), blue: UInt8(v & 255))
        } else {
            self.init(red: UInt8(v >> 24 & 255), green: UInt8(v >> 16 & 255), blue: UInt8(v >> 8 & 255), alpha: UInt8(v & 255))
        }
    }

    /// An opaque colour with an alpha added.
    public init(_ color: RGBColor, alpha: UInt8 = 255) {
        self.init(red: color.red, green: color.green, blue: color.blue, alpha: alpha)
    }

    /// The same colour with another alpha (0…255).
    public func withAlpha(_ alpha: UInt8) -> RGBAColor {
        RGBAColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The same colour with its alpha multiplied by `opacity` (0…1, clamped).
    public func withOpacity(_ opacity: Double) -> RGBAColor {
        let o = min(max(opacity, 0), 1)
        return withAlpha(UInt8((Double(alpha) * o).rounded()))
    }

    /// The colour as premultiplied floating-point channels in 0…1.
    public var premultiplied: PremultipliedColor {
        let a = Float(alpha) / 255
        return PremultipliedColor(red: Float(red) / 255 * a, green: Float(green) / 255 * a,
                                  blue: Float(blue) / 255 * a, alpha: a)
    }

    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    /// Fully transparent black.
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
}

/// A colour with premultiplied alpha, as `Float` channels in 0…1: each colour channel is already
/// multiplied by `alpha`, so every channel is ≤ `alpha`. This is the form compositing works in.
public struct PremultipliedColor: Sendable, Hashable {
    /// Red × alpha, 0…`alpha`.
    public var red: Float
    /// Green × alpha, 0…`alpha`.
    public var green: Float
    /// Blue × alpha, 0…`alpha`.
    public var blue: Float
    /// Opacity, 0…1.
    public var alpha: Float

    /// A colour from premultiplied channels (each colour channel must be ≤ `alpha`).
    public init(red: Float, green: Float, blue: Float, alpha: Float) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// Back to straight 8-bit alpha, rounding to nearest; a zero alpha gives transparent black.
    public var straight: RGBAColor {
        guard alpha > 0 else { return .clear }
        func q(_ v: Float) -> UInt8 { UInt8(min(max(v * 255 + 0.5, 0), 255)) }
        return RGBAColor(red: q(red / alpha), green: q(green / alpha), blue: q(blue / alpha), alpha: q(alpha))
    }
}
