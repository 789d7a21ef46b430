import Foundation
import Imaging
import Parallelism
import Reprojection

/// The picture of a GoPro MAX `.360` file: two video streams of equal size (4096×1344 at 5.6K, 2272×736 in
/// 3K mode), which stacked make the 3×2 equi-angular cubemap (``Reprojection/EquiAngularCubemap``) once
/// their side faces lose their overlap bands:
///
/// ```
///   stream A:  [ left  1376 | front 1344 | right 1376 ]
///   stream B:  [ down  1376 | back  1344 |  up   1376 ]   (down, back, up turned as EAC turns them)
/// ```
///
/// Each side face is stored `overlap` × 2 pixels wider than the cube's face: its middle holds the seam
/// between the two lenses twice, each copy squeezed from the seam's true width (96 px of the face) into
/// `overlap` (64 px on the MAX in 8-bit mode). Columns `0..<L` are the face's first L columns, then copy 1
/// (the first lens's view of the seam), copy 2 (the second lens's), then the face's last L columns, with
/// L = (side − 2·overlap) / 2. The rebuild blends the two copies with weights rising linearly across the
/// band and stretches the blend back to its true width: the recipe GoPro's developers describe
/// (gopro/gpmf-parser issue #108) and that users run in FFmpeg (crop, `geq` blend, `scale`, `hstack`).
public struct GoProMaxLayout: Sendable, Hashable {
    /// One stream's size, pixels.
    public let stripWidth: Int, stripHeight: Int
    /// The width of each copy of the seam in a side face, pixels (64 on the MAX in 8-bit mode).
    public let overlap: Int

    /// The cube's face: the strip's height.
    public var faceSize: Int { stripHeight }
    /// A side face as stored.
    public var sideWidth: Int { (stripWidth - stripHeight) / 2 }
    /// The face columns kept as they are on each side of the band.
    public var keptWidth: Int { (sideWidth - 2 * overlap) / 2 }
    /// The seam's true width in the face.
    public var seamWidth: Int { faceSize - 2 * keptWidth }
    /// The rebuilt cubemap.
    public var cubemap: EquiAngularCubemap { EquiAngularCubemap(faceSize: faceSize) }

    /// The MAX's 5.6K layout: two 4096×1344 strips, 64-pixel overlap copies.
    public static let max56K = GoProMaxLayout(uncheckedStripWidth: 4096, stripHeight: 1344, overlap: 64)
    /// The MAX's 3K layout: two 2272×736 strips.
    public static let max3K = GoProMaxLayout(uncheckedStripWidth: 2272, stripHeight: 736, overlap: 64)

    private init(uncheckedStripWidth: Int, stripHeight: Int, overlap: Int) {
        self.stripWidth = uncheckedStripWidth
        self.stripHeight = stripHeight
        self.overlap = overlap
    }

    /// The layout of strips `stripWidth × stripHeight` with `overlap`-pixel seam copies: the camera's
    /// (``max56K``, ``max3K``) or one scaled from them. Both sides of the strip and the overlap must be
    /// even (4:2:0 chroma is half of each).
    /// - Throws: `VideoError.invalidParameter` when the parts do not fit (the strip is not
    ///   face + 2 sides, the band is wider than the side).
    public init(stripWidth: Int, stripHeight: Int, overlap: Int) throws(VideoError) {
        let side = (stripWidth - stripHeight) / 2
        guard stripHeight >= 16, stripWidth > 3 * stripHeight - 1, stripWidth <= 4 * stripHeight,
              stripWidth % 2 == 0, stripHeight % 2 == 0, (stripWidth - stripHeight) % 4 == 0 else {
            throw .invalidParameter(name: "GoPro MAX strip size", value: "\(stripWidth)x\(stripHeight)",
                                    allowed: "even sides, width = height + 2 side faces a little wider than the height (4096x1344, 2272x736)")
        }
        let kept = (side - 2 * overlap) / 2
        guard overlap >= 2, overlap % 2 == 0, (side - 2 * overlap) % 4 == 0, kept > 0, stripHeight - 2 * kept > 0 else {
            throw .invalidParameter(name: "GoPro MAX overlap", value: "\(overlap) px", allowed: "even, smaller than a quarter of the side face (\(side) px)")
        }
        self.init(uncheckedStripWidth: stripWidth, stripHeight: stripHeight, overlap: overlap)
    }

