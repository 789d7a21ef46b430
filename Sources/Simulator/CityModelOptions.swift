/// Choices made when turning map data into a 3D city.
public struct CityModelOptions: Sendable, Hashable {
    /// Metres of geometry kept around the region of interest (0…5,000).
    public var marginMeters: Double
    /// Whether to put POI names on shop signs (needs the Debian fonts).
    public var includeSigns: Bool
    /// Whether to put street-name plates on corner buildings.
    public var includeStreetPlates: Bool
    /// Whether to add trees from tree nodes and tree rows.
    public var includeTrees: Bool

    /// Everything on, 250 m of margin.
    public init(marginMeters: Double = 250, includeSigns: Bool = true, includeStreetPlates: Bool = true,
                includeTrees: Bool = true) {
        self.marginMeters = marginMeters
        self.includeSigns = includeSigns
        self.includeStreetPlates = includeStreetPlates
        self.includeTrees = includeTrees
    }
}
