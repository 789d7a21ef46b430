import CTurboJPEG
import Foundation

/// What a baseline or progressive JPEG's headers say about its blocks: size, components with their
/// sampling factors and quantisation tables (natural order), read by walking the markers up to the
/// first scan.
struct JPEGLayout: Sendable {
    struct Component: Sendable {
        var id: Int
        var horizontalSampling: Int
        var verticalSampling: Int
        /// The component's quantisation table, 64 values in natural (row-major) order.
        var quantization: [Double]
        /// Blocks per row and per column of the component's plane (libjpeg's width_in_blocks, height_in_blocks).
        var widthInBlocks: Int
        var heightInBlocks: Int
    }

    var width: Int
    var height: Int
    var components: [Component]
    var maximumHorizontalSampling: Int
    var maximumVerticalSampling: Int
    var progressive: Bool

    /// The iMCU: the pixels one block of the most subsampled component covers (16 × 16 for 4:2:0).
    var mcuWidth: Int { 8 * maximumHorizontalSampling }
    var mcuHeight: Int { 8 * maximumVerticalSampling }

    /// The zig-zag order of the 64 coefficients, as natural (row-major) indices (libjpeg's jpeg_natural_order).
    static let naturalOrder: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]

    /// Reads the layout of `jpeg`.
    /// - Throws: ``PrivacyError/unsupportedJPEG(file:detail:)`` for damaged headers or a colour layout the
    ///   editor does not handle (CMYK, RGB-coded, 12-bit, lossless, a quantisation table defined after the first scan).
    init(_ jpeg: [UInt8], file: String?) throws(PrivacyError) {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw .unreadableImage(file: file, detail: "not a JPEG (no SOI marker)") }
        var tables: [Int: [Double]] = [:]
        var frame: (width: Int, height: Int, components: [(id: Int, h: Int, v: Int, table: Int)], progressive: Bool)?
        var adobeTransform: Int?
        var i = 2
        scanning: while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { throw .unsupportedJPEG(file: file, detail: "damaged headers (no marker at byte \(i))") }
            var m = i + 1
            while m < jpeg.count && jpeg[m] == 0xFF { m += 1 }
            guard m + 2 < jpeg.count else { break }
            let marker = jpeg[m]
            if marker == 0xDA { break scanning }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i = m + 1; continue }
            if marker == 0xD9 { break }
            let length = Int(jpeg[m + 1]) << 8 | Int(jpeg[m + 2])
            let start = m + 3, end = m + 1 + length
            guard length >= 2, end <= jpeg.count else { throw .unsupportedJPEG(file: file, detail: "a header segment at byte \(i) runs past the end") }
            switch marker {
            case 0xDB:
                var p = start
                while p < end {
                    let precision = Int(jpeg[p] >> 4), index = Int(jpeg[p] & 15)
                    let size = precision == 0 ? 1 : 2
                    guard p + 1 + 64 * size <= end else { throw .unsupportedJPEG(file: file, detail: "a quantisation table is cut short") }
                    var table = [Double](repeating: 1, count: 64)
                    for k in 0..<64 {
                        let value = size == 1 ? Int(jpeg[p + 1 + k]) : Int(jpeg[p + 1 + 2 * k]) << 8 | Int(jpeg[p + 2 + 2 * k])
                        table[Self.naturalOrder[k]] = Double(max(1, value))
                    }
                    tables[index] = table
                    p += 1 + 64 * size
                }
            case 0xC0, 0xC1, 0xC2:
                guard end - start >= 6 else { throw .unsupportedJPEG(file: file, detail: "the frame header is cut short") }
                guard jpeg[start] == 8 else { throw .unsupportedJPEG(file: file, detail: "\(jpeg[start])-bit samples (only 8-bit JPEGs are edited)") }
                let height = Int(jpeg[start + 1]) << 8 | Int(jpeg[start + 2]), width = Int(jpeg[start + 3]) << 8 | Int(jpeg[start + 4])
                let count = Int(jpeg[start + 5])
                guard end - start >= 6 + 3 * count, count >= 1 else { throw .unsupportedJPEG(file: file, detail: "the frame header is cut short") }
                var components: [(Int, Int, Int, Int)] = []
                for c in 0..<count {
                    let p = start + 6 + 3 * c
                    components.append((Int(jpeg[p]), Int(jpeg[p + 1] >> 4), Int(jpeg[p + 1] & 15), Int(jpeg[p + 2])))
                }
                frame = (width, height, components.map { (id: $0.0, h: $0.1, v: $0.2, table: $0.3) }, marker == 0xC2)
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                throw .unsupportedJPEG(file: file, detail: "a lossless, hierarchical or arithmetic-coded frame (SOF 0x\(String(marker, radix: 16, uppercase: true)))")
            case 0xEE where end - start >= 12 && Array(jpeg[start..<(start + 5)]) == Array("Adobe".utf8):
                adobeTransform = Int(jpeg[start + 11])
            default:
                break
            }
            i = end
        }
        guard let frame else { throw .unsupportedJPEG(file: file, detail: "no frame header (SOF) before the first scan") }
        guard frame.width > 0, frame.height > 0 else { throw .unsupportedJPEG(file: file, detail: "the frame declares a size of 0") }
        guard frame.components.count == 1 || frame.components.count == 3 else {
            throw .unsupportedJPEG(file: file, detail: "\(frame.components.count) colour components (CMYK and YCCK are not edited; convert to RGB first)")
        }
        if frame.components.count == 3 {
            let ids = frame.components.map(\.id)
            if adobeTransform == 0 || ids == [82, 71, 66] {
                throw .unsupportedJPEG(file: file, detail: "RGB-coded components (not YCbCr); re-save the photo as an ordinary YCbCr JPEG first")
            }
        }
        let maxH = frame.components.map(\.h).max() ?? 1, maxV = frame.components.map(\.v).max() ?? 1
        var components: [Component] = []
        for c in frame.components {
            guard c.h >= 1, c.h <= 4, c.v >= 1, c.v <= 4, maxH % c.h == 0, maxV % c.v == 0 else {
                throw .unsupportedJPEG(file: file, detail: "sampling factors \(c.h)×\(c.v) of \(maxH)×\(maxV)")
            }
            guard let table = tables[c.table] else {
                throw .unsupportedJPEG(file: file, detail: "component \(c.id) names quantisation table \(c.table), which is not defined before the first scan")
            }
            components.append(Component(id: c.id, horizontalSampling: c.h, verticalSampling: c.v, quantization: table,
                                        widthInBlocks: (frame.width * c.h + 8 * maxH - 1) / (8 * maxH),
                                        heightInBlocks: (frame.height * c.v + 8 * maxV - 1) / (8 * maxV)))
        }
        width = frame.width
        height = frame.height
        self.components = components
        maximumHorizontalSampling = maxH
        maximumVerticalSampling = maxV
        progressive = frame.progressive
    }
}

