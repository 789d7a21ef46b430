/// What `lookaround index` builds from, and where it writes.
public struct CatalogBuildOptions: Sendable {
    /// Folders searched recursively for panorama JPEGs.
    public var directories: [String]
    /// The catalog file to create or update (replaced atomically).
    public var catalogPath: String
    /// OpenStreetMap files (`.osm.pbf` or `.osm`) to take places and streets from.
    public var osmFiles: [String]
    /// How depth maps, label maps and sidecars are named.
    public var naming: CatalogNamingConvention
    /// Panoramas closer than this are linked as neighbours, metres (0 disables proximity links).
    public var proximityLinkMeters: Double
    /// At most this many proximity links per panorama (sequence links come on top).
    public var maximumProximityLinks: Int
    /// Re-read every file even when unchanged.
    public var forceFullRebuild: Bool
    /// Derives depth and label maps from the OSM files for panoramas that have none (nil: none derived).
    public var mapDeriver: (any PanoramaMapDeriving)?
    /// Where derived maps are written; nil for the catalog's ``CatalogLocation/derivedMapsDirectory``.
    public var derivedMapsDirectory: String?
    /// Builds the routing graph of the OSM files, stored with the catalog (nil: none stored). An index
    /// run keeps the previous catalog's graph while the files' sizes and modification times and the
    /// builder's format version are unchanged, unless ``forceFullRebuild``.
    public var streetGraphBuilder: (any StreetGraphBuilding)?
    /// Called with (done, total) while maps are derived.
    public var derivationProgress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
    /// A capture this close to the capture kept before it in its sequence, metres, facing within
    /// ``nearDuplicateDegrees`` of it, is a near-duplicate and left out (mapillary_tools' rule): a stop.
    public var nearDuplicateMeters = CatalogBuilder.defaultNearDuplicateMeters
    /// See ``nearDuplicateMeters``: the largest heading difference of a near-duplicate, degrees (captures
    /// without a heading in their metadata are compared by distance alone).
    public var nearDuplicateDegrees = CatalogBuilder.defaultNearDuplicateDegrees
    /// Where headings come from where a sequence's metadata and its direction of travel disagree (and
    /// with `.travel`, everywhere a sequence has a direction of travel).
    public var headingFrom = HeadingChoice.metadata
    /// Samples the videos found (`.mp4`, `.mov`, `.360`, `.insv`) into frame JPEGs that are indexed like
    /// photos, one sequence per recording (nil: videos are not read).
    public var videoSampler: (any VideoFrameSampling)?
    /// Where video frames are written; nil for the catalog's ``CatalogLocation/videoFramesDirectory``.
    public var videoFramesDirectory: String?
    /// Called with (done, total) while videos are read.
    public var videoProgress: (@Sendable (_ done: Int, _ total: Int) -> Void)?

    /// Set by the upload ingest: the run owns only the panoramas under this folder (the catalog's
    /// ``CatalogLocation/uploadsDirectory``), reading ``directories`` inside it; every panorama of the
    /// previous catalog elsewhere is kept as it is (sequence, order, pose, maps). Nil (an index run): the
    /// run owns everything but the uploaded panoramas, which it keeps as they are and never reads.
    public var ownedFolder: String?
    /// How the captures of a folder (a directory as given in ``directories``) are split into sequences
    /// and thinned, where it differs from the run's defaults (an upload set's own settings).
    public var sequenceRules: [String: SequenceRules] = [:]

    /// Options with defaults: standard naming, proximity links within 30 m, at most 4 per panorama.
    public init(directories: [String], catalogPath: String, osmFiles: [String] = [],
                naming: CatalogNamingConvention = .standard, proximityLinkMeters: Double = 30,
                maximumProximityLinks: Int = 4, forceFullRebuild: Bool = false) {
        self.directories = directories
        self.catalogPath = catalogPath
        self.osmFiles = osmFiles
        self.naming = naming
        self.proximityLinkMeters = proximityLinkMeters
        self.maximumProximityLinks = maximumProximityLinks
        self.forceFullRebuild = forceFullRebuild
    }

}

/// How one folder's captures become sequences (an upload set's `split_distance`, `split_time`,
/// `duplicate_distance` and `duplicate_rotation`).
public struct SequenceRules: Sendable, Equatable, Codable {
    /// A pause longer than this starts the next part of a sequence, seconds (nil: never split by time).
    public var splitSeconds: Double?
    /// A jump longer than this starts the next part, metres (nil: never split by distance).
    public var splitMeters: Double?
    /// A capture closer than this to the one kept before it, facing within ``duplicateDegrees``, is left out, metres (0: none).
    public var duplicateMeters: Double
    /// See ``duplicateMeters``, degrees.
    public var duplicateDegrees: Double

    public init(splitSeconds: Double? = CatalogBuilder.sequenceGapSeconds, splitMeters: Double? = nil,
                duplicateMeters: Double = CatalogBuilder.defaultNearDuplicateMeters,
                duplicateDegrees: Double = CatalogBuilder.defaultNearDuplicateDegrees) {
        (self.splitSeconds, self.splitMeters, self.duplicateMeters, self.duplicateDegrees) = (splitSeconds, splitMeters, duplicateMeters, duplicateDegrees)
    }
}
