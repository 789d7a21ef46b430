import Geodesy

/// Why a camera position is a poor place to look from: what a view from it would show instead of a street.
public enum ViewpointProblem: Sendable, Hashable, CustomStringConvertible {
    /// Over water (the sea, a harbour basin, a lake): the camera floats.
    case onWater
    /// Inside a building's footprint: the view is of its walls from inside.
    case insideBuilding
    /// Outside where the data is complete (the extract's bounds), by this many metres: little or
    /// nothing around it is mapped.
    case outsideData(distanceMeters: Double)

    /// In words, for warnings ("is on water").
    public var description: String {
        switch self {
        case .onWater: "is on water"
        case .insideBuilding: "is inside a building"
        case .outsideData(let meters): "lies \(Int(meters.rounded())) m outside the extract's bounds"
        }
    }
}

extension CityModel {
    /// Whether the scene point (east, north) is on a water surface of the model (sea or inland water,
    /// holes such as islands excluded).
    public func isWater(east: Double, north: Double) -> Bool {
        for (outer, holes, b) in waterRings where east >= b.0 && east <= b.2 && north >= b.1 && north <= b.3 {
            if FootprintIndex.ringContains(outer, (east, north)) && !holes.contains(where: { FootprintIndex.ringContains($0, (east, north)) }) {
                return true
            }
        }
        return false
    }

    /// What is wrong with standing at the scene point (east, north): on water, inside a building,
    /// outside the data; empty for a usable point.
    public func viewpointProblems(east: Double, north: Double) -> [ViewpointProblem] {
        var problems: [ViewpointProblem] = []
        if let data = dataExtent {
            let dx = max(data.minEast - east, 0, east - data.maxEast), dy = max(data.minNorth - north, 0, north - data.maxNorth)
            if dx > 0 || dy > 0 { problems.append(.outsideData(distanceMeters: (dx * dx + dy * dy).squareRoot())) }
        }
        if isInsideBuilding(east: east, north: north) { problems.append(.insideBuilding) }
        if isWater(east: east, north: north) { problems.append(.onWater) }
        return problems
    }
}