/// DCT blocks to write into, or read out of, a JPEG: per component, block index (row × widthInBlocks +
/// column) → 64 quantised coefficients in natural order.
struct JPEGBlocks: Sendable {
    var components: [[Int: [Int16]]]

    init(componentCount: Int) { components = Array(repeating: [:], count: componentCount) }

    var isEmpty: Bool { components.allSatisfy(\.isEmpty) }
}

/// Reads and replaces DCT blocks through TurboJPEG's lossless transform (`tjTransform`, no operation)
/// with a custom filter: every block not replaced keeps its quantised coefficients, so it decodes to the
/// same pixels; the markers (EXIF, XMP, ICC, …) are copied as they are. This is what SGBlur does with
/// `jpegtran -drop`, done in one pass without a second file.
enum JPEGBlockEditor {
    /// The custom filter's state, reached through `tjtransform.data`.
    final class Context {
        let layout: JPEGLayout
        let writes: JPEGBlocks
        /// Blocks to copy out: per component, the indices wanted.
        let wanted: [Set<Int>]
        var read: JPEGBlocks
        var failed = false

        init(layout: JPEGLayout, writes: JPEGBlocks, wanted: [Set<Int>]) {
            self.layout = layout
            self.writes = writes
            self.wanted = wanted
            read = JPEGBlocks(componentCount: layout.components.count)
        }
    }

