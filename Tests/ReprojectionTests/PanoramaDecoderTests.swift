import Imaging
import Testing
@testable import Reprojection

@Suite("Scaled decode and the decoded-panorama cache")
struct PanoramaDecoderTests {
    @Test("a small view of a large JPEG decodes at the DCT scale of its level")
    func scaledDecode() throws {
        let jpeg = try JPEGCodec.encode(Fixtures.gridPanorama(width: 2048), quality: 90)
        let small = try Fixtures.camera(0, 0, fov: 90, width: 160, height: 120)    // ratio 4.1 → level 2
        let (image, level) = try PanoramaDecoder.decode(jpeg, for: small)
        #expect(level == 2 && image.width == 512 && image.height == 256)
        let large = try Fixtures.camera(0, 0, fov: 90, width: 1280, height: 720)   // ratio 0.5 → level 0
        #expect(try PanoramaDecoder.decode(jpeg, for: large).level == 0)
        #expect { _ = try PanoramaDecoder.decode([0xFF, 0xD8, 0, 1], for: small) } throws: { error in
            guard case ReprojectionError.unreadablePanorama(let file, let reason) = error else { return false }
            return file == nil && !reason.isEmpty
        }
    }

    @Test("the cache keeps the most recently used entries within its byte bound")
    func boundedCache() throws {
        let a = try PanoramaImage(RGB8Image(width: 64, height: 32))   // 8 KiB each
        let cache = PanoramaCache(capacityBytes: 20_000)
        var loads = 0
        for name in ["a", "b", "a", "c", "a"] {
            _ = cache.image(for: .init(identifier: name, level: 0)) { () -> PanoramaImage in loads += 1; return a }
        }
        #expect(loads == 3)                      // a, b, c; a stays because it was used last
        #expect(cache.count == 2 && cache.bytesInUse <= 20_000)
        _ = cache.image(for: .init(identifier: "b", level: 0)) { () -> PanoramaImage in loads += 1; return a }
        #expect(loads == 4)                      // b was evicted by c
    }
}
