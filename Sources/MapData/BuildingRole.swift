/// A member's role in a `type=building` relation (Simple 3D Buildings, wiki "Relation:building").
public enum BuildingRole: String, Sendable, Hashable, Codable {
    /// The building's footprint, with the tags of the whole building; not drawn in 3D once it has parts.
    case outline
    /// A section with its own heights and roof, drawn instead of the outline.
    case part
}
