/// One character of a text and the glyph chosen for it.
public struct MappedGlyph: Sendable, Hashable {
    /// The Unicode scalar.
    public var scalar: Unicode.Scalar
    /// The font the glyph comes from (`.fallback` when DejaVu lacks the code point).
    public var face: FontFace
    /// The glyph index in that font; 0 is `.notdef` (the code point is in none of the fonts).
    public var glyphIndex: UInt32
}
