import Foundation
import Testing
@testable import Imaging

/// A smooth test picture (gradients and one edge) that JPEG reproduces closely.
func smoothRGB(width: Int, height: Int) -> RGB8Image {
    var image = RGB8Image(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            image[x, y, 0] = UInt8(x * 255 / max(1, width - 1))
            image[x, y, 1] = UInt8(y * 255 / max(1, height - 1))
            image[x, y, 2] = x < width / 2 ? 60 : 190
        }
    }
    return image
}

@Suite("JPEG codec")
struct JPEGCodecTests {
    @Test("encode then decode stays close to the input", arguments: JPEGSubsampling.allCases.prefix(4))
    func roundTrip(_ subsampling: JPEGSubsampling) throws {
        let image = smoothRGB(width: 64, height: 48)
        let jpeg = try JPEGCodec.encode(image, quality: 95, subsampling: subsampling)
        let header = try JPEGCodec.readHeader(jpeg)
        #expect(header.width == 64 && header.height == 48)
        #expect(header.subsampling == subsampling)
        #expect(header.colorSpace == (subsampling == .gray ? .gray : .yCbCr))
        let decoded = try JPEGCodec.decodeRGB(jpeg)
        #expect(decoded.warnings.isEmpty)
        if subsampling == .gray {
            let luma = try JPEGCodec.decodeGray(jpeg).image
            #expect(luma.width == 64)
            #expect(decoded.image.components.enumerated().allSatisfy { $0.element == luma.components[$0.offset / 3] })
        } else {
            #expect(meanAbsoluteDifference(decoded.image.components, image.components) < 3)
        }
    }

    @Test("every DCT scale gives ceil(size × n/d)", arguments: JPEGScale.supported)
    func scales(_ scale: JPEGScale) throws {
        let jpeg = try JPEGCodec.encode(smoothRGB(width: 37, height: 23), quality: 80)
        let image = try JPEGCodec.decodeRGB(jpeg, options: JPEGDecodeOptions(scale: scale)).image
        #expect(image.width == (37 * scale.numerator + scale.denominator - 1) / scale.denominator)
        #expect(image.height == (23 * scale.numerator + scale.denominator - 1) / scale.denominator)
    }

    @Test("scales are validated against TurboJPEG's list")
    func scaleValidation() throws {
        #expect(JPEGScale.supported.count >= 16)
        #expect(try JPEGScale(numerator: 2, denominator: 16) == .eighth)
        #expect(try JPEGScale(numerator: 3, denominator: 8).scaled(4096) == 1536)
        for (numerator, denominator) in [(1, 3), (0, 8)] {
            #expect { try JPEGScale(numerator: numerator, denominator: denominator) } throws: { error in
                guard case ImagingError.invalidParameter("JPEG scale", let value, let allowed) = error else { return false }
                return value == "\(numerator)/\(denominator)" && allowed.contains("1/8")
            }
        }
    }

    @Test("quality is validated: 1…100", arguments: [0, 1, 100, 101, -5])
    func quality(_ q: Int) throws {
        let image = smoothRGB(width: 8, height: 8)
        if (1...100).contains(q) {
            #expect(try JPEGCodec.decodeRGB(JPEGCodec.encode(image, quality: q)).image.width == 8)
        } else {
            #expect(throws: ImagingError.invalidParameter(name: "JPEG quality", value: "\(q)", allowed: "1…100")) {
                try JPEGCodec.encode(image, quality: q)
            }
        }
    }

    @Test("read-only subsamplings are refused when encoding")
    func encodeSubsamplingValidation() {
        #expect(throws: ImagingError.invalidParameter(name: "JPEG subsampling", value: "4:1:1",
                                                      allowed: "4:4:4, 4:2:2, 4:2:0 or gray")) {
            try JPEGCodec.encode(smoothRGB(width: 8, height: 8), subsampling: .chroma411)
        }
    }

    @Test("greyscale images encode as one-channel JPEGs")
    func gray() throws {
        var gray = Gray8Image(width: 33, height: 17)
        for i in gray.components.indices { gray.components[i] = UInt8(i % 200) }
        let jpeg = try JPEGCodec.encode(gray, quality: 100)
        #expect(try JPEGCodec.readHeader(jpeg).subsampling == .gray)
        #expect(meanAbsoluteDifference(try JPEGCodec.decodeGray(jpeg).image.components, gray.components) < 3)
    }

    @Test("a truncated file gives full-size pixels plus the warning, or an error in strict mode")
    func truncated() throws {
        let data = try fixture("corrupt/jpeg-cut-halfway.jpg")
        let lenient = try JPEGCodec.decodeRGB(data, file: "cut.jpg")
        #expect(lenient.image.width == 64 && lenient.image.height == 64)
        #expect(lenient.warnings.contains { $0.contains("Premature end") }, "\(lenient.warnings)")
        #expect { try JPEGCodec.decodeRGB(data, options: JPEGDecodeOptions(strict: true)) } throws: { error in
            guard case ImagingError.truncated(nil, "JPEG", _) = error else { return false }
            return true
        }
        do {
            _ = try JPEGCodec.decodeGray(data, file: "cut.jpg", options: JPEGDecodeOptions(strict: true))
            Issue.record("strict decode of a truncated file must throw")
        } catch let error as ImagingError {
            guard case .truncated(let file, _, _) = error else { Issue.record("\(error)"); return }
            #expect(file == "cut.jpg")
        }
    }

    @Test("magic-byte detection and the convenience decoder")
    func detection() throws {
        let png = try fixture("corrupt/valid-16x16.png"), jpeg = try fixture("corrupt/valid-16x16.jpg")
        #expect(ImageFormat.detect(png) == .png)
        #expect(ImageFormat.detect(jpeg) == .jpeg)
        #expect(ImageFormat.detect(try fixture("corrupt/tiny.gif")) == nil)
        #expect(try ImageDecoder.size(of: jpeg) == PixelSize(width: 16, height: 16))
        #expect(try ImageDecoder.size(of: png) == PixelSize(width: 16, height: 16))
        #expect(try ImageDecoder.decodeRGBA(jpeg).components.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
        do {
            _ = try ImageDecoder.decodeRGB(try fixture("corrupt/tiny.gif"), file: "a.gif")
            Issue.record("a GIF must be refused")
        } catch {
            #expect("\(error)".contains("a.gif") && "\(error)".contains("GIF"), "\(error)")
        }
        #expect(throws: ImagingError.fileNotFound(path: "/nonexistent/x.jpg")) {
            try ImageDecoder.readRGB(path: "/nonexistent/x.jpg")
        }
    }
}
