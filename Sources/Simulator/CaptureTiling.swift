import Foundation
import Geodesy

/// A rectangle of the scene: west, south, east and north edges in metres of a model's frame.
public struct SceneRect: Sendable, Hashable, Codable {
    /// West, south, east and north edges, metres.
    public var minEast: Double, minNorth: Double, maxEast: Double, maxNorth: Double

    /// A rectangle from its edges.
    public init(minEast: Double, minNorth: Double, maxEast: Double, maxNorth: Double) {
        self.minEast = minEast; self.minNorth = minNorth; self.maxEast = maxEast; self.maxNorth = maxNorth
    }

    /// This rectangle grown by `meters` on every side.
    public func expanded(by meters: Double) -> SceneRect {
        SceneRect(minEast: minEast - meters, minNorth: minNorth - meters, maxEast: maxEast + meters, maxNorth: maxNorth + meters)
    }

    /// The part of this rectangle inside `other` (empty rectangles keep min > max).
    public func clamped(to other: SceneRect) -> SceneRect {
        SceneRect(minEast: max(minEast, other.minEast), minNorth: max(minNorth, other.minNorth),
                  maxEast: min(maxEast, other.maxEast), maxNorth: min(maxNorth, other.maxNorth))
    }
}

/// How `lookaround simulate` keeps its cost to what the cameras can see: the planned captures are
/// grouped into square tiles of the scene, and each tile's captures are rendered from a city model of
/// that tile plus a horizon around it, built when the tile comes up and released after it. Peak memory
/// is then one tile model's, whatever the size of the extract.
///
/// A capture sees what its tile model holds: everything within ``horizonMeters`` of the tile (at least
/// that far from the camera), clipped to the region the whole build would have covered. Farther
/// geometry is sky in the picture (and in the depth map); with the default horizon a capture in a
/// town sees its streets' buildings to the end, and on open ground the farthest houses are a pixel or
/// two tall at 2048 pixels across.
public struct CaptureTiling: Sendable, Hashable {
    /// Default tile side, metres.
    public static let defaultTileMeters = 500.0
    /// Default horizon, metres.
    public static let defaultHorizonMeters = 600.0

    /// Tile side, metres (10…100,000).
    public var tileMeters: Double
    /// Geometry kept around each tile, metres (0…5,000).
    public var horizonMeters: Double

    /// One tile: the extent its model covers and its captures, in plan order.
    public struct Tile: Sendable {
        /// The model's extent: the tile plus the horizon, inside the whole build's extent.
        public var extent: SceneRect
        /// The captures inside the tile.
        public var captures: [CaptureMetadata]

        /// A tile from its parts.
        public init(extent: SceneRect, captures: [CaptureMetadata]) {
            self.extent = extent
            self.captures = captures
        }
    }

    /// A tiling; values out of range throw `SimulatorError.invalidParameter`.
    public init(tileMeters: Double = defaultTileMeters, horizonMeters: Double = defaultHorizonMeters) throws(SimulatorError) {
        try SimulatorError.check(tileMeters, in: 10...100_000, name: "tile size", unit: "m")
        try SimulatorError.check(horizonMeters, in: 0...5_000, name: "horizon", unit: "m")
        self.tileMeters = tileMeters
        self.horizonMeters = horizonMeters
    }

    /// The tiles of `captures` (by their scene positions), in the order their first capture is planned,
    /// each model extent clipped to `whole` (the extent one build of everything would cover).
    public func tiles(for captures: [CaptureMetadata], within whole: SceneRect) -> [Tile] {
        Self.squares(of: captures.map(\.scenePosition), side: tileMeters).map { square in
            Tile(extent: square.rect.expanded(by: horizonMeters).clamped(to: whole), captures: square.members.map { captures[$0] })
        }
    }

    /// `positions` grouped by the `side`-metre squares of their plane (east, north), in the order each
    /// square first appears: each square's rectangle and the indices of its positions, in order.
    public static func squares(of positions: [EastNorthUp], side: Double) -> [(rect: SceneRect, members: [Int])] {
        var order: [SIMD2<Int>] = [], members: [SIMD2<Int>: [Int]] = [:]
        for (k, p) in positions.enumerated() {
            let key = SIMD2(Int((p.east / side).rounded(.down)), Int((p.north / side).rounded(.down)))
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(k)
        }
        return order.map { key in
            (SceneRect(minEast: Double(key.x) * side, minNorth: Double(key.y) * side,
                       maxEast: Double(key.x + 1) * side, maxNorth: Double(key.y + 1) * side), members[key] ?? [])
        }
    }

    /// Shard `index` of `count` of `captures`: a contiguous run of the plan, the k-th of `count` nearly
    /// equal parts (captures are evenly spaced along the streets, so equal counts are equal street
    /// lengths; contiguous, so a shard's captures share tiles). The shards together are the plan, each
    /// capture in exactly one.
    public static func shard(_ captures: [CaptureMetadata], index: Int, count: Int) -> [CaptureMetadata] {
        precondition(count >= 1 && (0..<count).contains(index))
        let start = captures.count * index / count, end = captures.count * (index + 1) / count
        return Array(captures[start..<end])
    }
}
