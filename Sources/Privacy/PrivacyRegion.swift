import Foundation

/// What a region hides.
public enum PrivacyClass: String, Sendable, Hashable, Codable, CaseIterable {
    /// A human face.
    case face
    /// A vehicle's licence plate.
    case plate
    /// A region a person marked (`lookaround blur --add`).
    case manual

    /// The letter region ids of this class start with (f1, p2, m1).
    var idPrefix: String {
        switch self {
        case .face: "f"
        case .plate: "p"
        case .manual: "m"
        }
    }
}

/// An axis-aligned box in image pixels: `x`, `y` its top-left corner, `width` × `height` its size.
public struct PixelBox: Sendable, Hashable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var area: Double { max(0, width) * max(0, height) }
    public var centerX: Double { x + width / 2 }
    public var centerY: Double { y + height / 2 }

    /// The area shared with `other`.
    public func intersectionArea(_ other: PixelBox) -> Double {
        max(0, min(maxX, other.maxX) - max(x, other.x)) * max(0, min(maxY, other.maxY) - max(y, other.y))
    }

    /// Intersection over union, 0…1.
    public func intersectionOverUnion(_ other: PixelBox) -> Double {
        let shared = intersectionArea(other)
        let union = area + other.area - shared
        return union > 0 ? shared / union : 0
    }

    /// The part of the box inside a `width` × `height` image (a box across a panorama's seam reaches past its edge).
    public func clipped(width: Int, height: Int) -> PixelBox {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(Double(width), maxX), y1 = min(Double(height), maxY)
        return PixelBox(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The box grown about its centre by `factor` in each direction.
    public func scaled(by factor: Double) -> PixelBox {
        PixelBox(x: centerX - width * factor / 2, y: centerY - height * factor / 2, width: width * factor, height: height * factor)
    }

    /// The box moved by (`dx`, `dy`) and scaled by `scale` about the origin.
    func mapped(scale: Double, dx: Double = 0, dy: Double = 0) -> PixelBox {
        PixelBox(x: x * scale + dx, y: y * scale + dy, width: width * scale, height: height * scale)
    }

    enum CodingKeys: String, CodingKey { case x, y, width, height }

    /// Encoded to a tenth of a pixel.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func tenth(_ v: Double) -> Double { (v * 10).rounded() / 10 }
        try container.encode(tenth(x), forKey: .x)
        try container.encode(tenth(y), forKey: .y)
        try container.encode(tenth(width), forKey: .width)
        try container.encode(tenth(height), forKey: .height)
    }

    /// "X,Y,W,H" in whole pixels.
    public var description: String { "\(Int(x.rounded())),\(Int(y.rounded())),\(Int(width.rounded())),\(Int(height.rounded()))" }
}

/// A detector's find: what, where, how sure.
public struct Detection: Sendable, Hashable {
    public var kind: PrivacyClass
    /// The detector's confidence, 0…1 (1 for a person's mark).
    public var score: Double
    /// Where, in the image's pixels (across a 360° panorama's seam, past its left or right edge: see
    /// `DetectionView.photoBoxes`).
    public var box: PixelBox

    public init(kind: PrivacyClass, score: Double, box: PixelBox) {
        (self.kind, self.score, self.box) = (kind, score, box)
    }

    /// Greedy non-maximum suppression: the highest score first; a box overlapping a kept one of the same
    /// class by more than `threshold` intersection over union, or lying mostly (70 %) inside it, is dropped.
    static func suppressed(_ detections: [Detection], threshold: Double) -> [Detection] {
        var kept: [Detection] = []
        for candidate in detections.sorted(by: { $0.score > $1.score }) {
            let overlaps = kept.contains { other in
                other.kind == candidate.kind
                    && (other.box.intersectionOverUnion(candidate.box) > threshold
                        || other.box.intersectionArea(candidate.box) > 0.7 * min(other.box.area, candidate.box.area))
            }
            if !overlaps { kept.append(candidate) }
        }
        return kept
    }
}

/// A region recorded in a blurred photo's metadata: what was found, which JPEG blocks were replaced
/// (``blocks``, on the iMCU grid), and whether it is still blurred or was restored by a person.
public struct PrivacyRegion: Sendable, Hashable, Codable {
    /// Whether the region's blocks hold the blur or the original again.
    public enum State: String, Sendable, Hashable, Codable {
        /// The blocks are blurred.
        case blurred
        /// A person removed the blur (`--remove`): the original blocks are back, and later runs do not
        /// blur what the detector finds there again.
        case removed
    }

    /// Stable within the photo: the class's letter and a number (`f1`, `p2`, `m1`).
    public var id: String
    public var kind: PrivacyClass
    public var score: Double
    /// The detection's box, in image pixels; a face or plate across a 360° panorama's ±180° seam is two
    /// regions, one on each side, each with the whole box (reaching past the photo's edge) and its own blocks.
    public var box: PixelBox
    /// The pixels whose blocks were replaced: the box, enlarged to cover the whole face or plate, out to
    /// the JPEG's iMCU grid (16 × 16 pixels for 4:2:0), clipped to the image.
    public var blocks: PixelBox
    public var state: State

    public init(id: String, kind: PrivacyClass, score: Double, box: PixelBox, blocks: PixelBox, state: State) {
        (self.id, self.kind, self.score, self.box, self.blocks, self.state) = (id, kind, score, box, blocks, state)
    }

    /// JSON: `class` for the kind (as `--json` documents it), the score to three decimals.
    enum CodingKeys: String, CodingKey { case id, kind = "class", score, box, blocks, state }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode((score * 1000).rounded() / 1000, forKey: .score)
        try container.encode(box, forKey: .box)
        try container.encode(blocks, forKey: .blocks)
        try container.encode(state, forKey: .state)
    }
}
