/// What `CatalogBuilder.build` did: counts, every failed file with its reason, every warning, every
/// near-duplicate left out.
public struct IndexReport: Sendable, Hashable, Codable {
    /// A file and what happened to it.
    public struct FileMessage: Sendable, Hashable, Codable {
        /// The file.
        public var path: String
        /// The reason it failed, or the warning.
        public var message: String
    }

    /// A capture left out of the catalog because it repeats, at one spot, the capture kept before it in
    /// its sequence (a camera standing at a traffic light): see `CatalogBuildOptions.nearDuplicateMeters`.
    public struct NearDuplicate: Sendable, Hashable, Codable {
        /// The file left out.
        public var path: String
        /// The file of the capture kept before it, which it repeats.
        public var keptPath: String
        /// Geodesic distance between the two, metres (less than `CatalogBuildOptions.nearDuplicateMeters`).
        public var distanceMeters: Double
        /// The difference of their headings, degrees; nil when one has none in its metadata.
        public var headingDifferenceDegrees: Double? = nil
        /// The sequence both belong to.
        public var sequenceName: String
    }

    /// The catalog written.
    public var catalogPath: String
    /// Panorama images found in the folders (cataloged, failed, or left out as near-duplicates).
    public var filesFound: Int
    /// Files read this time (new or changed).
    public var filesRead: Int
    /// Files unchanged since the previous build (size and modification time), reused without reading.
    public var filesUnchanged: Int
    /// Files that could not be indexed, with the reason.
    public var failures: [FileMessage]
    /// Files indexed with a guess or an unreadable field.
    public var warnings: [FileMessage]
    /// Captures read but left out of the catalog as near-duplicates at a stop, in file order.
    public var nearDuplicates: [NearDuplicate]
    /// Sequences whose metadata headings point away from their direction of travel, by name.
    public var headingDisagreements: [HeadingDisagreement] = []
    /// Panoramas in the new catalog (near-duplicates not counted).
    public var panoramaCount: Int
    /// Sequences in the new catalog.
    public var sequenceCount: Int
    /// Neighbour links in the new catalog.
    public var linkCount: Int
    /// Places from the OSM files.
    public var placeCount: Int
    /// Streets from the OSM files.
    public var streetCount: Int
    /// Panoramas whose depth and label maps were derived from the OSM files in this run.
    public var derivedMapsCount: Int = 0
    /// The routing graph stored with the catalog; nil when none was built (no OSM file, or no graph builder).
    public var streetGraph: StreetGraphReport?
    /// Video files found in the folders (chapters and Insta360 originals counted), when videos were read.
    public var videosFound: Int = 0
    /// Frames of those videos in the catalog's files (counted in ``filesFound`` too).
    public var videoFrames: Int = 0
    /// The folders those frames are in (the catalog's frames folder; for videos in a bucket, the bucket's).
    public var videoFramesDirectories: [String] = []
    /// Wall time of the build, seconds.
    public var seconds: Double
}
