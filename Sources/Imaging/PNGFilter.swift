/// The five PNG row filters (PNG spec §9), a fast unsafe-pointer implementation, and a plain
/// scalar reference that the tests compare it with.
public enum PNGFilter: UInt8, Sendable, CaseIterable {
    /// The bytes as they are.
    case none = 0
    /// Difference to the same channel of the pixel to the left.
    case sub = 1
    /// Difference to the pixel above.
    case up = 2
    /// Difference to the mean of left and above.
    case average = 3
    /// Difference to the Paeth predictor of left, above and upper-left.
    case paeth = 4

    /// Filters one row with raw pointers: `out[i]` for `i` in `0..<count`; `previous` is the row
    /// above (all zeros for the first row); `bytesPerPixel` 1…8. No allocation. Not inlined: compiled
    /// on its own, each loop vectorises (inlined into the adaptive chooser, paeth and average did not).
    @inline(never)
    static func apply(_ filter: PNGFilter, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>,
                      count: Int, bytesPerPixel bpp: Int, out: UnsafeMutablePointer<UInt8>) {
        // A constant pixel size lets the compiler vectorise the loops (a variable one does not).
        switch bpp {
        case 1: kernel(filter, row: row, previous: previous, count: count, bytesPerPixel: 1, out: out)
        case 2: kernel(filter, row: row, previous: previous, count: count, bytesPerPixel: 2, out: out)
        case 3: kernel(filter, row: row, previous: previous, count: count, bytesPerPixel: 3, out: out)
        case 4: kernel(filter, row: row, previous: previous, count: count, bytesPerPixel: 4, out: out)
        default: kernel(filter, row: row, previous: previous, count: count, bytesPerPixel: bpp, out: out)
        }
    }

    @inline(__always)
    private static func kernel(_ filter: PNGFilter, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>,
                               count: Int, bytesPerPixel bpp: Int, out: UnsafeMutablePointer<UInt8>) {
        switch filter {
        case .none:
            out.update(from: row, count: count)
        case .sub:
            for i in 0..<min(bpp, count) { out[i] = row[i] }
            if count > bpp { for i in bpp..<count { out[i] = row[i] &- row[i - bpp] } }
        case .up:
            for i in 0..<count { out[i] = row[i] &- previous[i] }
        case .average:
            for i in 0..<min(bpp, count) { out[i] = row[i] &- previous[i] >> 1 }
            if count > bpp {
                for i in bpp..<count {
                    out[i] = row[i] &- UInt8(truncatingIfNeeded: (UInt16(row[i - bpp]) &+ UInt16(previous[i])) &>> 1)
                }
            }
        case .paeth:
            for i in 0..<min(bpp, count) { out[i] = row[i] &- previous[i] }
            if count > bpp {
                // Branch-free and overflow-free so the compiler can vectorise it.
                for i in bpp..<count {
                    let a = Int16(row[i - bpp]), b = Int16(previous[i]), c = Int16(previous[i - bpp])
                    let pa = absolute(b &- c), pb = absolute(a &- c), pc = absolute(a &+ b &- c &- c)
                    // Same choice as the spec's if/else chain, written with min so it has no branches.
                    let smallest = min(pa, min(pb, pc))
                    let predictor = smallest == pa ? a : (smallest == pb ? b : c)
                    out[i] = row[i] &- UInt8(truncatingIfNeeded: predictor)
                }
            }
        }
    }

    @inline(__always) private static func absolute(_ x: Int16) -> Int16 {
        let sign = x &>> 15
        return (x ^ sign) &- sign
    }

    /// The libpng heuristic for choosing a filter: the sum of the filtered bytes read as signed values'
    /// magnitudes (smaller usually compresses better).
    @inline(never)
    static func cost(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var sum: UInt32 = 0
        for i in 0..<count {
            let v = Int16(Int8(bitPattern: bytes[i]))
            sum &+= UInt32(truncatingIfNeeded: absolute(v))
        }
        return Int(sum)
    }

    /// The plain reference: filters `row` given `previous` (empty or zeros for the first row).
    /// Slow and obvious, for tests.
    public static func reference(_ filter: PNGFilter, row: [UInt8], previous: [UInt8],
                                 bytesPerPixel: Int) -> [UInt8] {
        let prior = previous.isEmpty ? [UInt8](repeating: 0, count: row.count) : previous
        var out = [UInt8]()
        for i in 0..<row.count {
            let a = i >= bytesPerPixel ? Int(row[i - bytesPerPixel]) : 0
            let b = Int(prior[i])
            let c = i >= bytesPerPixel ? Int(prior[i - bytesPerPixel]) : 0
            let predictor: Int
            switch filter {
            case .none: predictor = 0
            case .sub: predictor = a
            case .up: predictor = b
            case .average: predictor = (a + b) / 2
            case .paeth:
                let p = a + b - c
                let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
            }
            out.append(UInt8((Int(row[i]) - predictor + 256) % 256))
        }
        return out
    }

    /// The fast path over arrays, for tests and callers outside the encoder.
    public static func fast(_ filter: PNGFilter, row: [UInt8], previous: [UInt8], bytesPerPixel: Int) -> [UInt8] {
        precondition((1...8).contains(bytesPerPixel), "bytes per pixel must be 1…8")
        let prior = previous.isEmpty ? [UInt8](repeating: 0, count: row.count) : previous
        precondition(prior.count == row.count, "rows must have the same length")
        var out = [UInt8](repeating: 0, count: row.count)
        row.withUnsafeBufferPointer { r in
            prior.withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { o in
                    if let rb = r.baseAddress, let pb = p.baseAddress, let ob = o.baseAddress {
                        apply(filter, row: rb, previous: pb, count: row.count, bytesPerPixel: bytesPerPixel, out: ob)
                    }
                }
            }
        }
        return out
    }
}
