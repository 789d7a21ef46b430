/// Turns what the reader collected into features. One pass over tagged nodes, one over ways, one over
/// multipolygon relations; problems become diagnostics, never crashes.
struct FeatureAssembler {
    let data: OSMRawData
    var buildings: [Building] = []
    var streets: [Street] = []
    var railways: [RailwayLine] = []
    var areas: [AreaFeature] = []
    var trees: [Tree] = []
    var treeRows: [TreeRow] = []
    var coastlines: [Coastline] = []
    var furniture: [StreetFurniture] = []
    var hedges: [Hedge] = []
    var places: [Place] = []
    var addresses: [AddressPoint] = []
    var localities: [Locality] = []
    var diagnostics: [MapDataDiagnostic] = []
    /// Address nodes by id, the numbered ends of interpolation ways.
    var numberedNodes: [Int64: AddressPoint] = [:]

    /// Ways that are outer members of multipolygons tagged `building` (or `building:part`).
    let buildingRelationOuterWays: Set<Int64>
    /// The `type=building` relation each `outline` and `part` member belongs to, and its role there.
    let buildingMembership: [OSMElementReference: (relation: Int64, role: BuildingRole)]

    init(data: OSMRawData) {
        self.data = data
        var membership: [OSMElementReference: (relation: Int64, role: BuildingRole)] = [:]
        for relation in data.buildingRelations {
            for member in relation.members {
                guard let role = BuildingRole(rawValue: member.role) else { continue }
                // An element in two building relations (a shared wall's part) keeps the first.
                if membership[member.element] == nil { membership[member.element] = (relation.id, role) }
            }
        }
        buildingMembership = membership
        var outers: Set<Int64> = []
        for relation in data.multipolygons
        where Self.buildingType(relation.tags) != nil || membership[OSMElementReference(.relation, relation.id)] != nil {
            for member in relation.members where member.role == "outer" || member.role.isEmpty {
                outers.insert(member.wayID)
            }
        }
        buildingRelationOuterWays = outers
    }

    /// The building type and whether it is a part for an element's tags and its role in a `type=building`
    /// relation: the role decides (a `part` member tagged `building=yes` is a part, an untagged one a
    /// part of type `yes`); without a role, the tags do (``buildingType(_:)``).
    func building(_ tags: [String: String], _ element: OSMElementReference) -> (type: String, isPart: Bool)? {
        let tagged = Self.buildingType(tags)
        guard let role = buildingMembership[element]?.role else { return tagged }
        switch role {
        case .part: return (tags["building:part"].flatMap { $0 == "no" ? nil : $0 } ?? tagged?.0 ?? "yes", true)
        case .outline: return (tags["building"].flatMap { $0 == "no" ? nil : $0 } ?? tagged?.0 ?? Self.untaggedOutlineType(tags), false)
        }
    }

    /// The type of a relation's outline that carries no `building` tag (the wiki asks for one): a
    /// monument for `historic=memorial|monument` or `man_made=obelisk`, else `yes`. Its parts tagged only
    /// `building:part=yes` take it (plain stone walls, not a block of flats' windows).
    static func untaggedOutlineType(_ tags: [String: String]) -> String {
        if ["memorial", "monument"].contains(tags["historic"] ?? "") || tags["man_made"] == "obelisk" { return "monument" }
        return "yes"
    }

    mutating func run() {
        for node in data.taggedNodes { addNode(node) }
        // A way's tags go once its features are made (the interpolation pass below reads its own; member
        // ways of relations are read for their node ids only): on a 50 MB extract the ways' tags are
        // about 175 MB of the reading's peak, freed as the features that replace them grow.
        for i in data.ways.indices where !data.ways[i].tags.isEmpty {
            addWay(data.ways[i])
            if data.ways[i].tags["addr:interpolation"] == nil { data.ways[i].tags = [:] }
        }
        for relation in data.multipolygons { addMultipolygon(relation) }
        for way in data.ways where way.tags["addr:interpolation"] != nil {
            addresses += AddressInterpolation.points(of: way, numbered: numberedNodes, coordinates: data.coordinates,
                                                     diagnostics: &diagnostics)
        }
        for relation in data.boundaries {
            guard let name = relation.tags["name"] else { continue }
            localities.append(Locality(source: OSMElementReference(.relation, relation.id), name: name,
                                       names: OSMTagParsing.names(from: relation.tags), kind: "boundary", position: nil))
        }
    }

    // MARK: Nodes

