/// One of the font files a `FontLibrary` loads: the two primary faces and the fallback that supplies
/// code points the primary faces lack (CJK).
public enum FontFace: Int, Sendable, Hashable, CaseIterable {
    /// DejaVu Sans.
    case regular
    /// DejaVu Sans Bold.
    case bold
    /// WenQuanYi Micro Hei (face 0 of the collection), for code points DejaVu has no glyph for.
    case fallback
}
