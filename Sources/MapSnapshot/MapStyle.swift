import Imaging
import MapData

/// The colours and widths of a map type. ``standard`` and ``muted`` are complete base maps; ``hybrid``
/// draws roads and labels over imagery. Widths are in metres on the ground with a minimum in points,
/// so roads keep their real proportions when zoomed in and stay visible when zoomed out.
public struct MapStyle: Sendable, Hashable {
    /// How one class of road is drawn.
    public struct RoadStyle: Sendable, Hashable {
        /// Inner colour.
        public var fill: RGBAColor
        /// Outline colour (drawn under the fill, wider by 2 × ``casingPoints``); nil for none.
        public var casing: RGBAColor?
        /// Real width, metres.
        public var widthMeters: Double
        /// The narrowest it is drawn, points.
        public var minimumWidthPoints: Double
        /// The widest it is drawn, points.
        public var maximumWidthPoints: Double
        /// Casing width on each side, points.
        public var casingPoints: Double
        /// The lowest zoom level at which it is drawn.
        public var minimumZoom: Double
    }

    /// Land (the background).
    public var land: RGBAColor
    /// Sky above the horizon of a pitched view: top and horizon colours.
    public var skyTop: RGBAColor, skyHorizon: RGBAColor
    /// Area fills by kind; a kind missing from the table is not drawn.
    public var areas: [AreaKind: RGBAColor]
    /// Flat building footprints: fill and outline.
    public var buildingFill: RGBAColor, buildingOutline: RGBAColor
    /// Extruded buildings: roof, sunlit walls, shaded walls.
    public var roof: RGBAColor, wallLit: RGBAColor, wallShaded: RGBAColor
    /// Roads by class.
    public var roads: [RoadClass: RoadStyle]
    /// Railway and tram track colours.
    public var rail: RGBAColor, tram: RGBAColor
    /// Street-name text and halo.
    public var streetText: RGBAColor, textHalo: RGBAColor
    /// Place-label text colours by group.
    public var placeText: [PlaceGroup: RGBAColor]
    /// The dot under a place label.
    public var placeDotAlpha: UInt8
    /// Coverage layer colour (Look Around blue).
    public var coverage: RGBAColor
    /// The world layer (Natural Earth): sea, land, country borders and country names. Imagery and
    /// hybrid maps use the standard colours outside the simulated area.
    public var sea = MapStyle.rgb(163, 206, 240), worldLand = MapStyle.rgb(245, 243, 238)
    /// Country borders and country-name text.
    public var border = MapStyle.rgb(186, 160, 186), countryText = MapStyle.rgb(112, 98, 112)
    /// Outside the extract, where only the coarse world layer is known (its coastline 1:10 m, with
    /// no harbours, quays or islets): a wash over it, and a line along the extract's edge, so that what
    /// lies beyond the data cannot be taken for data.
    public var outsideExtract = MapStyle.rgb(255, 255, 255, 150), extractEdge = MapStyle.rgb(120, 120, 124, 220)

    /// Consecutive coverage positions closer than this are joined by a line, metres.
    public static let coverageLinkMeters = 40.0

    /// The road classes of the style, drawn from the bottom (paths) up (motorways).
    public enum RoadClass: Int, Sendable, Hashable, CaseIterable, Comparable {
        /// Footways, cycleways, paths, tracks, steps, corridors.
        case path
        /// Pedestrian streets.
        case pedestrian
        /// Service roads.
        case service
        /// Residential, unclassified and living streets.
        case minor
        /// `tertiary`.
        case tertiary
        /// `secondary`.
        case secondary
        /// `primary` and `trunk`.
        case primary
        /// `motorway`.
        case motorway

        /// The class of a MapData highway class, or nil for lines that are not drawn (platforms,
        /// construction, unknown values).
        public init?(_ highway: HighwayClass) {
            switch highway {
            case .motorway: self = .motorway
            case .trunk, .primary: self = .primary
            case .secondary: self = .secondary
            case .tertiary: self = .tertiary
            case .unclassified, .residential, .livingStreet: self = .minor
            case .service: self = .service
            case .pedestrian: self = .pedestrian
            case .footway, .cycleway, .path, .steps, .track, .bridleway, .corridor: self = .path
            default: return nil
            }
        }

        /// Orders from paths to motorways.
        public static func < (a: RoadClass, b: RoadClass) -> Bool { a.rawValue < b.rawValue }
    }