    mutating func addNode(_ node: RawNode) {
        let element = OSMElementReference(.node, node.id)
        if node.tags["natural"] == "tree" {
            let species = node.tags["species"] ?? node.tags["genus"] ?? node.tags["species:fi"] ?? node.tags["taxon"]
            trees.append(Tree(source: element, position: node.coordinate,
                              heightMeters: node.tags["height"].flatMap(OSMTagParsing.lengthMeters),
                              species: species, leafType: LeafType(tags: node.tags)))
        }
        if let kind = StreetFurnitureKind.classify(node.tags) {
            let tags = node.tags
            furniture.append(StreetFurniture(
                source: element, kind: kind, position: node.coordinate, name: tags["name"],
                heightMeters: tags["height"].flatMap(OSMTagParsing.lengthMeters),
                directionDegrees: tags["direction"].flatMap(OSMTagParsing.compassDegrees),
                hasShelter: tags["shelter"] == "yes" || tags["covered"] == "yes", hasBench: tags["bench"] == "yes"))
        }
        addPlace(tags: node.tags, source: element, position: node.coordinate)
        if let address = AddressPoint(tags: node.tags, source: element, position: node.coordinate) {
            addresses.append(address)
            numberedNodes[node.id] = address
        }
        if let kind = node.tags["place"], Locality.placeKinds.contains(kind), let name = node.tags["name"] {
            localities.append(Locality(source: element, name: name, names: OSMTagParsing.names(from: node.tags), kind: kind,
                                       position: node.coordinate))
        }
    }

    // MARK: Ways

    mutating func addWay(_ way: RawWay) {
        let tags = way.tags
        let element = OSMElementReference(.way, way.id)
        let closed = RingAssembler.isClosed(way.nodeIDs)
        let coordinateTable = data.coordinates
        var ringCache: [OSMCoordinate]??
        // The way as a closed ring with all coordinates, or nil (with one diagnostic) when it cannot be.
        func ring(_ diagnostics: inout [MapDataDiagnostic], purpose: String) -> [OSMCoordinate]? {
            if let cached = ringCache { return cached }
            let result: [OSMCoordinate]?
            if !closed {
                diagnostics.append(MapDataDiagnostic(.openAreaWay, element, "\(purpose) way is not closed; dropped"))
                result = nil
            } else {
                let coordinates = way.nodeIDs.compactMap { coordinateTable[$0] }
                if coordinates.count == way.nodeIDs.count {
                    result = coordinates
                } else {
                    diagnostics.append(MapDataDiagnostic(.missingNodes, element,
                        "\(purpose) ring has \(way.nodeIDs.count - coordinates.count) of \(way.nodeIDs.count) "
                        + "nodes outside the extract; dropped"))
                    result = nil
                }
            }
            ringCache = .some(result)
            return result
        }

        // An outer way of a building multipolygon that is tagged as a building itself is drawn by the
        // relation (which has the courtyards); building it twice would overlap.
        if let (type, isPart) = building(tags, element), !buildingRelationOuterWays.contains(way.id) {
            if let outer = ring(&diagnostics, purpose: "building") {
                addBuilding(tags: tags, type: type, isPart: isPart, source: element,
                            footprint: [OSMPolygon(outer: outer)])
            }
        }

        let isHighwayArea = tags["highway"] != nil && tags["area"] == "yes" && closed
        if let highway = tags["highway"], !isHighwayArea {
            let (highwayClass, isLink) = HighwayClass.parse(highway)
            var names = OSMTagParsing.names(from: tags)
            // Other names a street is known by, for address search ("Alexandersgatan" is name:sv).
            for key in ["alt_name", "old_name", "official_name", "short_name"] { if let value = tags[key] { names[key] = value } }
            for points in lines(way) {
                streets.append(Street(
                    source: element, highwayClass: highwayClass, isLink: isLink, name: tags["name"],
                    names: names, lanes: tags["lanes"].flatMap(OSMTagParsing.lanes),
                    widthMeters: tags["width"].flatMap(OSMTagParsing.lengthMeters).flatMap { $0 > 0 ? $0 : nil },
                    oneway: OnewayDirection.parse(oneway: tags["oneway"], highway: highway, junction: tags["junction"]),
                    sidewalk: SidewalkSides(tags: tags), footwayType: tags["footway"], surface: tags["surface"],
                    layer: Self.layer(tags), isBridge: Self.isBridge(tags), isTunnel: Self.isTunnel(tags),
                    points: points))
            }
        }
        if let value = tags["railway"], let kind = RailwayKind(rawValue: value) {
            for points in lines(way) {
                railways.append(RailwayLine(source: element, kind: kind, name: tags["name"], service: tags["service"],
                                            layer: Self.layer(tags), isBridge: Self.isBridge(tags),
                                            isTunnel: Self.isTunnel(tags), points: points))
            }
        }
        if tags["natural"] == "tree_row" {
            for points in lines(way) { treeRows.append(TreeRow(source: element, points: points)) }
        }
        if tags["barrier"] == "hedge" {
            let height = tags["height"].flatMap(OSMTagParsing.lengthMeters)
            for points in lines(way) { hedges.append(Hedge(source: element, points: points, heightMeters: height)) }
        }
        if tags["natural"] == "coastline" {
            for points in lines(way) { coastlines.append(Coastline(source: element, points: points)) }
        }
        if let kind = AreaKind.classify(tags), tags["highway"] == nil || isHighwayArea {
            if let outer = ring(&diagnostics, purpose: "\(kind.rawValue) area") {
                areas.append(AreaFeature(source: element, kind: kind, name: tags["name"],
                                         names: OSMTagParsing.names(from: tags), polygons: [OSMPolygon(outer: outer)],
                                         leafType: LeafType(tags: tags)))
            }
        }
        let isPlace = tags["name"] != nil && PlaceCategory.classify(tags) != nil
        if isPlace || tags["addr:housenumber"] != nil {
            // A clipped area still gets a place and an address: at the mean of the nodes in the extract.
            let present = way.nodeIDs.compactMap { coordinateTable[$0] }
            let position: OSMCoordinate? = closed && present.count == way.nodeIDs.count
                ? OSMPolygon(outer: present).centroid : (present.isEmpty ? nil : OSMPolygon.meanPoint(present))
            if let position {
                if isPlace { addPlace(tags: tags, source: element, position: position) }
                if let address = AddressPoint(tags: tags, source: element, position: position) { addresses.append(address) }
            }
        }
    }

