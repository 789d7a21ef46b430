import CSixel
import Imaging

/// Sixel graphics (DEC, as xterm `-ti vt340`, foot, mlterm, WezTerm show them) through libsixel:
/// an adaptive palette of up to 256 colours per frame, then the six-pixel bands.
/// Measured in `../shared/notes/terminal.md` §6 and in `Benchmarks terminal`.
public struct SixelEncoder: Sendable {
    /// How colours between palette entries are rendered.
    public enum Diffusion: String, Sendable {
        /// Nearest palette colour (fastest; flat patches on gradients).
        case none
        /// Floyd–Steinberg error diffusion (finer grain; about twice as many bytes).
        case floydSteinberg
    }

    /// Palette size, 2…256.
    public var colors: Int
    public var diffusion: Diffusion

    public init(colors: Int = 256, diffusion: Diffusion = .none) {
        precondition((2...256).contains(colors), "sixel palette size \(colors) outside 2…256")
        self.colors = colors
        self.diffusion = diffusion
    }

    /// The DCS sequence (`ESC P … q … ESC \`) that draws `image` from the cursor.
    public func encode(_ image: RGB8Image) throws -> [UInt8] {
        let sink = SixelSink()
        var output: OpaquePointer?
        var status = sixel_output_new(&output, sixelWrite, Unmanaged.passUnretained(sink).toOpaque(), nil)
        guard status == SIXEL_OK, let output else { throw Self.failure(status) }
        defer { sixel_output_unref(output) }
        var dither: OpaquePointer?
        status = sixel_dither_new(&dither, Int32(colors), nil)
        guard status == SIXEL_OK, let dither else { throw Self.failure(status) }
        defer { sixel_dither_unref(dither) }
        var pixels = image.components  // libsixel may write into its input (diffusion)
        try pixels.withUnsafeMutableBufferPointer { buffer in
            status = sixel_dither_initialize(dither, buffer.baseAddress, Int32(image.width), Int32(image.height),
                                             SIXEL_PIXELFORMAT_RGB888, SIXEL_LARGE_AUTO, SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO)
            guard status == SIXEL_OK else { throw Self.failure(status) }
            sixel_dither_set_diffusion_type(dither, diffusion == .none ? SIXEL_DIFFUSE_NONE : SIXEL_DIFFUSE_FS)
            status = sixel_encode(buffer.baseAddress, Int32(image.width), Int32(image.height), 3, dither, output)
            guard status == SIXEL_OK else { throw Self.failure(status) }
        }
        return sink.bytes
    }

    private static func failure(_ status: Int32) -> TerminalError {
        .sixel(status: status, message: sixel_helper_format_error(status).map { String(cString: $0) } ?? "unknown")
    }
}

/// Collects libsixel's output (its write callback gets this as private data).
private final class SixelSink {
    var bytes: [UInt8] = []
}

private let sixelWrite: sixel_write_function = { data, size, context in
    let sink = Unmanaged<SixelSink>.fromOpaque(context!).takeUnretainedValue()
    data!.withMemoryRebound(to: UInt8.self, capacity: Int(size)) {
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(size)))
    }
    return size
}
