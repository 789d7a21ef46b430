/// Everything MapData extracts from one OSM file: the features, the water model, the bounding box, the raw counts,
/// the diagnostics about data that had to be dropped, and the attribution the licence requires.
///
/// Load with `MapDataset(contentsOfFile:)`; it is `Codable`, so a loaded dataset can be cached. The data
/// is © OpenStreetMap contributors, available under the Open Database License (ODbL); show
/// `attribution` wherever it is displayed.
public struct MapDataset: Sendable, Hashable, Codable {
    /// The attribution required by the ODbL: "© OpenStreetMap contributors".
    public static let attribution = "© OpenStreetMap contributors"

    /// The file it was read from.
    public var sourcePath: String
    /// The box around all nodes in the file (nil for a file without nodes).
    public var boundingBox: OSMBoundingBox?
    /// The box the file says it covers (`<bounds>` in OSM XML, the header's `bbox` in PBF), when it
    /// says one. An extract cut with complete ways or whole relations holds nodes far outside it (a
    /// long street, a park's outline), but its buildings, land use and furniture stop at it.
    public var declaredBounds: OSMBoundingBox?

    /// Where the data is complete: ``declaredBounds`` when the file declares them, else the box
    /// around its nodes (``boundingBox``).
    public var dataBounds: OSMBoundingBox? { declaredBounds ?? boundingBox }
    /// Raw counts of elements and tags, as libreadosm delivered them.
    public var counts: OSMElementCounts
    /// Buildings and building parts with footprints and heights.
    public var buildings: [Building]
    /// Streets, footways, cycleways, steps… (`highway=*` lines).
    public var streets: [Street]
    /// Tram, rail, light-rail and subway tracks.
    public var railways: [RailwayLine]
    /// Squares, parks, grass, water, woods, paved areas.
    public var areas: [AreaFeature]
    /// Single trees (`natural=tree` nodes).
    public var trees: [Tree]
    /// Tree rows (`natural=tree_row` ways).
    public var treeRows: [TreeRow]
    /// Coastline pieces (`natural=coastline` ways).
    public var coastlines: [Coastline]
    /// Street lamps, benches, stops, signals, bollards, waste baskets, statues, memorials, artworks and
    /// fountains mapped as nodes.
    public var furniture: [StreetFurniture]
    /// Hedges (`barrier=hedge` ways).
    public var hedges: [Hedge]
    /// Named points of interest.
    public var places: [Place]
    /// The sea (assembled from ``coastlines``, closed along ``boundingBox``) and the inland water areas:
    /// the one water model the map and the simulator share.
    public var water: WaterModel
    /// House numbers (`addr:*` on nodes, buildings and relations, and interpolated along
    /// `addr:interpolation` ways).
    public var addresses: [AddressPoint]
    /// Named localities: `place=*` nodes and administrative boundaries.
    public var localities: [Locality]
    /// What was dropped or simplified, and why (unclosable rings, clipped ways, bad tag values).
    public var diagnostics: [MapDataDiagnostic]

    /// The attribution string, "© OpenStreetMap contributors".
    public var attribution: String { MapDataset.attribution }

    /// A dataset from its parts (for tests and tools that build data by hand); ``water`` is assembled
    /// from `coastlines` and `areas` within `boundingBox`.
    public init(sourcePath: String, boundingBox: OSMBoundingBox?, counts: OSMElementCounts, buildings: [Building],
                streets: [Street], railways: [RailwayLine], areas: [AreaFeature], trees: [Tree],
                treeRows: [TreeRow], coastlines: [Coastline], places: [Place], diagnostics: [MapDataDiagnostic],
                furniture: [StreetFurniture] = [], hedges: [Hedge] = [], addresses: [AddressPoint] = [],
                localities: [Locality] = []) {
        self.sourcePath = sourcePath
        self.boundingBox = boundingBox
        self.counts = counts
        self.buildings = buildings
        self.streets = streets
        self.railways = railways
        self.areas = areas
        self.trees = trees
        self.treeRows = treeRows
        self.coastlines = coastlines
        self.places = places
        self.furniture = furniture
        self.hedges = hedges
        self.addresses = addresses
        self.localities = localities
        self.diagnostics = diagnostics
        water = WaterModel(coastlines: coastlines, areas: areas, bounds: boundingBox)
    }

    /// Reads an `.osm.pbf` or `.osm` (XML) file and assembles its features.
    ///
    /// Throws `MapDataError` when the file is missing, is not OSM data, or is a variant libreadosm
    /// cannot read (`.osm.gz`, LZ4/zstd-compressed PBF blobs, PBF with non-dense nodes). Data problems
    /// inside a readable file do not throw; they end up in `diagnostics`. Takes about 0.1 s for a
    /// 700 KB city-centre PBF in a release build.
    public init(contentsOfFile path: String) throws {
        let data = try OSMReader.read(path: path)
        var assembler = FeatureAssembler(data: data)
        assembler.run()
        self.init(sourcePath: path, boundingBox: data.boundingBox, counts: data.counts,
                  buildings: assembler.buildings, streets: assembler.streets, railways: assembler.railways,
                  areas: assembler.areas, trees: assembler.trees, treeRows: assembler.treeRows,
                  coastlines: assembler.coastlines, places: assembler.places, diagnostics: assembler.diagnostics,
                  furniture: assembler.furniture, hedges: assembler.hedges, addresses: assembler.addresses,
                  localities: assembler.localities)
        declaredBounds = data.declaredBounds
        diagnostics += water.diagnostics
    }
}
