import Foundation
import Geodesy
import MapData

/// Street furniture from OSM nodes: street lamps, benches, bus and tram stops (with shelters where
/// tagged), traffic signals, bollards, waste baskets, fountains, statues, memorials and artworks.
/// Each stands on its node, facing the nearest street (or its `direction` tag), except where the
/// node sits on a road or track by mapping convention (signals, tram stops); those move to the kerb.
/// Nothing is placed inside a building footprint. Lamps, benches, stops, signals, bollards and waste
/// baskets are copies of a prototype per kind (and height or side), turned to the object's heading
/// and placed on its spot; statues, memorials, artworks and fountains, few and each its own, are
/// triangles of the scene.
extension CityModelBuilder {
    /// A copy of the prototype `key` (built by `build` in the object's own coordinates: x along its
    /// heading, y to its back, up from the ground at its spot) turned by `angle` and placed at `p`.
    /// Posts are copies of their own that are not turned: a six-sided post keeps the orientation it
    /// always had (turned with the lamp's heading its silhouette would be up to 13 % wider or narrower).
    mutating func placeFurniture(_ key: String, at p: Point, angle: Double, _ build: (inout SceneBuilder) -> Void) {
        let prototype = scene.prototype(key, build)
        scene.addInstance(of: prototype, InstanceTransform(angle: angle, translation: (p.x, p.y, 0)))
    }

