/// Where a `FontLibrary` finds its three font files, and which Debian package installs each.
public struct FontPaths: Sendable, Hashable {
    /// DejaVu Sans (regular).
    public var regular: String
    /// DejaVu Sans Bold.
    public var bold: String
    /// The fallback for code points the DejaVu faces lack (a TrueType collection: face 0 is used).
    public var fallback: String

    /// Paths to the three fonts.
    public init(regular: String, bold: String, fallback: String) {
        self.regular = regular; self.bold = bold; self.fallback = fallback
    }

    /// The Debian 12 locations (packages `fonts-dejavu-core` and `fonts-wqy-microhei`).
    public static let debian = FontPaths(
        regular: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        bold: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        fallback: "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")

    /// The path of one face.
    public func path(of face: FontFace) -> String {
        switch face {
        case .regular: return regular
        case .bold: return bold
        case .fallback: return fallback
        }
    }

    /// The Debian package that installs `face` at its default path.
    public static func debianPackage(for face: FontFace) -> String {
        face == .fallback ? "fonts-wqy-microhei" : "fonts-dejavu-core"
    }
}
