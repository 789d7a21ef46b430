import Foundation
import Imaging
import Testing
import TestSupport

@Suite struct ImageCLITests {
    /// A small panorama-like JPEG with EXIF GPS and GPano metadata, written by our own encoder.
    static func writePanorama(to directory: URL) throws -> URL {
        var image = RGB8Image(width: 64, height: 32)
        for y in 0..<32 { for x in 0..<64 { image[x, y, 0] = UInt8(x * 4); image[x, y, 1] = UInt8(y * 8); image[x, y, 2] = 90 } }
        let metadata = ImageMetadata(latitudeDegrees: 60.1699, longitudeDegrees: 24.9523, altitudeMeters: 14.5,
                                     imageDirectionDegrees: 87.5, dateTimeOriginal: "2024:06:21 12:30:15",
                                     panorama: .equirectangular(width: 64, height: 32, headingDegrees: 87.5))
        let url = directory.appendingPathComponent("pano.jpg")
        try ImageFile.write(JPEGCodec.encode(image, quality: 90, metadata: metadata), to: url.path)
        return url
    }

    @Test func infoShowsPositionDirectionAndPanorama() throws {
        let directory = try Lookaround.temporaryDirectory()
        let pano = try Self.writePanorama(to: directory)
        let result = try Lookaround.run(["image", "info", pano.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("JPEG 64×32"))
        #expect(result.stdout.contains("position      60.1699000, 24.9523000, altitude 14.50 m"))
        #expect(result.stdout.contains("direction     87.50° (true north)"))
        #expect(result.stdout.contains("panorama      equirectangular, full 64×32"))
        let json = try Lookaround.run(["image", "info", "--json", pano.path])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["latitude"] as? Double == 60.1699)
        #expect((object?["panorama"] as? [String: Any])?["pose_heading_degrees"] as? Double == 87.5)
        let heading = try #require(object?["heading"] as? [String: Any])
        #expect(Set(heading.keys) == ["degrees", "source", "notes"] && heading["degrees"] as? Double == 87.5, "\(heading)")
    }

    @Test func infoReportsEachBadFileAndGoesOn() throws {
        let directory = try Lookaround.temporaryDirectory()
        let pano = try Self.writePanorama(to: directory)
        let text = directory.appendingPathComponent("notes.jpg")
        try Data("hello".utf8).write(to: text)
        let result = try Lookaround.run(["image", "info", text.path, pano.path,
                                         directory.appendingPathComponent("missing.png").path])
        #expect(result.exitCode == 65)
        #expect(result.stdout.contains("pano.jpg: JPEG 64×32"))
        #expect(result.stderr.contains("notes.jpg: not a JPEG or PNG file"))
        #expect(result.stderr.contains("missing.png: no such file"))
        let missing = try Lookaround.run(["image", "info", directory.appendingPathComponent("missing.png").path])
        #expect(missing.exitCode == 66)
    }

    @Test func resizeKeepsMetadataAndScalesGPano() throws {
        let directory = try Lookaround.temporaryDirectory()
        let pano = try Self.writePanorama(to: directory)
        let out = directory.appendingPathComponent("half.jpg")
        let result = try Lookaround.run(["image", "resize", pano.path, "--size", "32x16", "--filter", "area", "-o", out.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let read = try ImageMetadata.read(fromJPEGFile: out.path)
        #expect(read.pixelSize == PixelSize(width: 32, height: 16))
        #expect(read.metadata.latitudeDegrees.map { abs($0 - 60.1699) < 1e-6 } == true)
        #expect(read.metadata.panorama?.fullPanoWidthPixels == 32)
        #expect(read.metadata.panorama?.poseHeadingDegrees == 87.5)
        let json = try Lookaround.run(["image", "resize", pano.path, "--scale", "0.25", "-o", out.path, "--json"])
        #expect(json.exitCode == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["output"] as? String == out.path && report["filter"] as? String == "lanczos3")
        #expect(report["width"] as? Int == 16 && report["height"] as? Int == 8 && report["source_width"] as? Int == 64)
    }

    @Test func compareReportsIdenticalAndDifferent() throws {
        let directory = try Lookaround.temporaryDirectory()
        let a = RGB8Image(width: 16, height: 16, fill: 100)
        var b = a
        b[3, 3, 0] = 140
        try ImageFile.write(PNGCodec.encode(a), to: directory.appendingPathComponent("a.png").path)
        try ImageFile.write(PNGCodec.encode(b), to: directory.appendingPathComponent("b.png").path)
        let same = try Lookaround.run(["image", "compare", "a.png", "a.png"], in: directory)
        #expect(same.stdout.hasPrefix("PSNR      inf (identical)"))
        let different = try Lookaround.run(["image", "compare", "a.png", "b.png", "--diff", "d.png", "--json"], in: directory)
        #expect(different.exitCode == 0)
        #expect(different.stdout.contains("\"maximum_absolute_difference\" : 40"))
        let diff = try PNGCodec.decodeRGBA(ImageFile.read(directory.appendingPathComponent("d.png").path))
        #expect(diff[3, 3, 0] > 0 && diff[3, 3, 1] == 0)
    }

    @Test func labelRendersMixedScripts() throws {
        let directory = try Lookaround.temporaryDirectory()
        let result = try Lookaround.run(["image", "label", "赫尔辛基大教堂 · Pääposti", "-o", "label.png"], in: directory)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let image = try PNGCodec.decodeRGBA(ImageFile.read(directory.appendingPathComponent("label.png").path))
        #expect(image.width > 300 && image.height > 40)
        let json = try Lookaround.run(["image", "label", "Pääposti", "-o", "label.png", "--json"], in: directory)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let written = try PNGCodec.decodeRGBA(ImageFile.read(directory.appendingPathComponent("label.png").path))
        #expect(report["width"] as? Int == written.width && report["height"] as? Int == written.height)
        #expect(try #require(report["advance_width_pixels"] as? Double) > 50)
    }

    @Test(arguments: [
        (["image", "resize", "x.png", "-o", "y.gif", "--size", "2x2"], 64, "cannot tell the format of 'y.gif'"),
        (["image", "resize", "x.png", "-o", "y.png", "--size", "0x2"], 64, "each side must be 1…65535"),
        (["image", "resize", "x.png", "-o", "y.png", "--size", "2x2", "--filter", "lanczos"], 64, "did you mean 'lanczos3'?"),
        (["image", "resize", "x.png", "-o", "y.png", "--scale", "nan"], 64, "--scale 'nan' is not a finite number"),
        (["image", "resize", "x.png", "-o", "y.png", "--scale", "0.5"], 66, "x.png: no such file"),
        (["image", "label", "hi", "-o", "l.png", "--pixel-size", "0"], 64, "--pixel-size 0 is out of range; allowed 1…512"),
        (["image", "label", "hi", "-o", "l.png", "--color", "red"], 64, "--color 'red' is not a colour"),
    ])
    func badArguments(arguments: [String], exitCode: Int32, message: String) throws {
        let result = try Lookaround.run(arguments, in: try Lookaround.temporaryDirectory())
        #expect(result.exitCode == exitCode, "\(result.stderr)")
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }
}
