import Foundation

/// A house number on a street (or on a named place, `addr:place`), from the `addr:*` tags of a node,
/// a building way or a building relation, or interpolated along an `addr:interpolation` way.
public struct AddressPoint: Sendable, Hashable, Codable {
    /// The element it came from (for interpolated numbers: the interpolation way).
    public var source: OSMElementReference
    /// `addr:housenumber` as tagged: "52", "12a", "12-14", "3 B".
    public var houseNumber: String
    /// `addr:street`.
    public var street: String?
    /// `addr:place`, for addresses named after a square, an island or a quarter rather than a street.
    public var place: String?
    /// `addr:postcode`.
    public var postcode: String?
    /// `addr:city`.
    public var city: String?
    /// `addr:unit` (a staircase or flat), when tagged.
    public var unit: String?
    /// `addr:country` (an ISO 3166-1 code such as "FI"), when tagged.
    public var country: String?
    /// Where: the node, the building's centroid, or the interpolated point.
    public var position: OSMCoordinate
    /// True for a number interpolated along an `addr:interpolation` way (not tagged on any element).
    public var isInterpolated: Bool

    /// An address point from its parts.
    public init(source: OSMElementReference, houseNumber: String, street: String? = nil, place: String? = nil,
                postcode: String? = nil, city: String? = nil, unit: String? = nil, country: String? = nil,
                position: OSMCoordinate, isInterpolated: Bool = false) {
        self.source = source
        self.houseNumber = houseNumber
        self.street = street
        self.place = place
        self.postcode = postcode
        self.city = city
        self.unit = unit
        self.country = country
        self.position = position
        self.isInterpolated = isInterpolated
    }

    /// The address point of an element's tags at `position`, or nil without `addr:housenumber` or
    /// without a street or place to give it.
    public init?(tags: [String: String], source: OSMElementReference, position: OSMCoordinate) {
        guard let number = tags["addr:housenumber"]?.trimmingSpaces(), !number.isEmpty,
              tags["addr:street"] != nil || tags["addr:place"] != nil else { return nil }
        self.init(source: source, houseNumber: number, street: tags["addr:street"], place: tags["addr:place"],
                  postcode: tags["addr:postcode"], city: tags["addr:city"], unit: tags["addr:unit"],
                  country: tags["addr:country"], position: position)
    }

    /// "Aleksanterinkatu 52, 00100 Helsinki" (the place stands for the street where there is none).
    public var formatted: String {
        let first = [street ?? place, houseNumber].compactMap { $0 }.joined(separator: " ")
        let last = [postcode, city].compactMap { $0 }.joined(separator: " ")
        return [first, last].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

/// A named settlement or part of one: a `place=city|town|village|suburb|quarter|neighbourhood|…` node,
/// or an administrative boundary's name (no position then).
public struct Locality: Sendable, Hashable, Codable {
    /// The element it came from.
    public var source: OSMElementReference
    /// `name`.
    public var name: String
    /// `name:xx`.
    public var names: [String: String]
    /// The `place=*` value, or `boundary` for an administrative boundary.
    public var kind: String
    /// The node's position; nil for a boundary (the extract rarely holds its whole outline).
    public var position: OSMCoordinate?

    /// The `place=*` values that name a locality.
    public static let placeKinds: Set<String> = ["city", "town", "village", "hamlet", "suburb", "quarter", "neighbourhood",
                                                 "borough", "city_block", "locality", "isolated_dwelling"]

    /// A locality from its parts.
    public init(source: OSMElementReference, name: String, names: [String: String], kind: String, position: OSMCoordinate?) {
        self.source = source
        self.name = name
        self.names = names
        self.kind = kind
        self.position = position
    }
}

/// Numbers along `addr:interpolation` ways: between each pair of consecutive numbered nodes of the way,
/// every number (`all`), every other (`odd`, `even`) or the listed ones, at points spaced evenly along
/// the way between the two.
enum AddressInterpolation {
    /// The interpolated points of `way` whose numbered nodes are `numbered` (node id → address point).
    static func points(of way: RawWay, numbered: [Int64: AddressPoint], coordinates: NodeCoordinateTable,
                       diagnostics: inout [MapDataDiagnostic]) -> [AddressPoint] {
        guard let scheme = way.tags["addr:interpolation"] else { return [] }
        let step: Int
        switch scheme {
        case "odd", "even": step = 2
        case "all", "1": step = 1
        default:
            if let n = Int(scheme), (2...10).contains(n) { step = n } else {
                diagnostics.append(MapDataDiagnostic(.unparsableTag, OSMElementReference(.way, way.id),
                                                     "addr:interpolation=\(scheme) is not all, odd, even or a step; ignored"))
                return []
            }
        }
        let element = OSMElementReference(.way, way.id)
        var result: [AddressPoint] = []
        var previous: (index: Int, number: Int, point: AddressPoint)?
        for (index, id) in way.nodeIDs.enumerated() {
            guard let point = numbered[id], let number = Int(point.houseNumber.trimmingSpaces()) else { continue }
            defer { previous = (index, number, point) }
            guard let start = previous, start.number != number else { continue }
            let path = way.nodeIDs[start.index...index].compactMap { coordinates[$0] }
            guard path.count == index - start.index + 1, abs(number - start.number) <= 1000 else { continue }
            let direction = number > start.number ? step : -step
            var n = start.number + direction
            while direction > 0 ? n < number : n > number {
                let fraction = Double(n - start.number) / Double(number - start.number)
                result.append(AddressPoint(source: element, houseNumber: String(n),
                                           street: way.tags["addr:street"] ?? start.point.street ?? point.street,
                                           place: start.point.place ?? point.place,
                                           postcode: start.point.postcode ?? point.postcode, city: start.point.city ?? point.city,
                                           country: start.point.country ?? point.country, position: Self.point(along: path, fraction: fraction), isInterpolated: true))
                n += direction
            }
        }
        return result
    }

    /// The point at `fraction` of the length of `path` (lengths in a local plane; paths are short).
    static func point(along path: [OSMCoordinate], fraction: Double) -> OSMCoordinate {
        guard path.count > 1 else { return path[0] }
        let scale = cos(path[0].latitude * .pi / 180)
        func length(_ a: OSMCoordinate, _ b: OSMCoordinate) -> Double {
            let dx = (b.longitude - a.longitude) * scale, dy = b.latitude - a.latitude
            return (dx * dx + dy * dy).squareRoot()
        }
        let lengths = zip(path, path.dropFirst()).map(length)
        var remaining = lengths.reduce(0, +) * fraction
        for (i, segment) in lengths.enumerated() {
            if remaining <= segment || i == lengths.count - 1 {
                let t = segment > 0 ? min(1, remaining / segment) : 0
                return OSMCoordinate(latitude: path[i].latitude + t * (path[i + 1].latitude - path[i].latitude),
                                     longitude: path[i].longitude + t * (path[i + 1].longitude - path[i].longitude))
            }
            remaining -= segment
        }
        return path[path.count - 1]
    }
}
