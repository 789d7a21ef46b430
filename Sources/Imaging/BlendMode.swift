/// The blend modes of W3C *Compositing and Blending Level 1* (§9–§10). Every mode is applied as the
/// spec's general formula: the source colour is first mixed with the blend result by the backdrop
/// alpha, then composited source-over:
///
///     Cs' = (1 − αb)·Cs + αb·B(Cb, Cs)
///     co  = αs·Cs' + (1 − αs)·αb·Cb          (premultiplied result)
///     αo  = αs + αb·(1 − αs)
///
/// Colours are sRGB-encoded values in 0…1, blended as encoded (as browsers do).
/// `referenceBlend` and `referenceComposite` are the plain scalar reference; the drawing code uses
/// faster premultiplied kernels (`Compositing.swift`) that tests compare against it.
public enum BlendMode: String, Sendable, Hashable, CaseIterable {
    /// B = Cs (plain source-over).
    case normal
    /// B = Cb·Cs.
    case multiply
    /// B = Cb + Cs − Cb·Cs.
    case screen
    /// B = HardLight(Cs, Cb) (hard light with the layers swapped).
    case overlay
    /// B = min(Cb, Cs).
    case darken
    /// B = max(Cb, Cs).
    case lighten
    /// B = 1 if Cb = 1; 0 if Cs = 0; else 1 − min(1, (1 − Cb)/Cs).
    case colorBurn = "color-burn"
    /// B = Multiply(Cb, 2Cs) if Cs ≤ 0.5, else Screen(Cb, 2Cs − 1).
    case hardLight = "hard-light"
    /// Hue of the source, saturation and luminosity of the backdrop (non-separable).
    case hue
    /// Saturation of the source, hue and luminosity of the backdrop (non-separable).
    case saturation
    /// Hue and saturation of the source, luminosity of the backdrop (non-separable).
    case color
    /// Luminosity of the source, hue and saturation of the backdrop (non-separable).
    case luminosity

    /// The spec's name ("color-burn"), as CSS writes it.
    public var cssName: String { rawValue }
}

// MARK: - Scalar reference, straight from the spec

extension BlendMode {
    /// An RGB triple in 0…1 for the reference functions.
    public typealias ReferenceRGB = (red: Float, green: Float, blue: Float)

    /// The blend function B(Cb, Cs) of the spec for straight (non-premultiplied) colours in 0…1.
    /// Plain scalar code, written to be checked against the spec by eye; not for hot loops.
    public func referenceBlend(backdrop cb: ReferenceRGB, source cs: ReferenceRGB) -> ReferenceRGB {
        func separable(_ f: (Float, Float) -> Float) -> ReferenceRGB {
            (f(cb.red, cs.red), f(cb.green, cs.green), f(cb.blue, cs.blue))
        }
        switch self {
        case .normal: return cs
        case .multiply: return separable(Self.referenceMultiply)
        case .screen: return separable(Self.referenceScreen)
        case .overlay: return separable { b, s in Self.referenceHardLight(s, b) }
        case .darken: return separable { b, s in min(b, s) }
        case .lighten: return separable { b, s in max(b, s) }
        case .colorBurn:
            return separable { b, s in
                if b == 1 { return 1 }
                if s == 0 { return 0 }
                return 1 - min(1, (1 - b) / s)
            }
        case .hardLight: return separable(Self.referenceHardLight)
        case .hue:
            return Self.setLum(Self.setSat(cs, Self.sat(cb)), Self.lum(cb))
        case .saturation:
            return Self.setLum(Self.setSat(cb, Self.sat(cs)), Self.lum(cb))
        case .color:
            return Self.setLum(cs, Self.lum(cb))
        case .luminosity:
            return Self.setLum(cb, Self.lum(cs))
        }
    }

    /// The spec's general formula for one pixel, straight colours and alphas in 0…1 in and out.
    /// Returns transparent black when the result alpha is 0.
    public func referenceComposite(source: ReferenceRGB, sourceAlpha αs: Float,
                                   backdrop: ReferenceRGB, backdropAlpha αb: Float)
        -> (color: ReferenceRGB, alpha: Float) {
        let b = referenceBlend(backdrop: backdrop, source: source)
        func channel(_ cs: Float, _ cb: Float, _ bl: Float) -> Float {
            let mixed = (1 - αb) * cs + αb * bl            // Cs'
            return αs * mixed + (1 - αs) * αb * cb         // co (premultiplied)
        }
        let αo = αs + αb * (1 - αs)
        guard αo > 0 else { return ((0, 0, 0), 0) }
        let co = (channel(source.red, backdrop.red, b.red),
                  channel(source.green, backdrop.green, b.green),
                  channel(source.blue, backdrop.blue, b.blue))
        return ((co.0 / αo, co.1 / αo, co.2 / αo), αo)
    }

    static func referenceMultiply(_ b: Float, _ s: Float) -> Float { b * s }
    static func referenceScreen(_ b: Float, _ s: Float) -> Float { b + s - b * s }
    static func referenceHardLight(_ b: Float, _ s: Float) -> Float {
        s <= 0.5 ? referenceMultiply(b, 2 * s) : referenceScreen(b, 2 * s - 1)
    }

    // §10.3 non-separable helpers, spelled as in the spec.
    static func lum(_ c: ReferenceRGB) -> Float { 0.3 * c.red + 0.59 * c.green + 0.11 * c.blue }

    static func clipColor(_ c: ReferenceRGB) -> ReferenceRGB {
        let l = lum(c)
        let n = min(c.red, c.green, c.blue)
        let x = max(c.red, c.green, c.blue)
        var r = c.red, g = c.green, b = c.blue
        if n < 0 {
            r = l + (r - l) * l / (l - n); g = l + (g - l) * l / (l - n); b = l + (b - l) * l / (l - n)
        }
        if x > 1 {
            r = l + (r - l) * (1 - l) / (x - l); g = l + (g - l) * (1 - l) / (x - l); b = l + (b - l) * (1 - l) / (x - l)
        }
        return (r, g, b)
    }

    static func setLum(_ c: ReferenceRGB, _ l: Float) -> ReferenceRGB {
        let d = l - lum(c)
        return clipColor((c.red + d, c.green + d, c.blue + d))
    }

    static func sat(_ c: ReferenceRGB) -> Float { max(c.red, c.green, c.blue) - min(c.red, c.green, c.blue) }

    static func setSat(_ c: ReferenceRGB, _ s: Float) -> ReferenceRGB {
        var v = [c.red, c.green, c.blue]
        // Indices of the max, mid and min channels (ties broken by channel order; any order gives
        // the same result because tied channels receive equal values).
        let order = [0, 1, 2].sorted { v[$0] > v[$1] || (v[$0] == v[$1] && $0 < $1) }
        let maxI = order[0], midI = order[1], minI = order[2]
        if v[maxI] > v[minI] {
            v[midI] = (v[midI] - v[minI]) * s / (v[maxI] - v[minI])
            v[maxI] = s
        } else {
            v[midI] = 0
            v[maxI] = 0
        }
        v[minI] = 0
        return (v[0], v[1], v[2])
    }
}
