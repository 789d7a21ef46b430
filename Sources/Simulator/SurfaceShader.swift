import Foundation

/// The procedural patterns: what colour a surface has at a point (before lighting), and how glassy it is.
// @unchecked Sendable: reads only, through pointers into the model's immutable storage.
struct SurfaceShader: @unchecked Sendable {
    /// Sign atlas coverage and its row length; rectangles as x, y, w, h per entry.
    let atlasPixels: UnsafePointer<UInt8>
    let atlasWidth: Int
    let atlasEntries: UnsafePointer<Int32>

    /// Albedo (linear RGB) and reflectivity (0 = matte, up to 1 = mirror-like glass or water).
    @inline(__always)
    func pattern(_ r: SurfaceRecord, at p: Vec3) -> (albedo: Vec3, gloss: Float) {
        switch r.material {
        case .facade: return facade(r, p)
        case .roof:
            let n = PatternNoise.cell(p.x, p.y, size: 0.9, seed: r.style)
            return (r.albedo * (0.88 + 0.24 * n), 0)
        case .asphalt:
            let n = PatternNoise.cell(p.x, p.y, size: 0.15, seed: 11) * 0.6 + PatternNoise.cell(p.x, p.y, size: 2.3, seed: 12) * 0.4
            return (r.albedo * (0.88 + 0.24 * n), 0)
        case .marking:
            return (r.albedo * (0.9 + 0.1 * PatternNoise.cell(p.x, p.y, size: 0.2, seed: 13)), 0)
        case .sidewalk:
            return (tiles(r.albedo, p, size: 0.6, joint: 0.03, seed: 14, variation: 0.07), 0)
        case .curb:
            return (r.albedo * (0.9 + 0.2 * PatternNoise.cell(p.x + p.y, p.z, size: 0.8, seed: 15)), 0)
        case .paving:
            return (tiles(r.albedo, p, size: 0.22, joint: 0.025, seed: 16, variation: 0.3), 0)
        case .grass:
            let n = PatternNoise.cell(p.x, p.y, size: 0.3, seed: 17) * 0.5 + PatternNoise.cell(p.x, p.y, size: 3, seed: 18) * 0.5
            return (r.albedo * (0.7 + 0.6 * n), 0)
        case .field:
            let angle = Float(r.style % 180) * .pi / 180
            let across = (p.x * cos(angle) + p.y * sin(angle)) / 0.8
            let row = abs(across - across.rounded(.down) - 0.5) * 2
            return (r.albedo * (0.68 + 0.34 * row + 0.16 * PatternNoise.cell(p.x, p.y, size: 2.5, seed: 22)), 0)
        case .sand:
            return (r.albedo * (0.9 + 0.18 * PatternNoise.cell(p.x, p.y, size: 0.4, seed: 23)), 0)
        case .water:
            return (r.albedo, 0.35)
        case .bark:
            return (r.albedo * (0.8 + 0.3 * PatternNoise.cell(p.z, p.x + p.y, size: 0.25, seed: 19)), 0)
        case .foliage, .shrub:
            let n = PatternNoise.unit(Int32((p.x * 2.5).rounded(.down)), Int32((p.y * 2.5).rounded(.down)) &+ Int32((p.z * 2.5).rounded(.down)) &* 7919, r.style)
            return (r.albedo * (0.55 + 0.9 * n), 0)
        case .sign, .plate:
            let u = (p.x - r.origin.x) * r.axisX + (p.y - r.origin.y) * r.axisY
            let v = p.z - r.origin.z
            let s = u / max(r.extent, 1e-3), t = 1 - v / max(r.extentV, 1e-3)
            let coverage = SignAtlas.sample(Int(r.style), s: s, t: t, pointer: atlasPixels, width: atlasWidth, entries: atlasEntries)
            return (r.albedo * (1 - coverage) + r.accent * coverage, 0.05)
        case .ground:
            return (r.albedo * (0.93 + 0.14 * PatternNoise.cell(p.x, p.y, size: 1.7, seed: 20)), 0)
        case .pole, .furniture:
            return (r.albedo * (0.9 + 0.15 * PatternNoise.cell(p.z, p.x + p.y, size: 0.3, seed: 21)), 0.04)
        case .signal:
            // Three lamps (red, amber, green from the top) on the housing's faces, 0.25 m apart.
            let v = p.z - r.origin.z
            let slot = (v / 0.28).rounded(.down)
            let inSlot = v - slot * 0.28
            if slot >= 0 && slot < 3 && inSlot > 0.05 && inSlot < 0.23 {
                let lamp: Vec3 = slot == 2 ? Vec3(0.9, 0.08, 0.05) : slot == 1 ? Vec3(0.35, 0.22, 0.02) : Vec3(0.05, 0.25, 0.1)
                return (lamp, 0.3)
            }
            return (r.albedo, 0.05)
        case .shelterGlass:
            return (r.albedo, 0.5)
        case .monument:
            return (r.albedo * (0.85 + 0.25 * PatternNoise.cell(p.z, p.x + p.y, size: 0.12, seed: 22)), 0.05)
        case .rail:
            return (r.albedo, 0.25)
        }
    }

    /// A wooden door leaf at (`u`, `v`) on its wall.
    @inline(__always)
    static func doorLeaf(_ u: Float, _ v: Float) -> (albedo: Vec3, gloss: Float) {
        (Vec3(0.09, 0.055, 0.035) * (0.9 + 0.2 * PatternNoise.cell(u, v, size: 0.1, seed: 5)), 0.05)
    }