    /// The filter: called once per row of blocks of each component (libjpeg-turbo 2.1 passes one block
    /// row, 8 coefficient rows high, per call; several rows are handled too).
    static let filter: @convention(c) (UnsafeMutablePointer<Int16>?, tjregion, tjregion, Int32, Int32,
                                       UnsafeMutablePointer<tjtransform>?) -> Int32 = { coefficients, arrayRegion, _, component, _, transform in
        guard let coefficients, let data = transform?.pointee.data else { return -1 }
        let context = Unmanaged<Context>.fromOpaque(data).takeUnretainedValue()
        let c = Int(component)
        guard c >= 0, c < context.layout.components.count else { context.failed = true; return -1 }
        let layout = context.layout.components[c]
        let stride = Int(arrayRegion.w) / 8, rows = max(1, Int(arrayRegion.h) / 8)
        let firstRow = Int(arrayRegion.y) / 8
        let writes = context.writes.components[c], wanted = context.wanted[c]
        guard !writes.isEmpty || !wanted.isEmpty else { return 0 }
        for r in 0..<rows {
            let row = firstRow + r
            guard row < layout.heightInBlocks else { continue }
            for column in 0..<min(stride, layout.widthInBlocks) {
                let key = row * layout.widthInBlocks + column
                let block = coefficients + (r * stride + column) * 64
                if wanted.contains(key) {
                    context.read.components[c][key] = Array(UnsafeBufferPointer(start: block, count: 64))
                }
                if let replacement = writes[key] {
                    replacement.withUnsafeBufferPointer { block.update(from: $0.baseAddress!, count: 64) }
                }
            }
        }
        return 0
    }

    /// Runs the transform: writes `writes` into a copy of `jpeg` (nil output when `produceOutput` is
    /// false) and copies out the blocks in `wanted` (as they were before any write).
    static func transform(_ jpeg: [UInt8], layout: JPEGLayout, writes: JPEGBlocks, wanted: [Set<Int>]? = nil,
                          produceOutput: Bool = true, file: String?) throws(PrivacyError) -> (jpeg: [UInt8]?, read: JPEGBlocks) {
        guard let handle = tjInitTransform() else { throw .unsupportedJPEG(file: file, detail: "tjInitTransform failed") }
        defer { tjDestroy(handle) }
        let context = Context(layout: layout, writes: writes, wanted: wanted ?? Array(repeating: [], count: layout.components.count))
        let unmanaged = Unmanaged.passRetained(context)
        defer { unmanaged.release() }
        var options = produceOutput ? 0 : TJXOPT_NOOUTPUT
        if layout.progressive { options |= TJXOPT_PROGRESSIVE }
        var spec = tjtransform(r: tjregion(x: 0, y: 0, w: 0, h: 0), op: Int32(TJXOP_NONE.rawValue), options: Int32(options),
                               data: unmanaged.toOpaque(), customFilter: filter)
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = jpeg.withUnsafeBufferPointer { source in
            tjTransform(handle, source.baseAddress, UInt(source.count), 1, &output, &size, &spec, TJFLAG_ACCURATEDCT)
        }
        defer { if let output { tjFree(output) } }
        if status != 0 || context.failed {
            // A warning too: a damaged file is refused rather than blurred with grey blocks in it.
            let message = String(cString: tjGetErrorStr2(handle))
            throw .unsupportedJPEG(file: file, detail: "TurboJPEG's lossless transform failed: \(message)")
        }
        let bytes = produceOutput ? output.map { Array(UnsafeBufferPointer(start: $0, count: Int(size))) } : nil
        if produceOutput && bytes == nil { throw .unsupportedJPEG(file: file, detail: "TurboJPEG's lossless transform wrote nothing") }
        return (bytes, context.read)
    }
}