    /// The way as polylines of at least 2 points: split where nodes are missing (clipped at the extract
    /// edge), so that no segment jumps across the gap. Reports a diagnostic when nodes were missing.
    mutating func lines(_ way: RawWay) -> [[OSMCoordinate]] {
        var result: [[OSMCoordinate]] = []
        var current: [OSMCoordinate] = []
        var missing = 0
        for id in way.nodeIDs {
            if let coordinate = data.coordinates[id] {
                current.append(coordinate)
            } else {
                missing += 1
                if current.count >= 2 { result.append(current) }
                current = []
            }
        }
        if current.count >= 2 { result.append(current) }
        if missing > 0 {
            diagnostics.append(MapDataDiagnostic(.missingNodes, OSMElementReference(.way, way.id),
                "\(missing) of \(way.nodeIDs.count) nodes outside the extract; kept \(result.count) piece(s)"))
        }
        return result
    }

    // MARK: Relations

    mutating func addMultipolygon(_ relation: RawRelation) {
        let tags = relation.tags
        let element = OSMElementReference(.relation, relation.id)
        let building = self.building(tags, element)
        let areaKind = AreaKind.classify(tags)
        let isPlace = tags["name"] != nil && PlaceCategory.classify(tags) != nil
        let isAddress = tags["addr:housenumber"] != nil
        guard building != nil || areaKind != nil || isPlace || isAddress else { return }

        let polygons = RingAssembler.polygons(of: relation, in: data, diagnostics: &diagnostics)
        if polygons.isEmpty {
            diagnostics.append(MapDataDiagnostic(.emptyMultipolygon, element,
                                                 "no closed outer ring could be built; no feature made"))
        }
        if let (type, isPart) = building, !polygons.isEmpty {
            addBuilding(tags: tags, type: type, isPart: isPart, source: element, footprint: polygons)
        }
        if let areaKind, !polygons.isEmpty {
            areas.append(AreaFeature(source: element, kind: areaKind, name: tags["name"],
                                     names: OSMTagParsing.names(from: tags), polygons: polygons, leafType: LeafType(tags: tags)))
        }
        if isPlace || isAddress {
            var position = polygons.combinedCentroid
            if position == nil {
                let points = relation.members.flatMap { data.way($0.wayID)?.nodeIDs ?? [] }
                    .compactMap { data.coordinates[$0] }
                if !points.isEmpty { position = OSMPolygon.meanPoint(points) }
            }
            if let position {
                if isPlace { addPlace(tags: tags, source: element, position: position) }
                if let address = AddressPoint(tags: tags, source: element, position: position) { addresses.append(address) }
            }
        }
    }

    // MARK: Shared

