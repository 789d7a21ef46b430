import Catalog

/// What `lookaround serve` takes uploads with (Panoramax's upload sets under `/api`): the tokens, the
/// bounds, and the pieces of `lookaround index` that live above this module, injected by the command
/// (blurring, maps derived from OpenStreetMap, the routing graph), so an upload is ingested exactly as
/// an index run ingests a folder.
public struct UploadSettings: Sendable {
    /// The default of `--max-upload-bytes`: a 12K 360° JPEG is about 30 MB.
    public static let defaultMaximumUploadBytes = 64 << 20

    /// Accepted upload tokens (`Authorization: Bearer TOKEN`); one at least.
    public var keys: [String]
    /// The largest picture accepted, bytes (413 beyond).
    public var maximumUploadBytes = UploadSettings.defaultMaximumUploadBytes
    /// Blurs faces and plates in a photo in place (nil: no blurring available here).
    public var blurring: (any UploadBlurring)?
    /// `--serve-unblurred`: a photo the uploader says is blurred (`isBlurred=true`) is kept as sent, and
    /// photos are kept unblurred when no blurring is available. Otherwise every photo not yet blurred by
    /// lookaround is blurred on arrival (serve publishes no unblurred real photo).
    public var servesUnblurred = false
    /// OSM extracts for places, streets, the routing graph and derived maps (as `lookaround index` finds them).
    public var osmFiles: [String] = []
    /// Derives depth and label maps for uploaded photos the OSM extracts cover (nil: none).
    public var mapDeriver: (any PanoramaMapDeriving)?
    /// Builds the routing graph of the OSM extracts (nil: the catalog keeps none).
    public var streetGraphBuilder: (any StreetGraphBuilding)?

    public init(keys: [String]) { self.keys = keys }
}

/// The file names uploaded pictures were sent with, by picture id (the files are kept by id).
protocol UploadedFileNames: Sendable {
    func originalName(ofPicture id: String) -> String?
}

/// Blurring of faces and licence plates in a photo, as `lookaround blur --in-place` does it.
public protocol UploadBlurring: Sendable {
    /// Whether the photo's XMP records that lookaround blurred it.
    func isBlurred(_ path: String) -> Bool
    /// Blurs the photo at `path` in place; the faces and plates blurred.
    /// - Throws: when the detectors cannot run (their models missing) or the photo cannot be blurred;
    ///   the message is for the uploader.
    func blurInPlace(_ path: String) throws -> (faces: Int, plates: Int)
}
