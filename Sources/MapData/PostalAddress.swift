/// A street address from the `addr:*` tags; fields are nil when not tagged.
public struct PostalAddress: Sendable, Hashable, Codable {
    /// `addr:street`, e.g. "Aleksanterinkatu".
    public var street: String?
    /// `addr:housenumber`, e.g. "52" (a string: "52 B", "1-3" occur).
    public var houseNumber: String?
    /// `addr:postcode`, e.g. "00100".
    public var postcode: String?
    /// `addr:city`, e.g. "Helsinki".
    public var city: String?

    /// An address from its parts.
    public init(street: String? = nil, houseNumber: String? = nil, postcode: String? = nil, city: String? = nil) {
        self.street = street
        self.houseNumber = houseNumber
        self.postcode = postcode
        self.city = city
    }

    /// The address from an element's `addr:*` tags, or nil when none of the four is present.
    public init?(tags: [String: String]) {
        let address = PostalAddress(street: tags["addr:street"], houseNumber: tags["addr:housenumber"],
                                    postcode: tags["addr:postcode"], city: tags["addr:city"])
        if address.isEmpty { return nil }
        self = address
    }

    /// True when no field is set.
    public var isEmpty: Bool { street == nil && houseNumber == nil && postcode == nil && city == nil }

    /// One line, Finnish/Swedish order: "Aleksanterinkatu 52, 00100 Helsinki".
    public var formatted: String {
        let streetPart = [street, houseNumber].compactMap { $0 }.joined(separator: " ")
        let cityPart = [postcode, city].compactMap { $0 }.joined(separator: " ")
        return [streetPart, cityPart].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
