/// How `PNGCodec` compresses. All choices write lossless, standard PNG that any decoder reads;
/// they trade file size against time (figures for a 1920×1080 photo-like RGB view, one core,
/// are in `Benchmarks` and the codec report).
public struct PNGEncodeOptions: Sendable, Hashable {
    /// The compression effort.
    public enum Compression: Sendable, Hashable, CaseIterable {
        /// Per-row adaptive filter (libpng's minimum-sum heuristic), then this module's
        /// Huffman-plus-runs deflate (fpnge style, no string matching). The default: meant for views
        /// rendered per request (about 20 ms for a 1080p RGB photo on one core).
        case fast
        /// As `.fast`, plus libdeflate level 6 on the same rows; the smaller stream is kept
        /// (about 7× the time of `.fast`).
        case balanced
        /// As `.fast`, plus libdeflate level 12; the smaller stream is kept (over a second per
        /// 1080p frame; for archives).
        case smallest
    }

    /// The compression effort; `.fast` by default.
    public var compression: Compression

    /// Options with the given compression effort.
    public init(compression: Compression = .fast) { self.compression = compression }
}
