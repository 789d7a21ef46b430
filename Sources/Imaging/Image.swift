/// Pixel buffers.
///
/// Every image in the project has one memory layout, documented here once:
/// - **contiguous**: `components` holds `width × height × channelCount` values, nothing else;
/// - **top-left origin**: the first value is the top-left pixel; `y` grows downwards, `x` to the right;
/// - **no row padding**: row `y` starts at index `y × width × channelCount`;
/// - **interleaved channels**: the channels of a pixel are adjacent (`R G B`, `R G B A`).
///
/// 8-bit colour is sRGB-encoded. RGBA8 alpha is *straight* (not premultiplied) when an image is
/// stored or exchanged; drawing code premultiplies internally where it composites.
/// Gray16 is a linear 16-bit quantity (depth maps document their own unit).
public protocol PixelFormat: Sendable {
    /// The scalar type of one channel.
    associatedtype Component: Numeric & Sendable & Equatable
    /// Channels per pixel.
    static var channelCount: Int { get }
    /// A short name for messages ("RGB8").
    static var name: String { get }
}

/// 8-bit sRGB red, green, blue.
public enum RGB8: PixelFormat {
    public typealias Component = UInt8
    public static let channelCount = 3
    public static let name = "RGB8"
}

/// 8-bit sRGB red, green, blue and straight alpha.
public enum RGBA8: PixelFormat {
    public typealias Component = UInt8
    public static let channelCount = 4
    public static let name = "RGBA8"
}

/// 8-bit grey (labels, masks).
public enum Gray8: PixelFormat {
    public typealias Component = UInt8
    public static let channelCount = 1
    public static let name = "Gray8"
}

/// 16-bit grey (depth maps).
public enum Gray16: PixelFormat {
    public typealias Component = UInt16
    public static let channelCount = 1
    public static let name = "Gray16"
}

/// A rectangular raster of pixels in the layout described above.
public struct Image<Format: PixelFormat>: Sendable, Equatable {
    /// Width in pixels (≥ 1).
    public let width: Int
    /// Height in pixels (≥ 1).
    public let height: Int
    /// All channel values, row after row, without padding.
    public var components: [Format.Component]

    /// Channels per pixel.
    @inlinable public static var channelCount: Int { Format.channelCount }
    /// Values per row (`width × channelCount`).
    @inlinable public var rowStride: Int { width * Format.channelCount }
    /// `width × height`.
    @inlinable public var pixelCount: Int { width * height }
    /// The size as a value.
    @inlinable public var size: PixelSize { PixelSize(width: width, height: height) }

    /// An image filled with one value in every channel (0 by default).
    /// Sizes come from code, not users: a non-positive size is a programmer error.
    public init(width: Int, height: Int, fill: Format.Component = 0) {
        precondition(width > 0 && height > 0, "image size must be positive, got \(width)×\(height)")
        self.width = width
        self.height = height
        self.components = [Format.Component](repeating: fill, count: width * height * Format.channelCount)
    }

    /// An image whose values are left as the allocator gave them, for a caller that writes every
    /// pixel next (a renderer's output): it skips filling a frame that is about to be overwritten.
    public init(unfilledWidth width: Int, height: Int) {
        precondition(width > 0 && height > 0, "image size must be positive, got \(width)×\(height)")
        self.width = width
        self.height = height
        let count = width * height * Format.channelCount
        self.components = [Format.Component](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// An image wrapping existing values; `components.count` must be `width × height × channelCount`.
    public init(width: Int, height: Int, components: [Format.Component]) {
        precondition(width > 0 && height > 0, "image size must be positive, got \(width)×\(height)")
        precondition(components.count == width * height * Format.channelCount,
                     "expected \(width * height * Format.channelCount) components, got \(components.count)")
        self.width = width
        self.height = height
        self.components = components
    }

    /// The index of channel `channel` of pixel (`x`, `y`) in `components`.
    @inlinable public func index(x: Int, y: Int, channel: Int = 0) -> Int {
        (y * width + x) * Format.channelCount + channel
    }

    /// The `width × height` pixels whose top-left corner is (`x`, `y`); the rectangle must lie inside.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> Image {
        precondition(x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= self.width && y + height <= self.height,
                     "crop \(width)×\(height) at (\(x), \(y)) outside \(self.width)×\(self.height)")
        var out = [Format.Component]()
        out.reserveCapacity(width * height * Format.channelCount)
        for row in y..<(y + height) {
            let start = index(x: x, y: row)
            out += components[start..<(start + width * Format.channelCount)]
        }
        return Image(width: width, height: height, components: out)
    }

    /// Channel value of one pixel (bounds-checked; for tests and non-hot code).
    @inlinable public subscript(x: Int, y: Int, channel: Int) -> Format.Component {
        get { components[index(x: x, y: y, channel: channel)] }
        set { components[index(x: x, y: y, channel: channel)] = newValue }
    }
}

public typealias RGB8Image = Image<RGB8>
public typealias RGBA8Image = Image<RGBA8>
public typealias Gray8Image = Image<Gray8>
public typealias Gray16Image = Image<Gray16>

extension Image where Format == RGB8 {
    /// The same pixels with an opaque alpha channel.
    public func withAlpha() -> RGBA8Image {
        var out = [UInt8](repeating: 255, count: pixelCount * 4)
        components.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<pixelCount {
                    dst[4 * i] = src[3 * i]; dst[4 * i + 1] = src[3 * i + 1]; dst[4 * i + 2] = src[3 * i + 2]
                }
            }
        }
        return RGBA8Image(width: width, height: height, components: out)
    }
}

extension Image where Format == RGBA8 {
    /// The colour channels when every pixel is opaque (alpha 255: nothing is lost), else nil; one pass.
    public func droppingOpaqueAlpha() -> RGB8Image? {
        var alphas: UInt8 = 255
        let out = [UInt8](unsafeUninitializedCapacity: pixelCount * 3) { dst, initialized in
            components.withUnsafeBufferPointer { src in
                for i in 0..<pixelCount {
                    dst[3 * i] = src[4 * i]; dst[3 * i + 1] = src[4 * i + 1]; dst[3 * i + 2] = src[4 * i + 2]
                    alphas &= src[4 * i + 3]
                }
            }
            initialized = pixelCount * 3
        }
        return alphas == 255 ? RGB8Image(width: width, height: height, components: out) : nil
    }

    /// The colour channels only (alpha dropped, not composited).
    public func droppingAlpha() -> RGB8Image {
        var out = [UInt8](repeating: 0, count: pixelCount * 3)
        components.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<pixelCount {
                    dst[3 * i] = src[4 * i]; dst[3 * i + 1] = src[4 * i + 1]; dst[3 * i + 2] = src[4 * i + 2]
                }
            }
        }
        return RGB8Image(width: width, height: height, components: out)
    }
}

/// An opaque 8-bit sRGB colour.
public struct RGBColor: Sendable, Hashable {
    public var red: UInt8, green: UInt8, blue: UInt8
    public init(red: UInt8, green: UInt8, blue: UInt8) { self.red = red; self.green = green; self.blue = blue }
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    public static let white = RGBColor(red: 255, green: 255, blue: 255)
}
