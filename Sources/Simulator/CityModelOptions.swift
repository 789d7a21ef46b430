/// Choices made when turning map data into a 3D city.
public struct CityModelOptions: Sendable, Hashable {
    /// Metres of geometry kept around the region of interest (0…5,000).
    public var marginMeters: Double
    /// Whether to put POI names on shop signs (needs the Debian fonts).
    public var includeSigns: Bool
    /// Whether to put street-name plates on corner buildings.
    public var includeStreetPlates: Bool
    /// Whether to add trees from tree nodes and tree rows, trees and shrubs scattered over green areas
    /// where no trees are mapped, and hedges.
    public var includeTrees: Bool
    /// Whether to add street furniture from OSM nodes (lamps, benches, stops, signals, bollards, waste
    /// baskets, statues, memorials, artworks, fountains).
    public var includeFurniture: Bool
    /// The ray engine: Embree by default (faster on the Helsinki scene, see Benchmarks), our BVH as the
    /// reference.
    public var engine: RayEngine
    /// Whether trees, shrubs and street furniture are placed copies of a few prototypes (the default:
    /// a suburb's woods take a fraction of the memory) or written out triangle by triangle (the flat
    /// reference; pictures agree up to the rounding of the copies' transforms).
    public var instancing: Bool

    /// Everything on, 250 m of margin.
    public init(marginMeters: Double = 250, includeSigns: Bool = true, includeStreetPlates: Bool = true,
                includeTrees: Bool = true, includeFurniture: Bool = true,
                engine: RayEngine = .embree, instancing: Bool = true) {
        self.marginMeters = marginMeters
        self.includeSigns = includeSigns
        self.includeStreetPlates = includeStreetPlates
        self.includeTrees = includeTrees
        self.includeFurniture = includeFurniture
        self.engine = engine
        self.instancing = instancing
    }
}
