import Foundation
import Geodesy
import Imaging
import MapData

extension CityModelBuilder {
    /// Places that get a shop sign: shops, food and drink, lodging, health and services.
    static func wantsSign(_ place: Place) -> Bool {
        switch place.category.group {
        case .shop, .food, .lodging, .health, .service: return true
        case .culture: return ["museum", "gallery", "theatre", "cinema", "library", "arts_centre"].contains(place.category.value)
        default: return false
        }
    }

    /// Shop signs: each POI's name on the facade nearest it (within 30 m), 3.1–3.8 m above the ground,
    /// 6 cm proud of the wall, facing out. Signs that would overlap move along the wall or up a row.
    mutating func addSigns(_ places: [Place], renderer: TextRenderer) throws {
        var occupied: [Int: [(t0: Double, t1: Double, row: Int)]] = [:]
        let candidates = places.filter { Self.wantsSign($0) && !$0.name.isEmpty }
            .sorted { ($0.source.id, $0.name) < ($1.source.id, $1.name) }
        for place in candidates {
            let p = project(place.position)
            guard inside(p), let (wallIndex, _, t) = footprints.nearestWall(to: p, within: 30) else { continue }
            let wall = footprints.walls[wallIndex]
            let dx = wall.b.x - wall.a.x, dy = wall.b.y - wall.a.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length >= 2.5, footprints.footprints[wall.footprint].heightMeters >= 4.5 else { continue }
            let text = place.name.count > 40 ? String(place.name.prefix(38)) + "…" : place.name
            let (entry, aspect) = try atlas.add(lines: [text], renderer: renderer)
            var height = 0.7
            var width = aspect * height
            if width > min(length - 0.4, 9) {
                width = min(length - 0.4, 9); height = width / aspect
            }
            guard height >= 0.3 else { continue }
            // Try centred on the POI, then shifted along the wall, then one row higher.
            var placed: (Double, Int)?
            let centre = t * length
            search: for row in 0..<2 {
                for shift in [0.0, 1, -1, 2, -2, 3, -3, 4, -4, 6, -6] {
                    let s0 = max(0.2, min(length - 0.2 - width, centre - width / 2 + shift * (width / 2 + 0.2)))
                    let s1 = s0 + width
                    if (occupied[wallIndex] ?? []).contains(where: { $0.row == row && $0.t0 < s1 + 0.15 && s0 < $0.t1 + 0.15 }) { continue }
                    placed = (s0, row); break search
                }
            }
            guard let (s0, row) = placed else { continue }
            occupied[wallIndex, default: []].append((s0, s0 + width, row))
            let bottom = 3.1 + Double(row) * 0.9 + (0.7 - height) / 2
            let seed = Self.seed(place.source)
            let (background, textColour) = Self.signColours(place: place, seed: seed)
            addSignQuad(wall: wall, from: s0, width: width, bottom: bottom, height: height, entry: entry,
                        material: .sign, background: background, textColour: textColour)
            let ux = dx / length, uy = dy / length
            let c = (wall.a.x + ux * (s0 + width / 2) + uy * 0.06, wall.a.y + uy * (s0 + width / 2) - ux * 0.06)
            signs.append(SignPlacement(kind: .shopSign, text: place.name, center: EastNorthUp(east: c.0, north: c.1, up: bottom + height / 2),
                                       facingDegrees: Angle.normalizedHeadingDegrees(atan2(uy, -ux) * 180 / .pi),
                                       widthMeters: width, heightMeters: height, source: place.source.description))
        }
    }

    static func signColours(place: Place, seed: UInt32) -> (Vec3, Vec3) {
        let dark: [Vec3] = [ColorPalette.linear(30, 34, 40), ColorPalette.linear(120, 24, 28), ColorPalette.linear(20, 60, 44),
                            ColorPalette.linear(22, 44, 96), ColorPalette.linear(70, 40, 24)]
        let light: [Vec3] = [ColorPalette.linear(240, 236, 226), ColorPalette.linear(245, 210, 80)]
        if seed % 4 == 3 { return (light[Int(seed >> 4) % light.count], ColorPalette.linear(24, 24, 28)) }
        return (dark[Int(seed >> 4) % dark.count], ColorPalette.linear(250, 248, 240))
    }