    mutating func addBuilding(tags: [String: String], type: String, isPart: Bool, source: OSMElementReference,
                              footprint: [OSMPolygon]) {
        if let reason = Self.undergroundReason(tags) {
            diagnostics.append(MapDataDiagnostic(.underground, source, "\(reason): below the ground; not drawn"))
            return
        }
        let heights = BuildingHeightRules.resolve(tags: tags, type: type)
        for entry in heights.unparsable {
            diagnostics.append(MapDataDiagnostic(.unparsableTag, source, "\(entry) is not a length or level count; ignored"))
        }
        for note in heights.notes { diagnostics.append(MapDataDiagnostic(.inconsistentTags, source, note)) }
        buildings.append(Building(
            source: source, isPart: isPart, buildingType: type, footprint: footprint,
            heightMeters: heights.heightMeters, minHeightMeters: heights.minHeightMeters,
            heightSource: heights.source, levels: heights.levels, name: tags["name"],
            names: OSMTagParsing.names(from: tags), address: PostalAddress(tags: tags),
            colour: tags["building:colour"] ?? tags["building:color"], roofColour: tags["roof:colour"] ?? tags["roof:color"],
            roofShape: tags["roof:shape"] ?? tags["building:roof:shape"],
            roofHeightMeters: tags["roof:height"].flatMap(OSMTagParsing.lengthMeters),
            roofAngleDegrees: tags["roof:angle"].flatMap { OSMTagParsing.number($0) }.flatMap { (0..<90).contains($0) ? $0 : nil },
            roofLevels: tags["roof:levels"].flatMap(OSMTagParsing.levels),
            roofDirectionDegrees: tags["roof:direction"].flatMap(OSMTagParsing.compassDegrees),
            roofOrientation: tags["roof:orientation"],
            material: tags["building:material"] ?? tags["building:facade:material"] ?? tags["building:cladding"],
            roofMaterial: tags["roof:material"]))
        if !isPart, let part = tags["building:part"], part != "no" { buildings[buildings.count - 1].isAlsoPart = true }
        if let membership = buildingMembership[source] {
            buildings[buildings.count - 1].buildingRelation = membership.relation
            if membership.role == .outline { buildings[buildings.count - 1].isAlsoPart = false }
        }
    }

    mutating func addPlace(tags: [String: String], source: OSMElementReference, position: OSMCoordinate) {
        guard let name = tags["name"], let category = PlaceCategory.classify(tags) else { return }
        places.append(Place(
            source: source, name: name, names: OSMTagParsing.names(from: tags), category: category,
            address: PostalAddress(tags: tags), phone: tags["phone"] ?? tags["contact:phone"],
            website: tags["website"] ?? tags["contact:website"] ?? tags["url"],
            openingHours: tags["opening_hours"], position: position))
    }

    /// (`building` value, false) for buildings, (`building:part` value, true) for parts; nil for
    /// neither or for `building=no`.
    static func buildingType(_ tags: [String: String]) -> (String, Bool)? {
        if let value = tags["building"], value != "no" { return (value, false) }
        if let value = tags["building:part"], value != "no" { return (value, true) }
        return nil
    }

    /// Why a building or part lies wholly below the ground, or nil: `location=underground` (the wiki's
    /// tag for underground buildings), or, with no `height`, `min_height`, `building:levels` or
    /// `building:min_level` to stand it above the ground, a negative `layer` or `level`s all below 0 (the
    /// halls, corridors and shops of underground stations and malls, mapped as `building:part`s with
    /// indoor tags: drawn with a default height they would stand on the square above them).
    static func undergroundReason(_ tags: [String: String]) -> String? {
        if let location = tags["location"], location.split(separator: ";").first.map({ String($0).trimmingSpaces() }) == "underground" {
            return "location=\(location)"
        }
        guard !["height", "min_height", "building:levels", "building:min_level"].contains(where: { tags[$0] != nil }) else { return nil }
        if let layer = tags["layer"], let value = Int(layer.trimmingSpaces()), value < 0 { return "layer=\(layer) and no height" }
        if let level = tags["level"] {
            let values = level.split(separator: ";").map { Double(String($0).trimmingSpaces()) }
            if !values.isEmpty, values.allSatisfy({ ($0 ?? 0) < 0 }) { return "level=\(level) and no height" }
        }
        return nil
    }

    static func layer(_ tags: [String: String]) -> Int { tags["layer"].flatMap { Int($0.trimmingSpaces()) } ?? 0 }
    static func isBridge(_ tags: [String: String]) -> Bool { tags["bridge"].map { $0 != "no" } ?? false }
    static func isTunnel(_ tags: [String: String]) -> Bool {
        tags["tunnel"].map { $0 != "no" } ?? false || tags["covered"] == "yes"
    }
}
