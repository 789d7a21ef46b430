import Foundation
import Testing
@testable import Imaging

// MARK: A tiny PNG writer for test inputs: every colour type, bit depth, palette, tRNS, Adam7.

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        crc ^= UInt32(b)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

private func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)] }

private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be32(UInt32(data.count)) + body + be32(crc32(body))
}

/// zlib with stored (uncompressed) blocks: valid, simple, independent of the code under test.
private func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var i = 0
    repeat {
        let n = min(65_535, data.count - i)
        let final: UInt8 = i + n == data.count ? 1 : 0
        out += [final, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)]
        out += data[i..<(i + n)]
        i += n
    } while i < data.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
    return out + be32(b << 16 | a)
}

/// A PNG test source: sample values (0…2^depth−1) per pixel and channel.
struct PNGSource: Sendable, CustomTestStringConvertible {
    var colorType: UInt8          // 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
    var depth: Int
    var interlaced: Bool
    var width = 13, height = 11
    var transparent: [Int]? = nil // tRNS for grey/RGB: the transparent sample values
    var testDescription: String {
        "type \(colorType) depth \(depth)\(interlaced ? " Adam7" : "")\(transparent != nil ? " tRNS" : "")"
    }

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)] ?? 1 }
    var maxSample: Int { (1 << depth) - 1 }
    /// Palette entries (RGB) and their alphas, for colour type 3.
    var palette: [(UInt8, UInt8, UInt8)] {
        (0...min(maxSample, 255)).map { (i: Int) -> (UInt8, UInt8, UInt8) in
            let r = UInt8((i * 37) & 255), g = UInt8((i * 91) & 255), b = UInt8(255 - i)
            return (r, g, b)
        }
    }
    var paletteAlpha: [UInt8] { (0...min(maxSample, 255)).prefix(5).map { UInt8($0 * 60) } }

    func sample(_ x: Int, _ y: Int, _ c: Int) -> Int { (x * 29 + y * 57 + c * 101 + x * y * 3) % (maxSample + 1) }

    func encoded() -> [UInt8] {
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [UInt8(depth), colorType, 0, 0, interlaced ? 1 : 0]
        var file = PNGCodec.signature + chunk("IHDR", ihdr)
        if colorType == 3 {
            file += chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] })
            file += chunk("tRNS", paletteAlpha)
        } else if let transparent {
            file += chunk("tRNS", transparent.flatMap { [UInt8($0 >> 8), UInt8($0 & 255)] })
        }
        var raw: [UInt8] = []
        let passes = interlaced ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
                                : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx)), ys = Array(stride(from: y0, to: height, by: dy))
            guard !xs.isEmpty, !ys.isEmpty else { continue }
            for y in ys {
                raw.append(0)
                var bits: [Int] = []
                for x in xs { for c in 0..<channels { bits.append(sample(x, y, c)) } }
                if depth == 16 {
                    for v in bits { raw += [UInt8(v >> 8), UInt8(v & 255)] }
                } else {
                    var acc = 0, n = 0
                    for v in bits {
                        acc = acc << depth | v; n += depth
                        if n == 8 { raw.append(UInt8(acc)); acc = 0; n = 0 }
                    }
                    if n > 0 { raw.append(UInt8(acc << (8 - n))) }
                }
            }
        }
        file += chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
        return file
    }

    /// What decodeRGBA must return (libpng's documented conversions).
    func expectedRGBA() -> [UInt8] {
        var out: [UInt8] = []
        func to8(_ v: Int) -> UInt8 { depth == 16 ? UInt8(v >> 8) : UInt8(v * 255 / maxSample) }
        for y in 0..<height {
            for x in 0..<width {
                let s = (0..<channels).map { sample(x, y, $0) }
                switch colorType {
                case 0:
                    let alpha: UInt8 = transparent.map { $0[0] == s[0] ? 0 : 255 } ?? 255
                    out += [to8(s[0]), to8(s[0]), to8(s[0]), alpha]
                case 2:
                    let alpha: UInt8 = transparent.map { $0 == s ? 0 : 255 } ?? 255
                    out += [to8(s[0]), to8(s[1]), to8(s[2]), alpha]
                case 3:
                    let p = palette[s[0]]
                    out += [p.0, p.1, p.2, s[0] < paletteAlpha.count ? paletteAlpha[s[0]] : 255]
                case 4: out += [to8(s[0]), to8(s[0]), to8(s[0]), to8(s[1])]
                default: out += [to8(s[0]), to8(s[1]), to8(s[2]), to8(s[3])]
                }
            }
        }
        return out
    }

    /// What decodeGray16 must return for a grey source (exact; 8-bit and less are widened).
    func expectedGray16() -> [UInt16] {
        var out: [UInt16] = []
        for y in 0..<height {
            for x in 0..<width {
                let v = sample(x, y, 0)
                out.append(depth == 16 ? UInt16(v) : UInt16(v * 255 / maxSample) * 257)
            }
        }
        return out
    }
}

