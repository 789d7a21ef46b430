/// A named point of interest: a shop, café, museum, stop, park… with its names in every language
/// tagged, its address and contact details. Labels and place search use these.
public struct Place: Sendable, Hashable, Codable {
    /// The element it was made from (a node, a way or a multipolygon relation).
    public var source: OSMElementReference
    /// The `name` tag (the local name; in Helsinki usually Finnish).
    public var name: String
    /// Names by language code from the `name:xx` tags, e.g. `["fi": "Helsingin tuomiokirkko",
    /// "sv": "Helsingfors domkyrka", "en": "Helsinki Cathedral"]`. `name` itself is not repeated here.
    public var names: [String: String]
    /// What kind of place it is.
    public var category: PlaceCategory
    /// The address, when tagged.
    public var address: PostalAddress?
    /// `phone` (or `contact:phone`), as tagged.
    public var phone: String?
    /// `website` (or `contact:website`, `url`), as tagged.
    public var website: String?
    /// `opening_hours`, unparsed OSM syntax, e.g. "Mo-Fr 09:00-21:00".
    public var openingHours: String?
    /// The node's position, or the area-weighted centroid of the way's or relation's polygon (the mean
    /// of the points for an unclosed way).
    public var position: OSMCoordinate

    /// A place from its parts.
    public init(source: OSMElementReference, name: String, names: [String: String], category: PlaceCategory,
                address: PostalAddress?, phone: String?, website: String?, openingHours: String?,
                position: OSMCoordinate) {
        self.source = source
        self.name = name
        self.names = names
        self.category = category
        self.address = address
        self.phone = phone
        self.website = website
        self.openingHours = openingHours
        self.position = position
    }

    /// The name in `language` (an OSM language code such as "sv"), falling back to `name`.
    public func name(in language: String) -> String { names[language] ?? name }
}
