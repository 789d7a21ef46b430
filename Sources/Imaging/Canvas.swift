/// Anti-aliased drawing onto an RGBA8 image: fills, strokes, circles, rings and image compositing,
/// all clipped to the image and composited premultiplied with a `BlendMode`.
///
/// Coordinates are pixels as `Double` with pixel centres at (x + 0.5, y + 0.5) (see `PixelPoint`).
/// A canvas owns its rasterizer scratch buffers and reuses them, so keep one canvas per image rather
/// than making one per shape. Value type: copying a canvas copies the image (copy-on-write).
///
/// Shapes that share an edge and a colour (a mesh, map polygons of one class) should be filled as
/// one `Path`: one call rasterises them seamlessly. Filled one by one, each anti-aliases its own
/// edge and the shared edge lets a trace of the backdrop through (about 25 % on a diagonal edge
/// pixel), as in every coverage-based renderer.
public struct Canvas: Sendable {
    /// The pixels drawn so far (straight alpha, see `Image`).
    public var image: RGBA8Image
    private var rasterizer = Rasterizer()
    /// The whole picture's size when the canvas holds only a window of it (nil: `image` is the picture).
    private var picture: PixelSize?
    /// Where `image`'s top-left pixel lies in the picture, pixels (0, 0 unless a window).
    public private(set) var windowX = 0, windowY = 0

    /// A canvas drawing onto `image`.
    public init(image: RGBA8Image) { self.image = image }

    /// A canvas over a `width`×`height` picture that keeps only the pixels of the window
    /// `windowWidth`×`windowHeight` at (`windowX`, `windowY`): every call takes picture coordinates,
    /// and `image` is the window, pixel for pixel what the whole picture cut to the window would be
    /// (fills are rasterised over the window's rows only; the arithmetic per pixel is unchanged).
    /// A map tile drawn with a margin for its labels rasterises only the tile this way.
    public init(width: Int, height: Int, background: RGBAColor = .clear,
                windowX: Int, windowY: Int, windowWidth: Int, windowHeight: Int) {
        precondition(windowX >= 0 && windowY >= 0 && windowWidth > 0 && windowHeight > 0
                     && windowX + windowWidth <= width && windowY + windowHeight <= height, "window outside the picture")
        self.init(width: windowWidth, height: windowHeight, background: background)
        picture = PixelSize(width: width, height: height)
        self.windowX = windowX
        self.windowY = windowY
    }

    /// A new `width`×`height` image filled with `background` (transparent by default).
    public init(width: Int, height: Int, background: RGBAColor = .clear) {
        var image = RGBA8Image(width: width, height: height)
        if background != .clear {
            // One 32-bit store per pixel (the four bytes in memory order).
            let pixel = UInt32(background.red) | UInt32(background.green) << 8
                | UInt32(background.blue) << 16 | UInt32(background.alpha) << 24
            image.components.withUnsafeMutableBytes { raw in
                let bytes = pixel.littleEndian
                for offset in stride(from: 0, to: raw.count, by: 4) {
                    raw.storeBytes(of: bytes, toByteOffset: offset, as: UInt32.self)
                }
            }
        }
        self.image = image
    }

    /// Picture width in pixels (the image's, unless the canvas holds a window).
    public var width: Int { picture?.width ?? image.width }
    /// Picture height in pixels (the image's, unless the canvas holds a window).
    public var height: Int { picture?.height ?? image.height }

    /// Fills the inside of `path` (every subpath closed implicitly) under `rule`.
    public mutating func fill(_ path: Path, color: RGBAColor, rule: FillRule = .nonZero,
                              blendMode: BlendMode = .normal) {
        // A transparent source leaves the backdrop unchanged in every mode (αs = 0 in the general formula).
        guard color.alpha > 0 else { return }
        let premultiplied = color.premultiplied
        let imageWidth = image.width, x0 = windowX, y0 = windowY, x1 = windowX + imageWidth
        let rows = y0..<(y0 + image.height), pictureWidth = width, pictureHeight = height
        image.components.withUnsafeMutableBufferPointer { pixels in
            let base = pixels.baseAddress!
            rasterizer.fill(path, rule: rule, width: pictureWidth, height: pictureHeight, rows: rows, columns: x0..<x1) { y, x, count, coverage in
                let start = max(x, x0), end = min(x + count, x1)
                guard start < end else { return }
                Compositing.blendSolidRow(base + ((y - y0) * imageWidth + start - x0) * 4, coverage: coverage + (start - x),
                                          count: end - start, color: premultiplied, mode: blendMode)
            }
        }
    }