    /// The camera's layout for two streams of this size, if it is one: 5.6K or 3K, the overlap as the camera
    /// writes it (64 px in 8-bit, 96 px in 10-bit); another size of the same proportions (a scaled copy)
    /// gets the 5.6K overlap scaled with it.
    public static func detect(width: Int, height: Int, bitDepth: Int = 8) -> GoProMaxLayout? {
        let cameraOverlap = bitDepth > 8 ? 96 : 64
        let ratio = Double(width) / Double(height)
        let overlap: Int
        if (width, height) == (4096, 1344) || (width, height) == (2272, 736) {
            overlap = cameraOverlap
        } else if abs(ratio - 4096.0 / 1344.0) < 0.002 {
            overlap = max(2, Int((Double(cameraOverlap) * Double(height) / 1344 / 2).rounded()) * 2)
        } else {
            return nil
        }
        return try? GoProMaxLayout(stripWidth: width, stripHeight: height, overlap: overlap)
    }

    /// This layout with every size divided by `factor` (for small test recordings that keep the layout's
    /// proportions).
    public func scaled(by factor: Int) throws(VideoError) -> GoProMaxLayout {
        try GoProMaxLayout(stripWidth: stripWidth / factor, stripHeight: stripHeight / factor, overlap: overlap / factor)
    }

    // MARK: Rebuild (strips → cube)

    /// One plane's rebuild plan: its sizes and, for each column of the seam, the two copies' tap and the blend.
    struct PlanePlan {
        let face: Int, side: Int, kept: Int, overlap: Int, seam: Int
        /// Per seam column: the left tap's column inside a copy, its weight (0…256) and copy 2's weight (0…256).
        let tap: [Int32], fraction: [Int32], blend: [Int32]

        init(face: Int, side: Int, overlap: Int) {
            self.face = face
            self.side = side
            self.overlap = overlap
            kept = (side - 2 * overlap) / 2
            seam = face - 2 * kept
            var tap: [Int32] = [], fraction: [Int32] = [], blend: [Int32] = []
            for u in 0..<seam {
                // The seam's column u (of `seam`) lies at b in a copy's `overlap` columns.
                let b = min(max((Double(u) + 0.5) * Double(overlap) / Double(seam) - 0.5, 0), Double(overlap - 1))
                let b0 = min(Int(b), overlap - 2)
                tap.append(Int32(b0))
                fraction.append(Int32(((b - Double(b0)) * 256).rounded()))
                // Copy 2's weight rises across the band: (X + 1) / (overlap + 1) at copy column X (the recipe's).
                blend.append(Int32(((b + 1) / Double(overlap + 1) * 256).rounded()))
            }
            self.tap = tap
            self.fraction = fraction
            self.blend = blend
        }
    }