    private static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) -> RGBAColor {
        RGBAColor(red: r, green: g, blue: b, alpha: a)
    }

    private static func road(_ fill: RGBAColor, _ casing: RGBAColor?, meters: Double, min: Double, max: Double,
                             casing casingPoints: Double = 1, zoom: Double) -> RoadStyle {
        RoadStyle(fill: fill, casing: casing, widthMeters: meters, minimumWidthPoints: min, maximumWidthPoints: max,
                  casingPoints: casingPoints, minimumZoom: zoom)
    }

    /// The full-colour street map.
    public static let standard = MapStyle(
        land: rgb(245, 243, 238), skyTop: rgb(168, 200, 232), skyHorizon: rgb(226, 234, 242),
        areas: [.wood: rgb(186, 219, 172), .scrub: rgb(204, 224, 184), .grass: rgb(206, 234, 194),
                .park: rgb(196, 228, 184), .pavedArea: rgb(234, 231, 226), .square: rgb(236, 233, 238),
                .water: rgb(163, 206, 240), .meadow: rgb(214, 236, 190), .residential: rgb(236, 234, 230),
                .farmland: rgb(240, 238, 212), .orchard: rgb(200, 230, 180), .sand: rgb(244, 234, 200),
                .industrial: rgb(232, 226, 232), .parking: rgb(232, 232, 232)],
        buildingFill: rgb(224, 219, 212), buildingOutline: rgb(200, 193, 185),
        roof: rgb(236, 232, 226), wallLit: rgb(208, 200, 191), wallShaded: rgb(170, 161, 152),
        roads: [.motorway: road(rgb(248, 178, 98), rgb(214, 138, 64), meters: 20, min: 3, max: 28, zoom: 5),
                .primary: road(rgb(255, 214, 128), rgb(214, 168, 86), meters: 16, min: 2.6, max: 24, zoom: 8),
                .secondary: road(rgb(255, 236, 166), rgb(210, 188, 128), meters: 14, min: 2.2, max: 22, zoom: 10),
                .tertiary: road(.white, rgb(204, 196, 186), meters: 12, min: 2, max: 20, zoom: 12),
                .minor: road(.white, rgb(208, 201, 192), meters: 9, min: 1.4, max: 16, zoom: 13.5),
                .service: road(.white, rgb(214, 208, 200), meters: 5, min: 0.8, max: 10, zoom: 15),
                .pedestrian: road(rgb(248, 247, 250), rgb(214, 208, 214), meters: 7, min: 1, max: 14, zoom: 15),
                .path: road(rgb(214, 200, 186), nil, meters: 2, min: 0.6, max: 4, casing: 0, zoom: 16)],
        rail: rgb(150, 146, 150), tram: rgb(128, 104, 140),
        streetText: rgb(70, 66, 62), textHalo: rgb(255, 255, 255, 230),
        placeText: [.food: rgb(214, 104, 20), .shop: rgb(190, 70, 150), .culture: rgb(120, 76, 170),
                    .lodging: rgb(40, 100, 200), .transport: rgb(30, 100, 190), .health: rgb(210, 50, 60),
                    .education: rgb(140, 100, 50), .leisure: rgb(40, 130, 60), .service: rgb(100, 100, 110),
                    .building: rgb(105, 100, 96)],
        placeDotAlpha: 255, coverage: rgb(30, 120, 240))

    /// MapKit's muted emphasis: low-contrast greys, so overlays and annotations stand out.
    public static let muted: MapStyle = {
        var s = standard
        s.land = rgb(242, 242, 240)
        s.skyTop = rgb(214, 220, 226); s.skyHorizon = rgb(236, 238, 240)
        s.areas = [.wood: rgb(226, 232, 224), .scrub: rgb(230, 234, 228), .grass: rgb(228, 234, 226),
                   .park: rgb(226, 233, 224), .pavedArea: rgb(238, 238, 236), .square: rgb(238, 238, 238),
                   .water: rgb(214, 222, 230), .meadow: rgb(232, 236, 228), .residential: rgb(240, 240, 238),
                   .farmland: rgb(240, 240, 232), .orchard: rgb(228, 234, 226), .sand: rgb(242, 240, 232),
                   .industrial: rgb(238, 236, 238), .parking: rgb(238, 238, 238)]
        s.buildingFill = rgb(231, 231, 229); s.buildingOutline = rgb(220, 220, 218)
        s.roof = rgb(236, 236, 234); s.wallLit = rgb(224, 224, 222); s.wallShaded = rgb(212, 212, 210)
        for (k, var r) in s.roads {
            r.fill = k >= .secondary ? rgb(252, 252, 250) : (k == .path ? rgb(226, 224, 222) : .white)
            r.casing = r.casing.map { _ in rgb(224, 224, 222) }
            s.roads[k] = r
        }
        s.rail = rgb(200, 200, 200); s.tram = rgb(204, 200, 206)
        s.streetText = rgb(150, 150, 150); s.textHalo = rgb(250, 250, 250, 220)
        s.placeText = Dictionary(uniqueKeysWithValues: PlaceGroup.allCases.map { ($0, rgb(150, 150, 152)) })
        s.placeDotAlpha = 160
        s.sea = rgb(214, 222, 230); s.worldLand = s.land
        s.border = rgb(204, 200, 206); s.countryText = rgb(150, 150, 152)
        return s
    }()

    /// Roads, rails and labels for drawing over imagery.
    public static let hybrid: MapStyle = {
        var s = standard
        s.areas = [:]
        for (k, var r) in s.roads {
            r.fill = k >= .secondary ? rgb(255, 222, 130, 210) : rgb(255, 255, 255, k == .path ? 110 : 170)
            r.casing = nil
            r.widthMeters *= 0.6
            s.roads[k] = r
        }
        s.rail = rgb(230, 230, 230, 180); s.tram = rgb(230, 220, 240, 180)
        s.streetText = .white; s.textHalo = rgb(0, 0, 0, 190)
        s.placeText = Dictionary(uniqueKeysWithValues: PlaceGroup.allCases.map { ($0, RGBAColor.white) })
        return s
    }()

    /// The style of a map type (``standard`` for imagery, which draws no vector layers).
    public static func forType(_ type: MapType) -> MapStyle {
        switch type {
        case .standard, .imagery: return .standard
        case .muted: return .muted
        case .hybrid: return .hybrid
        }
    }
}
