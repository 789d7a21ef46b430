/// What `CatalogBuilder.build` did: counts, every failed file with its reason, every warning.
public struct IndexReport: Sendable, Hashable, Codable {
    /// A file and what happened to it.
    public struct FileMessage: Sendable, Hashable, Codable {
        /// The file.
        public var path: String
        /// The reason it failed, or the warning.
        public var message: String
    }

    /// The catalog written.
    public var catalogPath: String
    /// Panorama images found in the folders.
    public var filesFound: Int
    /// Files read this time (new or changed).
    public var filesRead: Int
    /// Files unchanged since the previous build (size and modification time), reused without reading.
    public var filesUnchanged: Int
    /// Files that could not be indexed, with the reason.
    public var failures: [FileMessage]
    /// Files indexed with a guess or an unreadable field.
    public var warnings: [FileMessage]
    /// Panoramas in the new catalog.
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
    /// Wall time of the build, seconds.
    public var seconds: Double
}
