/// Which DejaVu Sans face a text is set in.
public enum FontWeight: String, Sendable, Hashable, CaseIterable {
    /// DejaVu Sans (Book).
    case regular
    /// DejaVu Sans Bold.
    case bold
}