let pngSources: [PNGSource] = {
    var s: [PNGSource] = []
    for interlaced in [false, true] {
        for depth in [1, 2, 4, 8, 16] { s.append(PNGSource(colorType: 0, depth: depth, interlaced: interlaced)) }
        for depth in [8, 16] {
            s.append(PNGSource(colorType: 2, depth: depth, interlaced: interlaced))
            s.append(PNGSource(colorType: 4, depth: depth, interlaced: interlaced))
            s.append(PNGSource(colorType: 6, depth: depth, interlaced: interlaced))
        }
        for depth in [1, 2, 4, 8] { s.append(PNGSource(colorType: 3, depth: depth, interlaced: interlaced)) }
        s.append(PNGSource(colorType: 0, depth: 8, interlaced: interlaced, transparent: [57]))
        s.append(PNGSource(colorType: 2, depth: 8, interlaced: interlaced, transparent: [101, 202, 47]))
        s.append(PNGSource(colorType: 0, depth: 16, interlaced: interlaced, width: 1, height: 1))
    }
    return s
}()

@Suite("PNG decoding")
struct PNGDecodeTests {
    @Test("every colour type, depth, palette+tRNS and Adam7 decodes to exact RGBA", arguments: pngSources)
    func decodesRGBA(_ source: PNGSource) throws {
        let image = try PNGCodec.decodeRGBA(source.encoded())
        #expect(image.width == source.width && image.height == source.height)
        #expect(image.components == source.expectedRGBA())
        let rgb = try PNGCodec.decodeRGB(source.encoded())
        #expect(rgb == image.droppingAlpha())
    }

    @Test("grey sources decode to exact 16-bit values (no linear-light conversion)",
          arguments: pngSources.filter { $0.colorType == 0 })
    func decodesGray16(_ source: PNGSource) throws {
        let image = try PNGCodec.decodeGray16(source.encoded())
        #expect(image.components == source.expectedGray16())
        let gray8 = try PNGCodec.decodeGray8(source.encoded())
        #expect(gray8.components == source.expectedRGBA().enumerated().filter { $0.offset % 4 == 0 }.map(\.element))
    }

    @Test("header reading gives size, depth, colour type and interlace without decoding")
    func header() throws {
        let h = try PNGCodec.readHeader(PNGSource(colorType: 6, depth: 16, interlaced: true).encoded())
        #expect(h == PNGCodec.Header(width: 13, height: 11, bitDepth: 16, colorType: 6, isInterlaced: true))
    }
}

@Suite("PNG encoding")
struct PNGEncodeTests {
    static let sizes: [(Int, Int)] = [(1, 1), (2, 1), (1, 3), (3, 5), (17, 9), (64, 3), (129, 7), (301, 200)]

    @Test("an opaque RGBA image drops its alpha losslessly (RGB decodes back to the same RGBA); any other is refused")
    func droppingOpaqueAlpha() throws {
        var rgba = RGBA8Image(width: 17, height: 9, components: mixedBytes(count: 17 * 9 * 4, seed: 7))
        for i in stride(from: 3, to: rgba.components.count, by: 4) { rgba.components[i] = 255 }
        let rgb = try #require(rgba.droppingOpaqueAlpha())
        #expect(rgb == rgba.droppingAlpha())
        #expect(try PNGCodec.decodeRGBA(PNGCodec.encode(rgb)) == rgba)
        rgba.components[4 * 100 + 3] = 254
        #expect(rgba.droppingOpaqueAlpha() == nil)
    }

