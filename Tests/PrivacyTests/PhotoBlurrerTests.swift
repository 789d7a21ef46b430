import Foundation
import Imaging
import Testing
@testable import Privacy

/// Blurring a real photo by JPEG blocks: SGBlur's fixture as the issue states it, metadata, idempotence,
/// corrections, bad input.
@Suite struct PhotoBlurrerTests {
    static func request(_ detector: PrivacyDetector?) -> BlurRequest {
        BlurRequest(detector: detector, software: "lookaround tests", date: Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// SGBlur's fixture: the face is found and blurred, the cycle-lane sign is not, and every pixel more
    /// than one 16-pixel block away from a replaced block decodes exactly as before.
    @Test func theFixturesFaceIsBlurredItsSignIsNotAndTheRestDecodesUnchanged() throws {
        let original = try PrivacyTestData.sharedFile("blur/flat_urban_with_face_and_sign_small.jpg")
        let outcome = try PhotoBlurrer.blur(original, file: "fixture", request: Self.request(try PrivacyTestData.detector.get()))
        let blurred = outcome.marker.regions.filter { $0.state == .blurred }
        #expect(outcome.changed)
        let face = try #require(blurred.first { $0.kind == .face && $0.box.intersectionArea(PrivacyTestData.fixtureFace) > 0 },
                                "no face region over x 450–470, y 130–157: \(outcome.marker.regions)")
        #expect(face.blocks.intersectionArea(PrivacyTestData.fixtureFace) == PrivacyTestData.fixtureFace.area, "the whole face is in replaced blocks")
        #expect(!blurred.contains { $0.blocks.intersectionArea(PrivacyTestData.fixtureSign) > 0 }, "the sign is not blurred: \(blurred)")

        let before = try PrivacyTestData.decode(original), after = try PrivacyTestData.decode(outcome.jpeg)
        // A 16-pixel block away from any replaced block: identical.
        let far = PrivacyTestData.maximumDifference(before, after) { x, y in
            !blurred.contains { r in
                Double(x) >= r.blocks.x - 16 && Double(x) < r.blocks.maxX + 16 && Double(y) >= r.blocks.y - 16 && Double(y) < r.blocks.maxY + 16
            }
        }
        #expect(far == 0, "pixels more than a block away from the blur changed by up to \(far)")
        #expect(PrivacyTestData.maximumDifference(before, after) { x, y in
            PrivacyTestData.fixtureSign.intersectionArea(PixelBox(x: Double(x), y: Double(y), width: 1, height: 1)) > 0 } == 0)
        // The face lost its detail: the blur is strong, not a mosaic of it.
        let detailBefore = PrivacyTestData.detail(before, in: face.box), detailAfter = PrivacyTestData.detail(after, in: face.box)
        print("fixture face: detail (mean |Laplacian|) \(detailBefore) before, \(detailAfter) after; \(outcome.blocksReplaced) blocks replaced")
        #expect(detailAfter < 0.3 * detailBefore, "face detail \(detailBefore) → \(detailAfter)")
    }

    /// Every marker segment of the photo is kept byte for byte (EXIF with its thumbnail offsets, ICC, …),
    /// the XMP packet keeps every byte it had and gains our description; the metadata reads the same.
    @Test func metadataIsKept() throws {
        let original = try PrivacyTestData.sharedFile("real-photos/single-cameras/d1.jpg")
        let outcome = try PhotoBlurrer.blur(original, file: "d1.jpg", request: BlurRequest(
            detector: nil, additions: [PixelBox(x: 500, y: 250, width: 40, height: 40)], software: "lookaround tests"))
        let before = try ImageMetadata.read(fromJPEG: original).metadata, after = try ImageMetadata.read(fromJPEG: outcome.jpeg).metadata
        #expect(before == after, "EXIF and GPano read the same")
        #expect(before.panorama?.fullPanoWidthPixels == 8704)
        let segmentsBefore = Self.segments(original), segmentsAfter = Self.segments(outcome.jpeg)
        let xmp = Array("http://ns.adobe.com/xap/1.0/".utf8)
        for (marker, payload) in segmentsBefore where marker >= 0xE0 && marker <= 0xEF || marker == 0xFE {
            if marker == 0xE1 && payload.starts(with: xmp) {
                let old = String(decoding: payload, as: UTF8.self), new = try #require(segmentsAfter.first { $0.0 == 0xE1 && $0.1.starts(with: xmp) })
                let newText = String(decoding: new.1, as: UTF8.self)
                let close = try #require(old.range(of: "</rdf:RDF>"))
                #expect(newText.hasPrefix(String(old[..<close.lowerBound])) && newText.hasSuffix(String(old[close.lowerBound...])),
                        "the camera's XMP is kept around the added description")
                #expect(newText.contains("LookAroundPrivacy:Blurred=\"True\""))
            } else if marker == 0xE1 {
                // EXIF: the same apart from the thumbnail's bytes (remade from the blurred photo).
                let new = try #require(segmentsAfter.first { $0.0 == marker && $0.1.count == payload.count && $0.1.prefix(6) == payload.prefix(6) })
                let thumbnail = try #require(ExifThumbnail.locate([0xFF, 0xD8, 0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload))
                let start = thumbnail.lowerBound - 6, end = thumbnail.upperBound - 6
                #expect(Array(new.1[..<start]) == Array(payload[..<start]) && Array(new.1[end...]) == Array(payload[end...]),
                        "EXIF outside the thumbnail is byte for byte the same")
            } else {
                #expect(segmentsAfter.contains { $0.0 == marker && $0.1 == payload }, "segment 0xFF\(String(marker, radix: 16)) kept")
            }
        }
    }

    /// A second run on its own output finds what it blurred and changes nothing: the same bytes.
    @Test func blurringTwiceIsANoOp() throws {
        let original = try PrivacyTestData.sharedFile("blur/flat_urban_with_face_and_sign_small.jpg")
        let detector = try PrivacyTestData.detector.get()
        let once = try PhotoBlurrer.blur(original, file: "fixture", request: Self.request(detector))
        let twice = try PhotoBlurrer.blur(once.jpeg, file: "fixture", request: Self.request(detector))
        #expect(!twice.changed && twice.jpeg == once.jpeg && twice.added.isEmpty)
        // Even for a photo where nothing was found: the marker is written once, then left alone.
        let empty = try JPEGCodec.encode(RGB8Image(width: 64, height: 48, fill: 120), quality: 90)
        let marked = try PhotoBlurrer.blur(empty, file: "empty", request: Self.request(detector))
        #expect(marked.changed && marked.marker.blurred && marked.marker.regions.isEmpty)
        #expect(try PhotoBlurrer.blur(marked.jpeg, file: "empty", request: Self.request(detector)).jpeg == marked.jpeg)
    }

    /// --add blurs a box a person marks; --remove restores it from the original exactly (the original's
    /// coefficients come back, so it decodes to the original's pixels), and later runs leave it alone.
    @Test func aMarkedRegionCanBeAddedAndRemovedExactly() throws {
        let original = try PrivacyTestData.sharedFile("blur/flat_urban_with_face_and_sign_small.jpg")
        let detector = try PrivacyTestData.detector.get()
        let detected = try PhotoBlurrer.blur(original, file: "fixture", request: Self.request(detector))
        let mark = PixelBox(x: 100, y: 250, width: 60, height: 40)
        let added = try PhotoBlurrer.blur(detected.jpeg, file: "fixture", request: BlurRequest(detector: nil, additions: [mark], software: "t"))
        let region = try #require(added.added.first)
        #expect(region.id == "m1" && region.kind == .manual)
        let pixelsDetected = try PrivacyTestData.decode(detected.jpeg), pixelsAdded = try PrivacyTestData.decode(added.jpeg)
        #expect(PrivacyTestData.maximumDifference(pixelsDetected, pixelsAdded) { x, y in mark.intersectionArea(PixelBox(x: Double(x), y: Double(y), width: 1, height: 1)) > 0 } > 20)

        // Without the original: a clear error; with it: the marked blocks are the original's again.
        #expect(throws: PrivacyError.self) {
            try PhotoBlurrer.blur(added.jpeg, file: "fixture", request: BlurRequest(detector: nil, removals: ["m1"], software: "t"))
        }
        #expect(throws: PrivacyError.self) {
            try PhotoBlurrer.blur(added.jpeg, file: "fixture", request: BlurRequest(detector: nil, removals: ["x9"], original: original, software: "t"))
        }
        let restored = try PhotoBlurrer.blur(added.jpeg, file: "fixture", request: BlurRequest(detector: nil, removals: ["m1"], original: original,
                                                                                              originalPath: "orig", software: "t"))
        #expect(restored.removed.map(\.id) == ["m1"])
        #expect(restored.marker.regions.first { $0.id == "m1" }?.state == .removed)
        let pixelsRestored = try PrivacyTestData.decode(restored.jpeg)
        let face = try #require(detected.marker.regions.first { $0.kind == .face })
        #expect(PrivacyTestData.maximumDifference(pixelsDetected, pixelsRestored) { x, y in
            !face.blocks.scaled(by: 1).intersects(x, y, margin: 16) } == 0, "outside the face, the restored photo decodes as the detected one")
        // Over the marked region, the original again (the face's blur is untouched there: it is far away).
        let pixelsOriginal = try PrivacyTestData.decode(original)
        #expect(PrivacyTestData.maximumDifference(pixelsOriginal, pixelsRestored) { x, y in region.blocks.intersects(x, y, margin: 0) } == 0)
        // A later run with the detector leaves both regions alone.
        let again = try PhotoBlurrer.blur(restored.jpeg, file: "fixture", request: Self.request(detector))
        #expect(!again.changed && again.jpeg == restored.jpeg)
        // Another photo is refused as the original.
        let other = try JPEGCodec.encode(RGB8Image(width: 512, height: 384, fill: 100), quality: 90)
        #expect(throws: PrivacyError.self) {
            try PhotoBlurrer.blur(added.jpeg, file: "fixture", request: BlurRequest(detector: nil, removals: ["m1"], original: other, software: "t"))
        }
    }

    /// The blocks re-encoded from pixels decode back to those pixels (the forward DCT, colour
    /// conversion and quantisation agree with libjpeg's decoder): high quality, every sampling.
    @Test(arguments: [JPEGSubsampling.chroma420, .chroma422, .chroma444, .gray])
    func reencodedBlocksDecodeToTheirPixels(_ subsampling: JPEGSubsampling) throws {
        var image = RGB8Image(width: 96, height: 64)
        for y in 0..<64 { for x in 0..<96 {
            image[x, y, 0] = UInt8(x * 2); image[x, y, 1] = UInt8(y * 3); image[x, y, 2] = UInt8((x + y) % 256)
            if subsampling == .gray { image[x, y, 1] = image[x, y, 0]; image[x, y, 2] = image[x, y, 0] }
        } }
        let flat = RGB8Image(width: 96, height: 64, fill: 128)
        let jpeg = subsampling == .gray
            ? try JPEGCodec.encode(Gray8Image(width: 96, height: 64, fill: 128), quality: 98)
            : try JPEGCodec.encode(flat, quality: 98, subsampling: subsampling)
        let layout = try JPEGLayout(jpeg, file: nil)
        var writes = JPEGBlocks(componentCount: layout.components.count)
        let rect = PixelBox(x: 16, y: 16, width: 48, height: 32)
        BlockBlur.encodeBlocks(image, layout: layout, rect: rect, into: &writes)
        let edited = try #require(try JPEGBlockEditor.transform(jpeg, layout: layout, writes: writes, file: nil).jpeg)
        let decoded = try PrivacyTestData.decode(edited)
        var error = 0.0, count = 0.0
        for y in 20..<44 { for x in 20..<60 { for c in 0..<3 {
            let expected = subsampling == .gray ? Double(image[x, y, 0]) : Double(image[x, y, c])
            error += pow(Double(decoded[x, y, c]) - expected, 2); count += 1
        } } }
        let psnr = 10 * log10(255 * 255 / (error / count))
        print("\(subsampling.rawValue): re-encoded blocks at \(String(format: "%.1f", psnr)) dB")
        #expect(psnr > (subsampling == .chroma444 || subsampling == .gray ? 38 : 30), "\(subsampling.rawValue): \(psnr) dB")
        // Blocks outside the rect keep their coefficients: the flat grey decodes as before there.
        let before = try PrivacyTestData.decode(jpeg)
        #expect(PrivacyTestData.maximumDifference(before, decoded) { x, y in !rect.intersects(x, y, margin: 16) } == 0)
    }

    @Test func damagedAndUnsupportedJPEGsAreRefusedWithTheirReason() throws {
        let original = try PrivacyTestData.sharedFile("blur/flat_urban_with_face_and_sign_small.jpg")
        let request = BlurRequest(detector: nil, additions: [PixelBox(x: 10, y: 10, width: 20, height: 20)], software: "t")
        #expect { try PhotoBlurrer.blur(Array(original.prefix(original.count / 2)), file: "cut.jpg", request: request) } throws: { error in
            "\(error)".contains("cut.jpg")
        }
        #expect { try PhotoBlurrer.blur(Array("not a jpeg at all".utf8), file: "x.jpg", request: request) } throws: { error in
            "\(error)".contains("not a JPEG")
        }
        #expect { try PhotoBlurrer.blur(original, file: "f.jpg", request: BlurRequest(detector: nil, additions: [PixelBox(x: 500, y: 10, width: 40, height: 20)], software: "t")) } throws: { error in
            "\(error)".contains("inside the 512×384 photo")
        }
    }

    /// The marker segments (marker, payload) before the first scan.
    static func segments(_ jpeg: [UInt8]) -> [(UInt8, [UInt8])] {
        var out: [(UInt8, [UInt8])] = []
        PrivacyMarker.walk(jpeg) { marker, _, payload in out.append((marker, Array(jpeg[payload]))) }
        return out
    }
}

extension PixelBox {
    /// Whether pixel (x, y) lies within `margin` pixels of the box.
    func intersects(_ x: Int, _ y: Int, margin: Double) -> Bool {
        Double(x) >= self.x - margin && Double(x) < maxX + margin && Double(y) >= self.y - margin && Double(y) < maxY + margin
    }
}
