import Foundation
import Imaging
import Testing

/// Images whose headers claim absurd sizes: refused from the header, before the pixels are allocated,
/// with the budget named; the process's peak memory barely moves.
@Suite struct HostileImageTests {
    /// Peak resident memory of this process so far, bytes (Linux reports ru_maxrss in KiB).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    /// A real 16×16 JPEG whose SOF0 frame header is patched to claim `width`×`height`.
    static func jpeg(claiming width: Int, _ height: Int) throws -> [UInt8] {
        var bytes = try JPEGCodec.encode(RGB8Image(width: 16, height: 16, components: [UInt8](repeating: 128, count: 16 * 16 * 3)))
        var i = 2
        while i + 9 < bytes.count {
            precondition(bytes[i] == 0xFF, "walked off the JPEG markers")
            let marker = bytes[i + 1], length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xC0 {
                bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
                bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
                return bytes
            }
            i += 2 + length
        }
        Issue.record("no SOF0 marker")
        return bytes
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// A real 16×16 PNG whose IHDR is patched (with a correct CRC) to claim `width`×`height`.
    static func png(claiming width: UInt32, _ height: UInt32) throws -> [UInt8] {
        var bytes = try PNGCodec.encode(RGB8Image(width: 16, height: 16, components: [UInt8](repeating: 7, count: 16 * 16 * 3)))
        // Signature (8), IHDR length (4), "IHDR" (4), then width and height, big-endian.
        for (k, value) in [width, height].enumerated() {
            for b in 0..<4 { bytes[16 + 4 * k + b] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(b))) }
        }
        let crc = crc32(bytes[12..<29])
        for b in 0..<4 { bytes[29 + b] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(b))) }
        return bytes
    }

    /// Every one of `decodes` throws `exceedsPixelBudget` for a `width`×`height` image against the default
    /// budget, naming the budget, without the process's peak memory growing by 64 MiB.
    static func expectRefusedByTheBudget(_ what: String, width: Int, height: Int, _ decodes: [() throws -> Void],
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = peakResidentBytes()
        for decode in decodes {
            do {
                try decode()
                Issue.record("\(what) decoded", sourceLocation: sourceLocation)
            } catch let error as ImagingError {
                guard case .exceedsPixelBudget(_, width, height, defaultPixelBudget) = error else {
                    Issue.record("expected exceedsPixelBudget, got \(error)", sourceLocation: sourceLocation); continue
                }
                #expect(error.description.contains("over the budget of \(defaultPixelBudget) pixels"), "\(error)",
                        sourceLocation: sourceLocation)
            }
        }
        #expect(peakResidentBytes() - before < 64 << 20, sourceLocation: sourceLocation)
    }

    @Test("a 65535×65535 JPEG header is refused from the header, naming libjpeg's 65500-pixel limit")
    func hugeJPEG() throws {
        let bytes = try Self.jpeg(claiming: 65535, 65535)
        let before = Self.peakResidentBytes()
        for decode in [{ _ = try JPEGCodec.readHeader(bytes) }, { _ = try JPEGCodec.decodeRGB(bytes) },
                       { _ = try ImageDecoder.decodeRGBA(bytes) }, { _ = try JPEGCodec.decodeGray(bytes) },
                       { _ = try ImageDecoder.size(of: bytes) }] as [() throws -> Void] {
            do {
                try decode()
                Issue.record("a 65535×65535 JPEG was accepted")
            } catch let error as ImagingError {
                #expect(error.description.contains("Maximum supported image dimension is 65500 pixels"), "\(error)")
            }
        }
        // 65535² RGB is 12.9 GB; nothing near that (not even one row band of it) was allocated.
        #expect(Self.peakResidentBytes() - before < 64 << 20)
    }

    @Test("a 60000×60000 JPEG header (under libjpeg's limit) is refused by the pixel budget before decoding")
    func hugeJPEGUnderTheDimensionLimit() throws {
        let bytes = try Self.jpeg(claiming: 60000, 60000)
        #expect(try JPEGCodec.readHeader(bytes).width == 60000)
        try Self.expectRefusedByTheBudget("a 60000×60000 JPEG", width: 60000, height: 60000,
                                          [{ _ = try JPEGCodec.decodeRGB(bytes) }, { _ = try ImageDecoder.decodeRGBA(bytes) },
                                           { _ = try JPEGCodec.decodeGray(bytes) }])
    }

    @Test("a PNG claiming 2^31 pixels (65536×32768) is refused from the header, naming the budget")
    func hugePNG() throws {
        let bytes = try Self.png(claiming: 65536, 32768)
        let header = try PNGCodec.readHeader(bytes)
        #expect(header.width * header.height == 1 << 31)
        try Self.expectRefusedByTheBudget("a 2^31-pixel PNG", width: 65536, height: 32768,
                                          [{ _ = try PNGCodec.decodeRGBA(bytes) }, { _ = try PNGCodec.decodeGray16(bytes) },
                                           { _ = try ImageDecoder.decodeRGB(bytes) }])
        // PNG's own limit (2^31 - 1 per side) holds too: a side of 2^31 is not a PNG.
        #expect { try PNGCodec.decodeRGB(try Self.png(claiming: 1 << 31, 1)) } throws: { error in
            guard case ImagingError.corrupt(nil, "PNG", _) = error else { return false }
            return true
        }
    }
}
