/// What `ImageMetadata.read(fromJPEG:file:)` found.
public struct ImageMetadataReadResult: Sendable {
    /// The fields found (all `nil` when the file has no EXIF/XMP).
    public var metadata: ImageMetadata
    /// The frame size from the SOF marker, when one came before the first scan.
    public var pixelSize: PixelSize?
    /// Problems that made a field unreadable (broken IFD offsets, non-XML XMP, truncation); the rest was read.
    public var warnings: [String]
}