    @Test("RGB, RGBA, Gray8 and Gray16 round-trip exactly through libpng",
          arguments: sizes.map { PixelSize(width: $0.0, height: $0.1) },
          [PNGEncodeOptions.Compression.fast, .balanced])
    func roundTrip(_ size: PixelSize, _ compression: PNGEncodeOptions.Compression) throws {
        let options = PNGEncodeOptions(compression: compression)
        let w = size.width, h = size.height, seed = UInt64(w * 1000 + h)
        let rgb = RGB8Image(width: w, height: h, components: mixedBytes(count: w * h * 3, seed: seed))
        #expect(try PNGCodec.decodeRGB(PNGCodec.encode(rgb, options: options)) == rgb)
        let rgba = RGBA8Image(width: w, height: h, components: mixedBytes(count: w * h * 4, seed: seed + 1))
        #expect(try PNGCodec.decodeRGBA(PNGCodec.encode(rgba, options: options)) == rgba)
        let gray = Gray8Image(width: w, height: h, components: mixedBytes(count: w * h, seed: seed + 2))
        #expect(try PNGCodec.decodeGray8(PNGCodec.encode(gray, options: options)) == gray)
        let depthBytes = mixedBytes(count: w * h * 2, seed: seed + 3)
        let depth = Gray16Image(width: w, height: h,
                                components: (0..<(w * h)).map { UInt16(depthBytes[2 * $0]) << 8 | UInt16(depthBytes[2 * $0 + 1]) })
        let depthPNG = try PNGCodec.encode(depth, options: options)
        #expect(try PNGCodec.decodeGray16(depthPNG) == depth)
        #expect(try PNGCodec.readHeader(depthPNG).bitDepth == 16)
    }

    @Test("flat images (runs of 258 across Huffman blocks) and the smallest setting round-trip")
    func flatAndSmallest() throws {
        let flat = RGBA8Image(width: 700, height: 300, fill: 77)
        let png = try PNGCodec.encode(flat)
        #expect(try PNGCodec.decodeRGBA(png) == flat)
        #expect(png.count < 4_000, "runs make a flat image tiny, got \(png.count) bytes")
        let small = RGB8Image(width: 40, height: 30, components: mixedBytes(count: 3600, seed: 9))
        #expect(try PNGCodec.decodeRGB(PNGCodec.encode(small, options: PNGEncodeOptions(compression: .smallest))) == small)
    }

    @Test("the slower settings are never larger than .fast")
    func balancedNotLarger() throws {
        let image = RGB8Image(width: 200, height: 100, components: mixedBytes(count: 60_000, seed: 4))
        let fast = try PNGCodec.encode(image).count
        let balanced = try PNGCodec.encode(image, options: PNGEncodeOptions(compression: .balanced)).count
        #expect(balanced <= fast)
    }

    @Test("the fast filter loop matches the scalar reference",
          arguments: PNGFilter.allCases, [1, 2, 3, 4, 6, 8])
    func filterMatchesReference(_ filter: PNGFilter, _ bytesPerPixel: Int) {
        for length in [1, 2, 3, 7, 8, 15, 16, 31, 64, 67] {
            let row = mixedBytes(count: length, seed: UInt64(length)), previous = mixedBytes(count: length, seed: 99)
            #expect(PNGFilter.fast(filter, row: row, previous: previous, bytesPerPixel: bytesPerPixel)
                    == PNGFilter.reference(filter, row: row, previous: previous, bytesPerPixel: bytesPerPixel))
            #expect(PNGFilter.fast(filter, row: row, previous: [], bytesPerPixel: bytesPerPixel)
                    == PNGFilter.reference(filter, row: row, previous: [], bytesPerPixel: bytesPerPixel))
        }
    }

    @Test("length-limited Huffman codes stay within the limit and form a complete prefix code")
    func huffmanLimit() {
        // Fibonacci frequencies force an unlimited Huffman tree 40 deep.
        var fib: [UInt32] = [1, 1]
        while fib.count < 40 { fib.append(min(fib[fib.count - 1] + fib[fib.count - 2], 1 << 30)) }
        for limit in [7, 12, 15] {
            var lengths = [UInt8](repeating: 0, count: fib.count)
            HuffmanCode.lengths(fib, maximumBits: limit, into: &lengths)
            #expect(lengths.allSatisfy { $0 >= 1 && Int($0) <= limit })
            let kraft = lengths.reduce(0.0) { $0 + pow(2.0, -Double($1)) }
            #expect(abs(kraft - 1) < 1e-12)
        }
        var single = [UInt8](repeating: 0, count: 5)
        HuffmanCode.lengths([0, 0, 9, 0, 0], maximumBits: 15, into: &single)
        #expect(single.filter { $0 > 0 }.count == 2, "a lone symbol gets a partner so the code is complete")
    }
}
