import Foundation
import Parallelism

/// A precomputed bilinear resampling of one 8-bit plane into another: for each output sample, the
/// index of the source's top-left tap and the two fractions in 1/256. Built once for a geometry (the
/// trigonometry is paid once), applied to every frame of a video in one pass of integer arithmetic
/// (the model is FFmpeg's `vf_v360`, which keeps maps the same way).
///
/// The geometry says, for each output sample centre, the continuous source position (pixel centres at
/// integer + ½) and the rectangle the taps must stay in (a cube face: a tap that crossed its edge would
/// read a neighbour in the layout, not on the sphere). Positions are clamped to that rectangle's
/// sample centres. Memory: 6 bytes per output sample.
public struct PlaneRemap: Sendable {
    /// Output plane size, samples.
    public let outputWidth: Int, outputHeight: Int
    /// Source plane size, samples (the source is read with this row stride).
    public let sourceWidth: Int, sourceHeight: Int
    /// Per output sample: the source index of the top-left tap.
    let taps: [Int32]
    /// Per output sample: the horizontal fraction (low byte) and vertical fraction (high byte), 0…255.
    let fractions: [UInt16]

    /// Where an output sample comes from: the continuous source position and the inclusive rectangle of
    /// sample indices its taps may use.
    public typealias Source = (x: Double, y: Double, minX: Int, minY: Int, maxX: Int, maxY: Int)

    /// Builds the map; `position(x, y)` gets an output sample's centre (x + ½, y + ½) and must be safe to
    /// call from several threads. The source must be smaller than 2³¹ samples.
    public init(outputWidth: Int, outputHeight: Int, sourceWidth: Int, sourceHeight: Int, maximumThreads: Int? = nil,
                position: @Sendable (_ x: Double, _ y: Double) -> Source) {
        precondition(outputWidth > 0 && outputHeight > 0 && sourceWidth > 1 && sourceHeight > 1)
        precondition(sourceWidth * sourceHeight < Int(Int32.max))
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        let count = outputWidth * outputHeight
        var taps = [Int32](repeating: 0, count: count)
        var fractions = [UInt16](repeating: 0, count: count)
        taps.withUnsafeMutableBufferPointer { tapBuffer in
            fractions.withUnsafeMutableBufferPointer { fractionBuffer in
                nonisolated(unsafe) let tapOut = tapBuffer, fractionOut = fractionBuffer
                Parallel.forEachRowRange(outputHeight, minimumRowsPerChunk: 8, maximumThreads: maximumThreads) { rows in
                    for y in rows {
                        for x in 0..<outputWidth {
                            let (tap, fraction) = Self.tap(position(Double(x) + 0.5, Double(y) + 0.5), sourceWidth: sourceWidth)
                            tapOut[y * outputWidth + x] = tap
                            fractionOut[y * outputWidth + x] = fraction
                        }
                    }
                }
            }
        }
        self.taps = taps
        self.fractions = fractions
    }

    /// The top-left tap and fractions of a continuous position, clamped so all four taps lie inside.
    @inline(__always)
    static func tap(_ s: Source, sourceWidth: Int) -> (Int32, UInt16) {
        // Sample centres are at integer + ½: the tap to the left/above is floor(position − ½).
        func axis(_ p: Double, _ low: Int, _ high: Int) -> (Int, Int) {
            let q = min(max(p - 0.5, Double(low)), Double(high))
            var i0 = Int(q.rounded(.down)), f = Int(((q - Double(i0)) * 256).rounded())
            if f >= 256 { i0 += 1; f = 0 }
            // The second tap must stay inside: at the last sample the weight goes (almost) all to it.
            if i0 >= high { (i0, f) = high > low ? (high - 1, 255) : (low, 0) }
            return (i0, f)
        }
        let (x0, fx) = axis(s.x, s.minX, s.maxX), (y0, fy) = axis(s.y, s.minY, s.maxY)
        return (Int32(y0 * sourceWidth + x0), UInt16(fx) | UInt16(fy) << 8)
    }

    /// Resamples `source` (`sourceWidth × sourceHeight`, rows `sourceStride` bytes apart) into `output`
    /// (`outputWidth × outputHeight`, contiguous). Rows are split across cores; nothing is allocated.
    public func apply(_ source: UnsafePointer<UInt8>, sourceStride: Int, to output: UnsafeMutablePointer<UInt8>,
                      maximumThreads: Int? = nil) {
        precondition(sourceStride == sourceWidth, "the map was built for a source of stride \(sourceWidth)")
        nonisolated(unsafe) let source = source, output = output
        taps.withUnsafeBufferPointer { tapBuffer in
            fractions.withUnsafeBufferPointer { fractionBuffer in
                nonisolated(unsafe) let taps = tapBuffer, fractions = fractionBuffer
                let width = outputWidth, stride = sourceStride
                Parallel.forEachRowRange(outputHeight, minimumRowsPerChunk: 16, maximumThreads: maximumThreads) { rows in
                    for y in rows {
                        let row = y * width
                        for x in 0..<width {
                            let i = row + x
                            let t = Int(taps[i]), f = fractions[i]
                            let fx = UInt32(f & 0xFF), fy = UInt32(f >> 8)
                            let p00 = UInt32(source[t]), p01 = UInt32(source[t + 1])
                            let p10 = UInt32(source[t + stride]), p11 = UInt32(source[t + stride + 1])
                            let top = p00 * (256 - fx) + p01 * fx, bottom = p10 * (256 - fx) + p11 * fx
                            output[i] = UInt8(truncatingIfNeeded: (top * (256 - fy) + bottom * fy + 32_768) >> 16)
                        }
                    }
                }
            }
        }
    }

    /// The plain reference: the same resampling with the geometry evaluated per sample in `Double` (no
    /// map, no fixed point), for tests of ``apply(_:sourceStride:to:maximumThreads:)``.
    public static func referenceApply(_ source: [UInt8], sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int,
                                      position: (_ x: Double, _ y: Double) -> Source) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: outputWidth * outputHeight)
        for y in 0..<outputHeight {
            for x in 0..<outputWidth {
                let s = position(Double(x) + 0.5, Double(y) + 0.5)
                let px = min(max(s.x - 0.5, Double(s.minX)), Double(s.maxX)), py = min(max(s.y - 0.5, Double(s.minY)), Double(s.maxY))
                let x0 = min(Int(px.rounded(.down)), max(s.minX, s.maxX - 1)), y0 = min(Int(py.rounded(.down)), max(s.minY, s.maxY - 1))
                let x1 = min(x0 + 1, s.maxX), y1 = min(y0 + 1, s.maxY)
                let fx = px - Double(x0), fy = py - Double(y0)
                func at(_ xx: Int, _ yy: Int) -> Double { Double(source[yy * sourceWidth + xx]) }
                let v = (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy
                output[y * outputWidth + x] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return output
    }
}