    /// Rebuilds one plane of the cube (`3·face × 2·face`, contiguous) from the two streams' planes.
    /// `chroma` selects the half-size plan for 4:2:0 chroma.
    func rebuildPlane(a: (UnsafePointer<UInt8>, Int), b: (UnsafePointer<UInt8>, Int), chroma: Bool,
                      into cube: UnsafeMutablePointer<UInt8>, maximumThreads: Int? = nil) {
        let plan = chroma ? chromaPlan : lumaPlan
        let face = plan.face, side = plan.side, kept = plan.kept, overlap = plan.overlap, seam = plan.seam
        let cubeWidth = 3 * face
        nonisolated(unsafe) let cube = cube, a = a, b = b
        plan.tap.withUnsafeBufferPointer { tapBuffer in
            plan.fraction.withUnsafeBufferPointer { fractionBuffer in
                plan.blend.withUnsafeBufferPointer { blendBuffer in
                    nonisolated(unsafe) let taps = tapBuffer, fractions = fractionBuffer, blends = blendBuffer
                    Parallel.forEachRowRange(2 * face, minimumRowsPerChunk: 16, maximumThreads: maximumThreads) { rows in
                        for y in rows {
                            let (source, stride) = y < face ? a : b
                            let row = source + (y % face) * stride
                            let out = cube + y * cubeWidth
                            // Centre face: as it is.
                            (out + face).update(from: row + side, count: face)
                            // Side faces: kept columns, the blended seam, kept columns.
                            for (storedStart, cubeStart) in [(0, 0), (side + face, 2 * face)] {
                                let s = row + storedStart, o = out + cubeStart
                                o.update(from: s, count: kept)
                                (o + kept + seam).update(from: s + kept + 2 * overlap, count: kept)
                                let copy1 = s + kept, copy2 = s + kept + overlap
                                for u in 0..<seam {
                                    let t = Int(taps[u]), f = fractions[u], w = blends[u]
                                    let v1 = Int32(copy1[t]) * (256 - f) + Int32(copy1[t + 1]) * f
                                    let v2 = Int32(copy2[t]) * (256 - f) + Int32(copy2[t + 1]) * f
                                    o[kept + u] = UInt8(truncatingIfNeeded: (v1 * (256 - w) + v2 * w + 32_768) >> 16)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    var lumaPlan: PlanePlan { PlanePlan(face: faceSize, side: sideWidth, overlap: overlap) }
    var chromaPlan: PlanePlan { PlanePlan(face: faceSize / 2, side: sideWidth / 2, overlap: overlap / 2) }

    // MARK: Strips from a cube (the camera's side)

    /// The two strips the camera would store for a cube (3×2 EAC, RGB): each side face widened by the seam
    /// copies (both copies show the same, as from a perfectly stitched camera). For making recordings in
    /// the real layout from panoramas of known content (tests, benchmarks).
    public func strips(fromCube cube: RGB8Image) -> (a: RGB8Image, b: RGB8Image) {
        precondition(cube.width == 3 * faceSize && cube.height == 2 * faceSize, "the cube must be \(3 * faceSize)x\(2 * faceSize)")
        func strip(row: Int) -> RGB8Image {
            var out = RGB8Image(unfilledWidth: stripWidth, height: stripHeight)
            let face = faceSize, side = sideWidth, kept = keptWidth, overlap = overlap, seam = seamWidth, width = stripWidth
            // The face column each stored column of a side face shows (fractional inside the seam copies).
            func sideColumn(_ c: Int) -> Double {
                if c < kept { return Double(c) }
                if c >= kept + 2 * overlap { return Double(c - 2 * overlap + seam) }
                let x = (c - kept) % overlap
                return Double(kept) + (Double(x) + 0.5) * Double(seam) / Double(overlap) - 0.5
            }
            let columns = (0..<width).map { c -> Double in
                if c < side { return sideColumn(c) }
                if c < side + face { return Double(face + c - side) }
                return Double(2 * face) + sideColumn(c - side - face)
            }
            for y in 0..<stripHeight {
                let cy = row * face + y
                for c in 0..<width {
                    let x = columns[c]
                    let cellStart = x < Double(face) ? 0 : (x < Double(2 * face) ? face : 2 * face)
                    let x0 = min(max(Int(x.rounded(.down)), cellStart), cellStart + face - 2)
                    let f = min(max(x - Double(x0), 0), 1)
                    for k in 0..<3 {
                        let v = Double(cube.components[3 * (cy * cube.width + x0) + k]) * (1 - f)
                            + Double(cube.components[3 * (cy * cube.width + x0 + 1) + k]) * f
                        out.components[3 * (y * width + c) + k] = UInt8(max(0, min(255, v.rounded())))
                    }
                }
            }
            return out
        }
        return (strip(row: 0), strip(row: 1))
    }
}
