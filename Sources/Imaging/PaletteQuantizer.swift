/// Chooses an image's palette of at most 256 colours: median cut over a 6-bit-per-channel histogram
/// (the box with the most error split at the weighted median of its widest channel), refined by
/// k-means (Lloyd) iterations over the histogram's occupied cells. Each palette colour is the exact
/// mean of the pixels assigned to it.
///
/// O(pixels + cells × colours × iterations); a 640×360 frame takes a few milliseconds.
public enum PaletteQuantizer {
    /// k-means refinements after the median cut.
    static let refinementIterations = 3

    /// The palette of `image` (RGB triples), at most `maximumColors` (2…256) entries.
    public static func palette(of image: RGB8Image, maximumColors: Int = 256) -> [(red: UInt8, green: UInt8, blue: UInt8)] {
        precondition((2...256).contains(maximumColors))
        // Histogram: count and channel sums per 6-bit cell.
        var count = [Int32](repeating: 0, count: 1 << 18)
        var sums = [SIMD3<Int32>](repeating: .zero, count: 1 << 18)
        image.components.withUnsafeBufferPointer { src in
            count.withUnsafeMutableBufferPointer { c in
                sums.withUnsafeMutableBufferPointer { s in
                    for i in 0..<(image.pixelCount) {
                        let r = Int32(src[3 * i]), g = Int32(src[3 * i + 1]), b = Int32(src[3 * i + 2])
                        let key = Int((r >> 2) << 12 | (g >> 2) << 6 | (b >> 2))
                        c[key] += 1
                        s[key] &+= SIMD3(r, g, b)
                    }
                }
            }
        }
        var cells: [(mean: SIMD3<Float>, weight: Float)] = []
        for key in 0..<(1 << 18) where count[key] > 0 {
            cells.append((SIMD3<Float>(sums[key]) / Float(count[key]), Float(count[key])))
        }
        if cells.count <= maximumColors {
            return cells.map { (UInt8($0.mean.x.rounded()), UInt8($0.mean.y.rounded()), UInt8($0.mean.z.rounded())) }
        }
        // Median cut over cell indices.
        var boxes: [Range<Int>] = [0..<cells.count]
        var order = Array(0..<cells.count)
        func spread(_ box: Range<Int>) -> (channel: Int, score: Float) {
            var lo = SIMD3<Float>(repeating: 255), hi = SIMD3<Float>(repeating: 0), weight: Float = 0
            for k in box { let m = cells[order[k]].mean; lo = pointwiseMin(lo, m); hi = pointwiseMax(hi, m); weight += cells[order[k]].weight }
            let range = hi - lo
            let channel = range.x >= range.y && range.x >= range.z ? 0 : (range.y >= range.z ? 1 : 2)
            // Weighted so crowded boxes split first; a single-cell box cannot split.
            return (channel, box.count > 1 ? range.max() * weight.squareRoot() : -1)
        }
        var scores = [spread(boxes[0])]
        while boxes.count < maximumColors {
            guard let index = scores.indices.max(by: { scores[$0].score < scores[$1].score }), scores[index].score > 0 else { break }
            let box = boxes[index], channel = scores[index].channel
            order[box].sort { cells[$0].mean[channel] < cells[$1].mean[channel] }
            var total: Float = 0
            for k in box { total += cells[order[k]].weight }
            var running: Float = 0, split = box.lowerBound + 1
            for k in box {
                running += cells[order[k]].weight
                if running >= total / 2 { split = min(box.upperBound - 1, max(box.lowerBound + 1, k + 1)); break }
            }
            boxes[index] = box.lowerBound..<split
            boxes.append(split..<box.upperBound)
            scores[index] = spread(boxes[index])
            scores.append(spread(boxes[boxes.count - 1]))
        }
        var palette: [SIMD3<Float>] = boxes.map { box in
            var sum = SIMD3<Float>.zero, weight: Float = 0
            for k in box { sum += cells[order[k]].mean * cells[order[k]].weight; weight += cells[order[k]].weight }
            return sum / weight
        }
        // k-means refinement.
        for _ in 0..<refinementIterations {
            var sum = [SIMD3<Float>](repeating: .zero, count: palette.count), weight = [Float](repeating: 0, count: palette.count)
            palette.withUnsafeBufferPointer { p in
                for cell in cells {
                    var best = 0, bestDistance = Float.infinity
                    for k in 0..<p.count {
                        let d = cell.mean - p[k]
                        let e = (d * d).sum()
                        if e < bestDistance { bestDistance = e; best = k }
                    }
                    sum[best] += cell.mean * cell.weight
                    weight[best] += cell.weight
                }
            }
            for k in palette.indices where weight[k] > 0 { palette[k] = sum[k] / weight[k] }
        }
        return palette.map { (UInt8(max(0, min(255, $0.x.rounded()))), UInt8(max(0, min(255, $0.y.rounded()))), UInt8(max(0, min(255, $0.z.rounded())))) }
    }
}