    /// Strokes every subpath of `path` with `style` (caps on open subpaths, joins at corners).
    public mutating func stroke(_ path: Path, style: StrokeStyle, color: RGBAColor,
                                blendMode: BlendMode = .normal) {
        fill(Stroker.outline(of: path, style: style), color: color, rule: .nonZero, blendMode: blendMode)
    }

    /// Draws a straight line of `width` pixels from `start` to `end`.
    public mutating func drawLine(from start: PixelPoint, to end: PixelPoint, width: Double,
                                  cap: StrokeStyle.Cap = .butt, color: RGBAColor) {
        stroke(Path(polyline: [start, end]), style: StrokeStyle(width: width, cap: cap), color: color)
    }

    /// Draws an open polyline through `points` (`closed: true` joins the last point to the first).
    public mutating func drawPolyline(_ points: [PixelPoint], style: StrokeStyle, color: RGBAColor,
                                      closed: Bool = false) {
        stroke(Path(polyline: points, closed: closed), style: style, color: color)
    }

    /// Fills a polygon given as an outer contour and any number of holes (each a closed contour).
    /// With `.evenOdd` the holes' directions do not matter; with `.nonZero` a hole must run opposite
    /// to the outer contour.
    public mutating func fillPolygon(_ outer: [PixelPoint], holes: [[PixelPoint]] = [], color: RGBAColor,
                                     rule: FillRule = .evenOdd) {
        var path = Path()
        path.addPolygon(outer)
        for hole in holes { path.addPolygon(hole) }
        fill(path, color: color, rule: rule)
    }

    /// Fills a disc of `radius` pixels around `center`.
    public mutating func fillCircle(center: PixelPoint, radius: Double, color: RGBAColor) {
        fill(Path.circle(center: center, radius: radius), color: color)
    }

    /// Strokes a circle of `radius` pixels with a line `width` pixels wide, centred on the circle.
    public mutating func strokeCircle(center: PixelPoint, radius: Double, width: Double, color: RGBAColor) {
        fillRing(center: center, innerRadius: max(0, radius - width / 2), outerRadius: radius + width / 2,
                 color: color)
    }

    /// Fills the ring between `innerRadius` and `outerRadius` pixels (0 ≤ inner < outer).
    public mutating func fillRing(center: PixelPoint, innerRadius: Double, outerRadius: Double,
                                  color: RGBAColor) {
        guard outerRadius > innerRadius else { return }
        var path = Path()
        path.addRing(center: center, innerRadius: innerRadius, outerRadius: outerRadius)
        fill(path, color: color, rule: .nonZero)
    }

    /// Composites `source` with its top-left corner at (`x`, `y`) pixels, its alpha scaled by
    /// `opacity` (0…1), with `blendMode`. Parts outside the canvas are ignored.
    public mutating func draw(_ source: RGBA8Image, x: Int, y: Int, opacity: Float = 1,
                              blendMode: BlendMode = .normal) {
        Compositing.composite(source, onto: &image, x: x - windowX, y: y - windowY, opacity: opacity, mode: blendMode)
    }

    /// Fills the whole canvas with `color` composited with `blendMode`.
    public mutating func fillAll(_ color: RGBAColor, blendMode: BlendMode = .normal) {
        var path = Path()
        path.addRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
        fill(path, color: color, blendMode: blendMode)
    }

    /// Blends `color` through an 8-bit coverage mask (`maskWidth`×`maskHeight`, row-major) whose
    /// top-left pixel lands on (`x`, `y`); used for glyphs. Clipped to the canvas.
    mutating func blendMask(_ mask: UnsafeBufferPointer<UInt8>, maskWidth: Int, maskHeight: Int,
                            x pictureX: Int, y pictureY: Int, color: RGBAColor, blendMode: BlendMode) {
        let x = pictureX - windowX, y = pictureY - windowY
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(image.width, x + maskWidth), y1 = min(image.height, y + maskHeight)
        guard x0 < x1, y0 < y1, let maskBase = mask.baseAddress else { return }
        let premultiplied = color.premultiplied
        let width = image.width
        image.components.withUnsafeMutableBufferPointer { pixels in
            for row in y0..<y1 {
                Compositing.blendMaskRow(pixels.baseAddress! + (row * width + x0) * 4,
                                         mask: maskBase + (row - y) * maskWidth + (x0 - x),
                                         count: x1 - x0, color: premultiplied, mode: blendMode)
            }
        }
    }
}
