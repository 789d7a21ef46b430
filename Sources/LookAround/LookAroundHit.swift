import Geodesy

/// What lies under one pixel of a snapshot: the answer of ``LookAroundSnapshotter/hitTest(x:y:)``.
///
/// The direction is always known; the point is nil when the pixel shows sky (the depth map has no
/// surface there, or none within 655 m). Place and street are filled when the catalog has one under
/// the point (see ``LookAroundSnapshotter/hitTest(x:y:)`` for the rules).
public struct LookAroundHit: Sendable, Hashable, Codable {
    /// What kind of surface the pixel shows.
    public enum Surface: String, Sendable, Hashable, Codable {
        /// No surface: sky, or anything beyond the depth map's 655 m.
        case sky
        /// The ground (street, sidewalk, square, grass): within ``LookAroundSnapshotter/groundToleranceMeters``
        /// of the height of the ground under the camera.
        case ground
        /// Anything standing above the ground: a facade, a sign, a roof, a tree, a car.
        case raised
        /// Unknown: the panorama has no depth map (a photo), so only the direction is known.
        case unknown
    }

    /// The surface point under the pixel.
    public struct Point: Sendable, Hashable, Codable {
        /// Where it is (WGS84 degrees).
        public var coordinate: GeoCoordinate
        /// Distance from the camera centre along the ray, metres.
        public var distanceMeters: Double
        /// Height above the ground under the camera, metres (the ground is taken as level).
        public var heightAboveGroundMeters: Double
        /// Metres east, north and up of the camera centre.
        public var offset: EastNorthUp
    }

    /// A place under the pixel.
    public struct Place: Sendable, Hashable, Codable {
        /// The name, in the requested language when the place has it, else the local name.
        public var name: String
        /// The category, e.g. "cafe".
        public var category: String
        /// The coarse group, e.g. "food".
        public var categoryGroup: PlaceGroup
        /// The place's own coordinate (as mapped, usually inside the building).
        public var coordinate: GeoCoordinate
        /// Distance from the surface point to the place's label anchor on the facade, metres.
        public var distanceMeters: Double
    }

    /// A street under the pixel.
    public struct Street: Sendable, Hashable, Codable {
        /// The name, in the requested language when the street has it, else the local name.
        public var name: String
        /// The OSM highway class, e.g. "residential".
        public var highwayClass: HighwayClass
        /// Distance from the surface point to the street's centreline, metres.
        public var distanceMeters: Double
    }

    /// The address of the building hit: the nearest house number within
    /// ``LookAroundSnapshotter/addressToleranceMeters`` of the point (reverse geocoding).
    public struct Address: Sendable, Hashable, Codable {
        /// `addr:housenumber`.
        public var houseNumber: String
        /// `addr:street` (or `addr:place`).
        public var street: String?
        /// `addr:postcode`.
        public var postcode: String?
        /// The city.
        public var city: String?
        /// "Aleksanterinkatu 52, 00100 Helsinki".
        public var displayName: String
        /// From the surface point to the address point, metres.
        public var distanceMeters: Double
    }

    /// The view pixel asked about, continuous coordinates (pixel centres at i + 0.5).
    public var x: Double
    /// See ``x``.
    public var y: Double
    /// The panorama the view comes from.
    public var panoramaID: String
    /// Unit world direction (east, north, up) of the ray through the pixel.
    public var direction: EastNorthUp
    /// The ray's heading, degrees clockwise from north, [0, 360).
    public var headingDegrees: Double
    /// The ray's angle above the horizon, degrees, −90…90.
    public var elevationDegrees: Double
    /// The kind of surface.
    public var surface: Surface
    /// The surface point, nil for sky and when the panorama has no depth map.
    public var point: Point?
    /// The place whose label is pinned where the ray hits (only on raised surfaces), if any.
    public var place: Place?
    /// The street the ray hits (only on the ground), if any.
    public var street: Street?
    /// The address of the building, for a raised surface near a tagged house number.
    public var address: Address?

    /// Whether the pixel shows sky.
    public var isSky: Bool { surface == .sky }
}
