import Foundation
import Imaging

/// Colours of the city: OSM colour tags parsed, and deterministic palettes per building.
enum ColorPalette {
    /// sRGB 0…255 → linear 0…1.
    static func linear(_ r: Int, _ g: Int, _ b: Int) -> Vec3 {
        func f(_ c: Int) -> Float {
            let s = Float(c) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return Vec3(f(r), f(g), f(b))
    }

    /// Facade colours typical of central Helsinki (plaster in ochre, cream, pale yellow, salmon, grey,
    /// brick, white, sand, pale green, grey-blue).
    static let facades: [Vec3] = [
        linear(226, 212, 178), linear(212, 168, 92), linear(232, 210, 148), linear(212, 152, 122),
        linear(188, 186, 180), linear(158, 84, 62), linear(232, 230, 222), linear(200, 178, 146),
        linear(172, 190, 160), linear(152, 166, 182), linear(226, 192, 150), linear(170, 160, 150),
    ]

    /// Roof colours: dark sheet metal, black, copper green, red tile.
    static let roofs: [Vec3] = [linear(72, 74, 78), linear(52, 54, 58), linear(96, 140, 120), linear(136, 70, 52),
                                linear(90, 88, 86)]

    /// The colour for an OSM `building:colour` / `roof:colour` value (`#rgb`, `#rrggbb` or a CSS
    /// colour name), or nil when it cannot be read.
    static func parse(_ text: String?) -> Vec3? {
        guard let t = text?.trimmingCharacters(in: .whitespaces).lowercased(), !t.isEmpty else { return nil }
        if t.hasPrefix("#") {
            // #rgb or #rrggbb: a building has no alpha.
            guard t.count == 4 || t.count == 7, let c = RGBAColor(hex: t) else { return nil }
            return linear(Int(c.red), Int(c.green), Int(c.blue))
        }
        let named: [String: (Int, Int, Int)] = [
            "white": (235, 235, 230), "black": (40, 40, 40), "grey": (150, 150, 150), "gray": (150, 150, 150),
            "lightgrey": (200, 200, 200), "lightgray": (200, 200, 200), "darkgrey": (90, 90, 90), "darkgray": (90, 90, 90),
            "silver": (190, 190, 190), "red": (170, 60, 50), "darkred": (120, 40, 35), "maroon": (110, 40, 35),
            "brown": (130, 85, 55), "orange": (215, 140, 70), "yellow": (232, 205, 110), "lightyellow": (240, 225, 170),
            "beige": (225, 210, 175), "tan": (205, 175, 135), "cream": (235, 225, 195), "ivory": (240, 235, 215),
            "pink": (225, 170, 160), "salmon": (220, 150, 125), "green": (110, 140, 100), "lightgreen": (170, 200, 160),
            "darkgreen": (60, 90, 60), "blue": (90, 120, 170), "lightblue": (170, 195, 220), "navy": (40, 50, 90),
            "sand": (210, 190, 150), "ochre": (204, 150, 70), "terracotta": (190, 100, 70), "copper": (110, 150, 130),
        ]
        guard let c = named[t.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "_", with: "")] else { return nil }
        return linear(c.0, c.1, c.2)
    }

    /// The wall colour of a `building:material` value (used when `building:colour` is not tagged), or nil.
    ///
    /// | material | colour (sRGB) |
    /// |---|---|
    /// | brick | 160, 82, 60 |
    /// | concrete, cement_block | 168, 166, 160 |
    /// | stone, granite, sandstone, limestone | 176, 168, 152 |
    /// | glass | 70, 96, 112 |
    /// | metal, steel, aluminium | 150, 154, 158 |
    /// | wood, timber_framing | 150, 112, 76 |
    /// | plaster, stucco | 226, 214, 188 |
    static func wallMaterial(_ text: String?) -> Vec3? {
        switch text?.lowercased() {
        case "brick", "bricks": linear(160, 82, 60)
        case "concrete", "cement_block", "reinforced_concrete": linear(168, 166, 160)
        case "stone", "granite", "sandstone", "limestone", "marble": linear(176, 168, 152)
        case "glass", "mirror": linear(70, 96, 112)
        case "metal", "steel", "aluminium", "metal_plates": linear(150, 154, 158)
        case "wood", "timber_framing", "timber": linear(150, 112, 76)
        case "plaster", "stucco": linear(226, 214, 188)
        default: nil
        }
    }

    /// The roof colour of a `roof:material` value (used when `roof:colour` is not tagged), or nil.
    ///
    /// | material | colour (sRGB) |
    /// |---|---|
    /// | copper | 96, 150, 124 (green patina) |
    /// | metal, tin, zinc, steel | 84, 88, 94 |
    /// | roof_tiles, tile, clay | 150, 72, 52 |
    /// | slate | 62, 64, 70 |
    /// | concrete | 150, 148, 144 |
    /// | tar_paper, asphalt_shingle, bitumen | 52, 52, 54 |
    /// | glass | 60, 84, 100 |
    /// | grass, plants | 88, 120, 60 |
    /// | gold | 200, 160, 70 |
    static func roofMaterial(_ text: String?) -> Vec3? {
        switch text?.lowercased() {
        case "copper": linear(96, 150, 124)
        case "metal", "tin", "zinc", "steel", "metal_sheet": linear(84, 88, 94)
        case "roof_tiles", "tile", "tiles", "clay": linear(150, 72, 52)
        case "slate": linear(62, 64, 70)
        case "concrete": linear(150, 148, 144)
        case "tar_paper", "asphalt_shingle", "bitumen", "asphalt": linear(52, 52, 54)
        case "glass": linear(60, 84, 100)
        case "grass", "plants": linear(88, 120, 60)
        case "gold": linear(200, 160, 70)
        default: nil
        }
    }
}
