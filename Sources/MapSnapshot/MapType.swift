import MapData

/// What the map shows, as MapKit's map types.
public enum MapType: String, Sendable, Hashable, Codable, CaseIterable {
    /// The full-colour street map: land use, water, roads by class, buildings, labels.
    case standard
    /// MapKit's muted emphasis: the same map in low-contrast greys, so overlays stand out.
    case muted
    /// A top-down orthophoto of the simulator's 3D city (needs an ``OrthophotoProvider``), no labels.
    case imagery
    /// The orthophoto with roads and labels drawn over it (needs an ``OrthophotoProvider``).
    case hybrid

    /// Whether the type draws from an ``OrthophotoProvider``.
    public var needsOrthophoto: Bool { self == .imagery || self == .hybrid }

    /// The credits a map of this type carries: the data's attribution (`data`), "Made with Natural Earth"
    /// when the world layer shows, "imagery: simulated" for the orthophoto types. The snapshot paints
    /// them; the tile service's TileJSON lists them.
    public func credits(data: String, showsWorld: Bool) -> [String] {
        var credits = data.isEmpty ? [] : [data]
        if showsWorld { credits.append(WorldBasemap.attribution) }
        if needsOrthophoto { credits.append("imagery: simulated") }
        return credits
    }
}
