/// What a tree or a wood is, as far as its foliage goes: what the simulator draws (a round crown or a
/// narrow cone).
///
/// Read from the tags in this order (``init(tags:)``):
/// 1. `leaf_type=broadleaved|needleleaved|mixed|leafless`;
/// 2. `wood=deciduous|coniferous|mixed` (the older key; `deciduous` is taken as broadleaved, which it is
///    almost always);
/// 3. `genus=*`, else the first word of `species=*` or `taxon=*` (a scientific name): the genera of
///    ``needleleavedGenera`` are needleleaved, every other named genus broadleaved.
///
/// Where the tags say nothing, ``likelyConiferShare(latitude:)`` gives the share of conifers a wood at
/// that latitude most likely has.
public enum LeafType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Broad leaves (oak, birch, lime, maple…).
    case broadleaved
    /// Needles or scales (pine, spruce, fir, larch…).
    case needleleaved
    /// Both (a mixed wood).
    case mixed
    /// No leaves (cacti, dead trees): drawn as broadleaved.
    case leafless

    /// The leaf type the tags state or imply, or nil when they say nothing (see the type's comment).
    public init?(tags: [String: String]) {
        if let value = tags["leaf_type"]?.lowercased(), let type = LeafType(rawValue: value) {
            self = type
            return
        }
        switch tags["wood"]?.lowercased() {
        case "coniferous": self = .needleleaved; return
        case "deciduous": self = .broadleaved; return
        case "mixed": self = .mixed; return
        default: break
        }
        let name = tags["genus"] ?? tags["species"] ?? tags["taxon"]
        guard let genus = name.flatMap(Self.genus) else { return nil }
        self = Self.needleleavedGenera.contains(genus) ? .needleleaved : .broadleaved
    }

    /// The genus of a scientific name ("Pinus sylvestris" → "pinus"), lower case; nil for a name that
    /// does not start with a Latin word (a vernacular "mänty", a list "Pinus;Picea").
    static func genus(_ name: String) -> String? {
        let first = name.split(separator: " ").first.map { String($0).lowercased() } ?? ""
        guard first.count >= 3, first.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { return nil }
        return first
    }

    /// Genera of conifers (and the other needle- or scale-leaved trees) mapped in OSM, lower case.
    public static let needleleavedGenera: Set<String> = [
        "pinus", "picea", "abies", "larix", "pseudotsuga", "tsuga", "cedrus", "juniperus", "taxus", "thuja", "cupressus",
        "chamaecyparis", "sequoia", "sequoiadendron", "metasequoia", "taxodium", "cryptomeria", "araucaria", "podocarpus",
        "cupressocyparis", "xanthocyparis", "calocedrus", "thujopsis", "sciadopitys", "torreya", "cephalotaxus",
        "agathis", "wollemia", "platycladus", "callitris", "widdringtonia", "casuarina",
    ]

    /// The share of conifers (0…1) a wood without leaf tags most likely has at `latitude` (degrees),
    /// from the forest zones: the boreal forest north of 58° (Finland's and Sweden's woods are about
    /// 80 % conifers by their national inventories), mixed hemiboreal and managed temperate woods from
    /// 47° to 58° (Germany's about half), broadleaf-dominated woods from 35° to 47° (France's about a
    /// third), broadleaf below 35° and in the southern hemisphere's temperate belt.
    ///
    /// | \|latitude\| | share of conifers |
    /// |---|---|
    /// | ≥ 58° N | 0.8 |
    /// | 47–58° N | 0.5 |
    /// | 35–47° N | 0.3 |
    /// | < 35° (N or S) | 0.1 |
    /// | ≥ 35° S | 0.2 |
    public static func likelyConiferShare(latitude: Double) -> Double {
        if latitude >= 58 { return 0.8 }
        if latitude >= 47 { return 0.5 }
        if latitude >= 35 { return 0.3 }
        if latitude <= -35 { return 0.2 }
        return 0.1
    }
}