    @inline(__always)
    func tiles(_ base: Vec3, _ p: Vec3, size: Float, joint: Float, seed: UInt32, variation: Float) -> Vec3 {
        let fx = p.x / size, fy = p.y / size
        let ix = fx.rounded(.down), iy = fy.rounded(.down)
        if fx - ix < joint / size || fy - iy < joint / size { return base * 0.55 }
        return base * (1 - variation / 2 + variation * PatternNoise.unit(Int32(clamping: Int(ix)), Int32(clamping: Int(iy)), seed))
    }

    /// Facades: a plinth and a ground floor of shop windows and doors (where the building has shops),
    /// or windows down to the ground and entrance doors (where it has none, style bit 31); upper
    /// floors with a window grid centred on each wall segment, and a cornice band under the roof.
    @inline(__always)
    func facade(_ r: SurfaceRecord, _ p: Vec3) -> (albedo: Vec3, gloss: Float) {
        let u = (p.x - r.origin.x) * r.axisX + (p.y - r.origin.y) * r.axisY
        let v = p.z - r.origin.z
        let length = r.extent, top = r.extentV
        let style = r.style
        let plasterNoise = 0.96 + 0.05 * PatternNoise.cell(u, v, size: 0.7, seed: style & 0xFFFF)
        let wall = r.albedo * plasterNoise
        if style & (1 << 30) != 0 || top < 3 { return (wall, 0) }        // sign frames, low sheds: plain
        let glass = Vec3(0.035, 0.045, 0.055)
        let frameColour = r.accent
        let plain = style & (1 << 31) != 0
        let groundFloor: Float = plain ? 0 : 4.2
        if !plain && v < 0.45 { return (r.albedo * 0.62, 0) }                 // plinth
        if top > 6 && v > top - 0.55 { return (r.albedo * 0.78, 0) }          // cornice
        if top > 6 && v > top - 0.75 && v <= top - 0.55 { return (frameColour, 0) }
        if length < 1.6 { return (wall, 0) }
        if v < groundFloor {
            // Shop fronts: bays of about 3.6 m.
            let bays = max(1, Int(length / 3.6))
            let bayWidth = length / Float(bays)
            let bay = min(bays - 1, max(0, Int(u / bayWidth)))
            let local = u - Float(bay) * bayWidth
            let isDoor = PatternNoise.unit(Int32(bay), Int32(truncatingIfNeeded: style >> 3), 77) < 0.3
            if isDoor {
                let half: Float = 0.65
                let mid = bayWidth / 2
                if abs(local - mid) < half && v < 2.5 {
                    if abs(local - mid) > half - 0.08 || v > 2.42 { return (frameColour * 0.5, 0) }
                    return Self.doorLeaf(u, v)
                }
                if abs(local - mid) < half + 0.15 && v < 3.4 && v > 2.6 { return (glass, 0.6) }   // transom
                return (wall, 0)
            }
            if local > 0.35 && local < bayWidth - 0.35 && v > 0.55 && v < 3.35 {
                if local < 0.43 || local > bayWidth - 0.43 || v < 0.63 || v > 3.27 { return (frameColour * 0.6, 0) }
                return (glass, 0.6)
            }
            return (wall, 0)
        }
        // Upper floors.
        let floorHeight: Float = 3.2 + Float(style % 3) * 0.2
        let h = v - groundFloor
        let floorIndex = (h / floorHeight).rounded(.down)
        let f = h - floorIndex * floorHeight
        let floorTop = groundFloor + (floorIndex + 1) * floorHeight
        if floorTop > top - 0.5 && !plain { return (wall, 0) }                 // no partial floor under the roof
        let spacing: Float = 2.3 + Float((style >> 2) % 4) * 0.25
        let columns = Int(length / spacing)
        if columns < 1 { return (wall, 0) }
        let margin = (length - Float(columns) * spacing) / 2
        let cu = u - margin
        if cu < 0 || cu >= Float(columns) * spacing { return (wall, 0) }
        let column = (cu / spacing).rounded(.down)
        let local = cu - column * spacing - spacing / 2
        // Without shop fronts, a wall standing on the ground has entrances where ground-floor windows
        // would be: in the middle column and every 6th one from it (about every 15 m).
        if plain && floorIndex == 0 && r.origin.z < 0.5 && columns >= 2 && (Int(column) - columns / 2) % 6 == 0 {
            guard abs(local) < 0.62 && f < 2.35 else { return (wall, 0) }
            if abs(local) > 0.54 || f > 2.27 { return (frameColour * 0.5, 0) }
            return Self.doorLeaf(u, v)
        }
        let windowHalf: Float = 0.55 + Float((style >> 5) % 3) * 0.08
        let sill: Float = 0.9, windowHeight: Float = 1.6 + Float((style >> 7) % 2) * 0.2
        if abs(local) < windowHalf + 0.09 && f > sill - 0.09 && f < sill + windowHeight + 0.09 {
            if abs(local) > windowHalf || f < sill || f > sill + windowHeight || abs(local) < 0.03 { return (frameColour, 0) }
            let lit = PatternNoise.unit(Int32(column), Int32(floorIndex), style)
            return (glass * (0.8 + 0.6 * lit), 0.55)
        }
        if abs(local) < windowHalf + 0.2 && f > sill - 0.25 && f < sill - 0.09 { return (r.albedo * 0.8, 0) }   // sill
        return (wall, 0)
    }
}
