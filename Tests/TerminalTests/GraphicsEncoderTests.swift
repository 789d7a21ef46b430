import Foundation
import Imaging
import Testing
import TestSupport
@testable import Terminal

/// The APC sequences of a kitty frame, parsed back: (control keys, payload) per sequence.
private func kittyCommands(_ bytes: [UInt8]) throws -> [(control: [String: String], payload: String)] {
    var commands: [(control: [String: String], payload: String)] = []
    var i = 0
    while i < bytes.count {
        try #require(Array(bytes[i..<i + 3]) == [0x1B, 0x5F, 0x47], "APC G at \(i)")
        var j = i + 3
        while !(bytes[j] == 0x1B && bytes[j + 1] == 0x5C) { j += 1 }
        let body = String(decoding: bytes[(i + 3)..<j], as: UTF8.self)
        let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        var control: [String: String] = [:]
        for pair in parts[0].split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            control[String(kv[0])] = String(kv[1])
        }
        commands.append((control, parts.count > 1 ? String(parts[1]) : ""))
        i = j + 2
    }
    return commands
}

private func noise(width: Int, height: Int, seed: UInt64) -> RGB8Image {
    var rng = SeededGenerator(seed: seed)
    return RGB8Image(width: width, height: height, components: (0..<width * height * 3).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
}

@Suite struct KittyGraphicsTests {
    @Test(arguments: [(1, 1), (40, 30), (64, 64), (97, 53)]) func chunksDecodeToTheFrame(width: Int, height: Int) throws {
        let image = noise(width: width, height: height, seed: UInt64(width))
        var encoder = KittyGraphicsEncoder(imageID: 77, placementID: 3)
        let commands = try kittyCommands(try encoder.encode(image, columns: 20, rows: 10))
        let first = commands[0].control
        #expect(first["a"] == "T" && first["f"] == "24" && first["i"] == "77" && first["p"] == "3" && first["q"] == "2")
        #expect(first["s"] == "\(width)" && first["v"] == "\(height)" && first["c"] == "20" && first["r"] == "10" && first["C"] == "1")
        for (k, command) in commands.enumerated() {
            #expect(command.payload.utf8.count <= 4096 && command.payload.utf8.count % 4 == 0)
            #expect(command.control["m"] == (k == commands.count - 1 ? "0" : "1"))
            if k > 0 { #expect(command.control.count == 1, "only m= on continuation chunks") }
        }
        let expectedChunks = max(1, (width * height * 3 + 2) / 3 * 4 / 4096 + ((width * height * 3 + 2) / 3 * 4 % 4096 == 0 ? 0 : 1))
        #expect(commands.count == expectedChunks)
        let data = try #require(Data(base64Encoded: commands.map(\.payload).joined()))
        #expect([UInt8](data) == image.components)
    }

    @Test func framesReuseOneImageAndPlacement() throws {
        var encoder = KittyGraphicsEncoder()
        let a = try kittyCommands(try encoder.encode(noise(width: 8, height: 8, seed: 1)))
        let b = try kittyCommands(try encoder.encode(noise(width: 9, height: 7, seed: 2)))
        #expect(a[0].control["i"] == b[0].control["i"] && a[0].control["p"] == b[0].control["p"])
        #expect(a[0].control["c"] == nil)
        #expect(String(decoding: encoder.deleteSequence, as: UTF8.self) == "\u{1B}_Ga=d,d=I,i=\(encoder.imageID),q=2\u{1B}\\")
    }

    @Test func sharedMemoryHoldsTheFrame() throws {
        let image = noise(width: 33, height: 21, seed: 9)
        var encoder = KittyGraphicsEncoder(transmission: .sharedMemory)
        defer { encoder.releaseSharedMemory() }
        let commands = try kittyCommands(try encoder.encode(image))
        #expect(commands.count == 1)
        #expect(commands[0].control["t"] == "s" && commands[0].control["S"] == "\(image.components.count)")
        let name = String(decoding: try #require(Data(base64Encoded: commands[0].payload)), as: UTF8.self)
        let fd = shm_open(name, O_RDONLY, 0)
        try #require(fd >= 0, "shm_open \(name)")
        defer { close(fd) }
        var read = [UInt8](repeating: 0, count: image.components.count)
        #expect(Glibc.read(fd, &read, read.count) == read.count)
        #expect(read == image.components)
        // Older frames are unlinked once two newer ones exist.
        _ = try encoder.encode(image)
        _ = try encoder.encode(image)
        #expect(shm_open(name, O_RDONLY, 0) == -1)
    }
}

/// An independent sixel decoder (DEC's format as in the VT330/340 manual): `#n;2;r;g;b` defines a
/// colour in percent, `#n` selects, `!n c` repeats, `$` returns to the band's left, `-` goes to the
/// next six-row band, `?`…`~` are six vertical pixels (bit 0 on top). HLS colours are not supported.
private func decodeSixel(_ bytes: [UInt8]) throws -> RGB8Image {
    var i = 0
    while i < bytes.count, bytes[i] != 0x71 { i += 1 }  // 'q' ends the DCS parameters
    i += 1
    var palette = [Int: (UInt8, UInt8, UInt8)]()
    var width = 0, height = 0
    var pixels: [Int: (UInt8, UInt8, UInt8)] = [:]
    var x = 0, band = 0, color = 0
    func number() -> [Int] {
        var values: [Int] = [], current = 0, any = false
        while i < bytes.count {
            let c = bytes[i]
            if (0x30...0x39).contains(c) { current = current * 10 + Int(c - 0x30); any = true } else if c == 0x3B {
                values.append(current); current = 0; any = false
            } else { break }
            i += 1
        }
        if any || !values.isEmpty { values.append(current) }
        return values
    }
    while i < bytes.count {
        let c = bytes[i]
        switch c {
        case 0x1B: i = bytes.count
        case 0x22: i += 1; let v = number(); if v.count >= 4 { width = v[2]; height = v[3] }
        case 0x23:
            i += 1
            let v = number()
            if v.count >= 5 {
                try #require(v[1] == 2, "RGB colours only")
                palette[v[0]] = (UInt8((v[2] * 255 + 50) / 100), UInt8((v[3] * 255 + 50) / 100), UInt8((v[4] * 255 + 50) / 100))
            }
            color = v[0]
        case 0x21:
            i += 1
            let n = number()[0]
            let bits = Int(bytes[i]) - 63
            for k in 0..<6 where bits & (1 << k) != 0 { for dx in 0..<n { pixels[(band * 6 + k) << 16 | (x + dx)] = palette[color] } }
            x += n; i += 1
        case 0x24: x = 0; i += 1
        case 0x2D: x = 0; band += 1; i += 1
        case 0x3F...0x7E:
            let bits = Int(c) - 63
            for k in 0..<6 where bits & (1 << k) != 0 { pixels[(band * 6 + k) << 16 | x] = palette[color] }
            x += 1; i += 1
        default: i += 1
        }
    }
    var image = RGB8Image(width: width, height: height)
    for y in 0..<height { for x in 0..<width {
        let p = try #require(pixels[y << 16 | x], "pixel (\(x), \(y)) not painted")
        image[x, y, 0] = p.0; image[x, y, 1] = p.1; image[x, y, 2] = p.2
    } }
    return image
}

@Suite struct SixelEncoderTests {
    /// A smooth two-axis gradient with three flat patches. Tolerance: PSNR ≥ 30 dB overall (256 adaptive
    /// colours; the percent colour units alone cost up to 1.3 levels) and each flat patch within 10 levels
    /// per channel (libsixel's median cut shares palette entries: 7–8 levels seen).
    @Test(arguments: [SixelEncoder.Diffusion.none, .floydSteinberg]) func decodesBackToTheFrame(diffusion: SixelEncoder.Diffusion) throws {
        var image = RGB8Image(width: 96, height: 50)
        for y in 0..<50 { for x in 0..<96 {
            image[x, y, 0] = UInt8(x * 255 / 95); image[x, y, 1] = UInt8(y * 255 / 49); image[x, y, 2] = UInt8(128 + (x - y) / 2)
        } }
        let patches: [(Int, Int, (UInt8, UInt8, UInt8))] = [(5, 5, (250, 20, 30)), (40, 20, (10, 10, 200)), (70, 33, (255, 255, 255))]
        for (px, py, c) in patches { for y in py..<py + 10 { for x in px..<px + 12 { image[x, y, 0] = c.0; image[x, y, 1] = c.1; image[x, y, 2] = c.2 } } }
        let original = image
        let bytes = try SixelEncoder(diffusion: diffusion).encode(image)
        #expect(image == original, "the input is not modified")
        #expect(bytes.starts(with: [0x1B, 0x50]) && bytes.suffix(2) == [0x1B, 0x5C])
        let decoded = try decodeSixel(bytes)
        #expect(decoded.width == 96 && decoded.height == 50)
        var squared = 0.0
        for k in 0..<image.components.count { let d = Double(image.components[k]) - Double(decoded.components[k]); squared += d * d }
        let psnr = 10 * log10(255 * 255 / (squared / Double(image.components.count)))
        #expect(psnr >= 30, "PSNR \(psnr) dB")
        print("sixel \(diffusion): \(bytes.count) bytes, PSNR \(psnr) dB")
        for (px, py, c) in patches {
            let x = px + 6, y = py + 5
            for (k, v) in [c.0, c.1, c.2].enumerated() { #expect(abs(Int(decoded[x, y, k]) - Int(v)) <= 10, "patch at \(px),\(py) channel \(k)") }
        }
    }
}