    /// A textured quad 6 cm in front of a wall, from `s0` to `s0 + width` along it.
    mutating func addSignQuad(wall: FootprintIndex.Wall, from s0: Double, width: Double, bottom: Double, height: Double,
                              entry: Int, material: MaterialKind, background: Vec3, textColour: Vec3) {
        let dx = wall.b.x - wall.a.x, dy = wall.b.y - wall.a.y, length = (dx * dx + dy * dy).squareRoot()
        let ux = dx / length, uy = dy / length, nx = uy * 0.06, ny = -ux * 0.06   // outward = right of a → b
        let a = (wall.a.x + ux * s0 + nx, wall.a.y + uy * s0 + ny)
        let b = (wall.a.x + ux * (s0 + width) + nx, wall.a.y + uy * (s0 + width) + ny)
        let record = SurfaceRecord(normal: .zero, material: material, albedo: background, accent: textColour,
                                   extentV: Float(height), style: UInt32(entry))
        scene.addWall(from: a, to: b, bottom: Float(bottom), top: Float(bottom + height), mappingBase: Float(bottom), record)
        // A thin frame behind the face so the sign has some depth and casts a shadow.
        let frame = SurfaceRecord(normal: .zero, material: .facade, albedo: background * 0.5, accent: background * 0.5,
                                  extentV: 0, style: 1 << 30)
        let a0 = (a.0 - nx, a.1 - ny), b0 = (b.0 - nx, b.1 - ny)
        scene.addQuad(Vec3(Float(a0.0), Float(a0.1), Float(bottom + height)), Vec3(Float(b0.0), Float(b0.1), Float(bottom + height)),
                      Vec3(Float(b.0), Float(b.1), Float(bottom + height)), Vec3(Float(a.0), Float(a.1), Float(bottom + height)), frame)
        scene.addQuad(Vec3(Float(a0.0), Float(a0.1), Float(bottom)), Vec3(Float(a.0), Float(a.1), Float(bottom)),
                      Vec3(Float(b.0), Float(b.1), Float(bottom)), Vec3(Float(b0.0), Float(b0.1), Float(bottom)), frame)
    }

    /// Street-name plates (Finnish name, Swedish below when tagged) on the building corner nearest
    /// each end of every named street, 2.6 m up, on the wall running along the street.
    mutating func addStreetPlates(_ all: [Street], renderer: TextRenderer) throws {
        var placed: [(name: String, x: Double, y: Double)] = []
        for street in all where street.highwayClass.isRoad || street.highwayClass == .pedestrian {
            guard let name = street.name, !street.isTunnel else { continue }
            let line = street.points.map(project)
            guard line.count >= 2 else { continue }
            for end in [0, line.count - 1] {
                let p = line[end], q = line[end == 0 ? 1 : end - 1]
                guard inside(p), !placed.contains(where: { $0.name == name && hypot($0.x - p.x, $0.y - p.y) < 40 }) else { continue }
                // The corner: nearest wall end within 20 m whose wall runs along the street.
                let sx = q.x - p.x, sy = q.y - p.y, sl = max(1e-6, hypot(sx, sy))
                var best: (wall: Int, startAtA: Bool, d: Double)?
                guard footprints.nearestWall(to: p, within: 20) != nil else { continue }
                for (w, wall) in footprints.walls.enumerated() {
                    let da = hypot(wall.a.x - p.x, wall.a.y - p.y), db = hypot(wall.b.x - p.x, wall.b.y - p.y)
                    let d = min(da, db)
                    if d > 20 { continue }
                    let wx = wall.b.x - wall.a.x, wy = wall.b.y - wall.a.y, wl = hypot(wx, wy)
                    if wl < 2.4 || footprints.footprints[wall.footprint].heightMeters < 4.5 { continue }
                    let alignment = abs((wx * sx + wy * sy) / (wl * sl))
                    if alignment < 0.8 { continue }
                    if best == nil || d < best!.d { best = (w, da <= db, d) }
                }
                guard let choice = best else { continue }
                var lines = [name]
                if let swedish = street.swedishName, swedish != name { lines.append(swedish) }
                let (entry, aspect) = try atlas.add(lines: lines, renderer: renderer)
                let height = lines.count == 1 ? 0.5 : 0.8
                let width = min(aspect * height, 3.2)
                let wall = footprints.walls[choice.wall]
                let wl = hypot(wall.b.x - wall.a.x, wall.b.y - wall.a.y)
                let s0 = choice.startAtA ? 0.3 : max(0, wl - 0.3 - width)
                if width > wl - 0.3 { continue }
                addSignQuad(wall: wall, from: s0, width: width, bottom: 2.6, height: width / aspect, entry: entry,
                            material: .plate, background: ColorPalette.linear(16, 56, 140), textColour: ColorPalette.linear(250, 250, 250))
                let ux = (wall.b.x - wall.a.x) / wl, uy = (wall.b.y - wall.a.y) / wl
                let c = (wall.a.x + ux * (s0 + width / 2) + uy * 0.06, wall.a.y + uy * (s0 + width / 2) - ux * 0.06)
                signs.append(SignPlacement(kind: .streetPlate, text: name,
                                           center: EastNorthUp(east: c.0, north: c.1, up: 2.6 + width / aspect / 2),
                                           facingDegrees: Angle.normalizedHeadingDegrees(atan2(uy, -ux) * 180 / .pi),
                                           widthMeters: width, heightMeters: width / aspect, source: street.source.description))
                placed.append((name, p.x, p.y))
            }
        }
    }
}
