/// Which panoramas a scene request accepts.
public enum SourceFilter: String, Sendable, Hashable, Codable, CaseIterable {
    /// Only simulated panoramas.
    case simulated
    /// Only real photos.
    case photo
    /// Both (the default).
    case any

    /// Whether a panorama of `source` passes.
    public func accepts(_ source: PanoramaSource) -> Bool {
        switch self {
        case .any: return true
        case .simulated: return source == .simulated
        case .photo: return source == .photo
        }
    }
}
