extension ProjectionSource {
    /// `text` rendered as ``TextRenderer/draw(_:at:style:on:blendMode:)`` draws it on a transparent
    /// `width`×`height` canvas (baseline starting at `origin`; halo under the glyphs), but in one pass
    /// straight into premultiplied pixels: the halo masks and the glyph masks are each merged
    /// (maximum coverage), then every pixel is glyph over halo. Agrees with the canvas route to a
    /// level per channel (which rounds to 8 bits; this keeps the fraction).
    /// - Throws: `ImagingError.invalidParameter` for an out-of-range pixel size or halo width, or a
    ///   size that is not positive.
    public init(text: String, style: TextStyle, origin: PixelPoint, width: Int, height: Int, renderer: TextRenderer) throws {
        guard width > 0, height > 0, width <= 1 << 14, height <= 1 << 14 else {
            throw ImagingError.invalidParameter(name: "text image size", value: "\(width)×\(height)",
                                                allowed: "1…16384 pixels each way")
        }
        let layout = try renderer.fonts.layout(text, style: style, origin: origin)
        var glyphs = [UInt8](repeating: 0, count: width * height)
        var halos = [UInt8](repeating: 0, count: width * height)
        func merge(_ placed: [FontLibrary.PlacedGlyph], into union: inout [UInt8]) {
            union.withUnsafeMutableBufferPointer { out in
                for p in placed where p.bitmap.width > 0 && p.bitmap.height > 0 {
                    let b = p.bitmap
                    let x0 = max(p.x, 0), y0 = max(p.y, 0), x1 = min(p.x + b.width, width), y1 = min(p.y + b.height, height)
                    guard x0 < x1, y0 < y1 else { continue }
                    b.coverage.withUnsafeBufferPointer { mask in
                        for y in y0..<y1 {
                            let source = (y - p.y) * b.width - p.x, target = y * width
                            for x in x0..<x1 { out[target + x] = max(out[target + x], mask[source + x]) }
                        }
                    }
                }
            }
        }
        merge(layout.glyphs, into: &glyphs)
        if style.halo != nil { merge(layout.halos, into: &halos) }
        // Source-over of the glyph (colour C, coverage g) on the halo (H, h), premultiplied 0…255.
        let color = style.color.premultiplied.simd * 255, halo = (style.halo?.color.premultiplied.simd ?? SIMD4(repeating: 0)) * 255
        let colorAlpha = style.color.premultiplied.alpha
        let stride = width + 2
        let texels = TexelBuffer(zeroedCount: stride * (height + 2))
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        glyphs.withUnsafeBufferPointer { g in
            halos.withUnsafeBufferPointer { h in
                texels.fill { out in
                    for y in 0..<height {
                        var rowMin = Int.max, rowMax = Int.min
                        for x in 0..<width {
                            let i = y * width + x
                            let gc = g[i], hc = h[i]
                            guard gc | hc != 0 else { continue }
                            let glyph = Float(gc) * (1 / 255), under = Float(hc) * (1 / 255)
                            let v = color * glyph + halo * (under * (1 - colorAlpha * glyph))
                            guard v.w >= 0.5 else { continue }
                            if rowMin == Int.max { rowMin = x }
                            rowMax = x
                            out[(y + 1) * stride + x + 1] = v
                        }
                        if rowMin != Int.max {
                            minX = min(minX, rowMin); maxX = max(maxX, rowMax + 1)
                            minY = min(minY, y); maxY = max(maxY, y + 1)
                        }
                    }
                }
            }
        }
        self.init(width: width, height: height, texels: texels, ink: minX == Int.max ? nil : (minX, minY, maxX, maxY))
    }
}