    mutating func addFurniture(_ items: [StreetFurniture]) {
        let metal = SurfaceRecord(normal: .zero, material: .pole, albedo: ColorPalette.linear(58, 62, 60))
        let bench = SurfaceRecord(normal: .zero, material: .furniture, albedo: ColorPalette.linear(120, 84, 52))
        let benchFrame = SurfaceRecord(normal: .zero, material: .furniture, albedo: ColorPalette.linear(44, 46, 46))
        let basket = SurfaceRecord(normal: .zero, material: .furniture, albedo: ColorPalette.linear(46, 74, 56))
        let bollard = SurfaceRecord(normal: .zero, material: .furniture, albedo: ColorPalette.linear(64, 64, 66))
        let glass = SurfaceRecord(normal: .zero, material: .shelterGlass, albedo: ColorPalette.linear(70, 86, 92))
        let shelterRoof = SurfaceRecord(normal: .zero, material: .furniture, albedo: ColorPalette.linear(90, 92, 94))
        let stopSign = SurfaceRecord(normal: .zero, material: .furniture, albedo: ColorPalette.linear(30, 90, 170))
        let signalHousing = SurfaceRecord(normal: .zero, material: .signal, albedo: ColorPalette.linear(30, 32, 32))
        let stone = SurfaceRecord(normal: .zero, material: .monument, albedo: ColorPalette.linear(150, 146, 138))
        let granite = SurfaceRecord(normal: .zero, material: .monument, albedo: ColorPalette.linear(112, 100, 96))
        let bronze = SurfaceRecord(normal: .zero, material: .monument, albedo: ColorPalette.linear(62, 84, 70))
        let water = SurfaceRecord(normal: Vec3(0, 0, 1), material: .water, albedo: ColorPalette.linear(26, 52, 62))

        for item in items {
            let node = project(item.position)
            guard inside(node) else { continue }
            var p = node
            let seed = Self.seed(item.source)
            // The street it belongs to: its direction sets the object's heading.
            let street = roadSegments.nearest(to: node, radiusMeters: 25)
            var along = 0.0    // heading of the object's long axis, radians from east, counter-clockwise
            if let s = street?.segment { along = atan2(s.b.y - s.a.y, s.b.x - s.a.x) }
            else { along = Double(seed % 360) * .pi / 180 }
            // The side away from the street (a bench's back, a shelter's back wall).
            var away = (x: -sin(along), y: cos(along))
            if let n = street, n.distanceMeters > 0.05 {
                away = ((node.x - n.closest.x) / n.distanceMeters, (node.y - n.closest.y) / n.distanceMeters)
            }
            if let degrees = item.directionDegrees {
                // `direction` is where the object faces: its back is the opposite way.
                let r = degrees * .pi / 180
                away = (-sin(r), -cos(r))
                along = atan2(-away.x, away.y)
            }
            var top = 0.0
            // Which side of the heading the back is on (+1: left): the prototypes' back is at +y or −y.
            var back: Double { cos(along) * away.y - sin(along) * away.x >= 0 ? 1 : -1 }
            switch item.kind {
            case .trafficSignals:
                // Mapped on the road's node: a pole at the kerb of the nearest traffic road.
                if let n = roadSegments.nearest(to: node, radiusMeters: 30, trafficOnly: true) {
                    let s = n.segment
                    let dx = s.b.x - s.a.x, dy = s.b.y - s.a.y, l = (dx * dx + dy * dy).squareRoot()
                    // Right of the direction of travel, half a metre beyond the carriageway.
                    let r = s.halfWidthMeters + 0.5
                    p = (n.closest.x + dy / l * r, n.closest.y - dx / l * r)
                    along = atan2(dy, dx)
                }
                guard !footprints.isInside(p) else { continue }
                placeFurniture("signal post", at: p, angle: 0) { scene in
                    scene.addCappedCylinder(center: (0, 0), radius: 0.06, bottom: 0, top: 3.3, sides: 6, metal)
                }
                placeFurniture("signal head", at: p, angle: along) { scene in
                    // The head faces the oncoming traffic (against the direction of travel).
                    var head = signalHousing
                    head.origin = Vec3(0, 0, 2.3)
                    scene.addOrientedBox(center: (-0.2, 0), angle: .pi / 2, halfLength: 0.15, halfWidth: 0.13, bottom: 2.3, top: 3.15, head)
                }
                top = 3.3
            case .streetLamp:
                guard !footprints.isInside(p) else { continue }
                let height = min(max(item.heightMeters ?? 6.5, 3), 14)
                placeFurniture("lamp post \(height)", at: p, angle: 0) { scene in
                    scene.addCylinder(center: (0, 0), radius: 0.08, bottom: 0, top: Float(height - 0.35), sides: 6, metal)
                }
                placeFurniture("lantern \(height)", at: p, angle: along) { scene in
                    // The lantern: a flat box over the post, 0.6 × 0.3 m.
                    scene.addOrientedBox(center: (0, 0), angle: 0, halfLength: 0.3, halfWidth: 0.15,
                                         bottom: Float(height - 0.35), top: Float(height), metal)
                }
                top = height
            case .bench:
                guard !footprints.isInside(p) else { continue }
                placeFurniture("bench \(back)", at: p, angle: along) { scene in
                    scene.addOrientedBox(center: (0, 0), angle: 0, halfLength: 0.85, halfWidth: 0.22, bottom: 0.42, top: 0.47, bench)
                    scene.addOrientedBox(center: (0, back * 0.24), angle: 0, halfLength: 0.85, halfWidth: 0.03, bottom: 0.55, top: 0.88, bench)
                    for end in [-0.72, 0.72] {
                        scene.addOrientedBox(center: (end, 0), angle: 0, halfLength: 0.03, halfWidth: 0.24, bottom: 0, top: 0.42, benchFrame)
                    }
                }
                top = 0.88
            case .busStop, .tramStop:
                if item.kind == .tramStop, let n = tramSegments.nearest(to: node, radiusMeters: 4) {
                    // Mapped on the track: the sign stands 1.8 m beside it, on the side away from the road.
                    let s = n.segment
                    let dx = s.b.x - s.a.x, dy = s.b.y - s.a.y, l = (dx * dx + dy * dy).squareRoot()
                    p = (n.closest.x + dy / l * 1.8, n.closest.y - dx / l * 1.8)
                    along = atan2(dy, dx)
                    away = (dy / l, -dx / l)
                }
                guard !footprints.isInside(p) else { continue }
                let shelter = item.hasShelter && item.kind == .busStop
                // The sign post at one end of the shelter (or alone).
                let postOffset = shelter ? 2.1 : 0
                let hasPost = !footprints.isInside((p.x + cos(along) * postOffset, p.y + sin(along) * postOffset))
                let post = (p.x + cos(along) * postOffset, p.y + sin(along) * postOffset)
                if hasPost {
                    placeFurniture("stop post", at: post, angle: 0) { scene in
                        scene.addCylinder(center: (0, 0), radius: 0.05, bottom: 0, top: 2.7, sides: 6, metal)
                    }
                }
                placeFurniture("stop \(shelter) \(hasPost) \(back)", at: p, angle: along) { scene in
                    if hasPost {
                        scene.addOrientedBox(center: (postOffset, 0), angle: 0, halfLength: 0.25, halfWidth: 0.03, bottom: 2.2, top: 2.7, stopSign)
                    }
                    if shelter {
                        // A glass back wall and two glass ends under a flat roof, open towards the street.
                        scene.addOrientedBox(center: (0, back * 0.7), angle: 0, halfLength: 1.7, halfWidth: 0.03, bottom: 0.1, top: 2.3, glass)
                        for end in [-1.68, 1.68] {
                            scene.addOrientedBox(center: (end, back * 0.35), angle: 0, halfLength: 0.02, halfWidth: 0.35, bottom: 0.1, top: 2.3, glass)
                        }
                        scene.addOrientedBox(center: (0, back * 0.3), angle: 0, halfLength: 1.8, halfWidth: 0.55, bottom: 2.3, top: 2.42, shelterRoof)
                        scene.addOrientedBox(center: (0, back * 0.45), angle: 0, halfLength: 1.2, halfWidth: 0.18, bottom: 0.43, top: 0.48, bench)
                    }
                }
                top = shelter ? 2.42 : 2.7
            case .bollard:
                guard !footprints.isInside(p) else { continue }
                placeFurniture("bollard", at: p, angle: 0) { scene in
                    scene.addCappedCylinder(center: (0, 0), radius: 0.1, bottom: 0, top: 0.9, sides: 8, bollard)
                }
                top = 0.9
            case .wasteBasket:
                guard !footprints.isInside(p) else { continue }
                placeFurniture("waste basket", at: p, angle: 0) { scene in
                    scene.addCappedCylinder(center: (0, 0), radius: 0.22, bottom: 0, top: 0.95, sides: 10, basket)
                }
                top = 0.95
            case .fountain:
                guard !footprints.isInside(p, clearance: 1) else { continue }
                // A round basin 0.5 m high, water 10 cm below its rim, a column with a bowl in the middle.
                let r = 2.6
                scene.addCylinder(center: p, radius: r, bottom: 0, top: 0.5, sides: 24, stone)
                scene.addRing(center: p, outerRadius: r, innerRadius: r - 0.25, z: 0.5, sides: 24, stone)
                scene.addCylinder(center: p, radius: r - 0.25, bottom: 0.4, top: 0.5, sides: 24, inward: true, stone)
                scene.addDisc(center: p, radius: r - 0.25, z: 0.4, sides: 24, water)
                scene.addCylinder(center: p, radius: 0.25, bottom: 0.4, top: 1.6, sides: 10, stone)
                scene.addCappedCylinder(center: p, radius: 0.8, bottom: 1.6, top: 1.75, sides: 16, stone)
                top = 1.75
            case .statue:
                guard !footprints.isInside(p) else { continue }
                // A plinth and a bronze figure, `height` (or 5 m) to the top.
                let height = min(max(item.heightMeters ?? 5, 1.5), 20)
                let plinth = height * 0.45
                scene.addOrientedBox(center: p, angle: along, halfLength: 0.9, halfWidth: 0.9, bottom: 0, top: Float(plinth), granite)
                let figure = height - plinth
                scene.addCylinder(center: p, radius: 0.28, bottom: Float(plinth), top: Float(plinth + figure * 0.72), sides: 8, bronze)
                scene.addEllipsoid(center: Vec3(Float(p.x), Float(p.y), Float(plinth + figure * 0.86)), radiusX: 0.2, radiusY: 0.2,
                                   radiusZ: Float(figure * 0.14), rings: 4, segments: 8, bronze)
                top = height
            case .memorial:
                guard !footprints.isInside(p) else { continue }
                let height = min(max(item.heightMeters ?? 1.4, 0.5), 10)
                scene.addOrientedBox(center: p, angle: along, halfLength: 0.55, halfWidth: 0.25, bottom: 0, top: Float(height), granite)
                top = height
            case .artwork:
                guard !footprints.isInside(p) else { continue }
                let height = min(max(item.heightMeters ?? 2.6, 0.5), 15)
                scene.addOrientedBox(center: p, angle: along + .pi / 4, halfLength: 0.35, halfWidth: 0.35, bottom: 0, top: 0.4, stone)
                scene.addOrientedBox(center: p, angle: along + Double(seed % 90) * .pi / 180, halfLength: 0.22, halfWidth: 0.12,
                                     bottom: 0.4, top: Float(height), bronze)
                top = height
            }
            let moved = hypot(p.x - node.x, p.y - node.y)
            furniture.append(FurniturePlacement(kind: item.kind, source: item.source,
                                                position: EastNorthUp(east: p.x, north: p.y, up: 0),
                                                offsetMeters: moved, topMeters: top))
        }
    }
}
