import Foundation
import Testing
@testable import Imaging

/// Which entry point a corpus file is given to.
enum CorpusDecoder: String, Sendable {
    case png, jpeg, jpegStrict, auto, metadata
}

/// What must happen: a typed error of one kind, success with warnings, or plain success.
enum CorpusOutcome: Sendable, Equatable {
    case error(ErrorKind)
    case warnings
    case ok
}

struct CorpusCase: Sendable, CustomTestStringConvertible {
    let file: String
    let decoder: CorpusDecoder
    let outcome: CorpusOutcome
    var testDescription: String { "\(file) → \(decoder.rawValue)" }
}

let corpus: [CorpusCase] = [
    // Generic
    .init(file: "zero-bytes.bin", decoder: .png, outcome: .error(.empty)),
    .init(file: "zero-bytes.bin", decoder: .jpeg, outcome: .error(.empty)),
    .init(file: "zero-bytes.bin", decoder: .auto, outcome: .error(.empty)),
    .init(file: "zero-bytes.bin", decoder: .metadata, outcome: .error(.empty)),
    .init(file: "random-bytes.bin", decoder: .png, outcome: .error(.wrongFormat)),
    .init(file: "random-bytes.bin", decoder: .jpeg, outcome: .error(.wrongFormat)),
    .init(file: "random-bytes.bin", decoder: .auto, outcome: .error(.wrongFormat)),
    .init(file: "text.txt", decoder: .auto, outcome: .error(.wrongFormat)),
    .init(file: "text.txt", decoder: .metadata, outcome: .error(.wrongFormat)),
    .init(file: "tiny.gif", decoder: .auto, outcome: .error(.wrongFormat)),
    .init(file: "tiny.gif", decoder: .jpeg, outcome: .error(.wrongFormat)),
    .init(file: "tiny.gif", decoder: .png, outcome: .error(.wrongFormat)),
    .init(file: "valid-16x16.png", decoder: .jpeg, outcome: .error(.wrongFormat)),
    .init(file: "valid-16x16.jpg", decoder: .png, outcome: .error(.wrongFormat)),
    .init(file: "valid-16x16.png", decoder: .auto, outcome: .ok),
    .init(file: "valid-16x16.jpg", decoder: .auto, outcome: .ok),
    // PNG
    .init(file: "png-signature-only.png", decoder: .png, outcome: .error(.truncated)),
    .init(file: "png-truncated-ihdr.png", decoder: .png, outcome: .error(.truncated)),
    .init(file: "png-bad-ihdr-crc.png", decoder: .png, outcome: .error(.corrupt)),
    .init(file: "png-bad-idat-zlib.png", decoder: .png, outcome: .error(.corrupt)),
    .init(file: "png-bad-idat-crc.png", decoder: .png, outcome: .error(.corrupt)),
    .init(file: "png-huge-dimensions.png", decoder: .png, outcome: .error(.exceedsPixelBudget)),
    .init(file: "png-huge-dimensions.png", decoder: .auto, outcome: .error(.exceedsPixelBudget)),
    .init(file: "png-zero-width.png", decoder: .png, outcome: .error(.corrupt)),
    .init(file: "png-cut-in-idat.png", decoder: .png, outcome: .error(.truncated)),
    .init(file: "png-no-iend.png", decoder: .png, outcome: .error(.truncated)),
    .init(file: "png-bad-colour-type.png", decoder: .png, outcome: .error(.corrupt)),
    // JPEG
    .init(file: "jpeg-no-soi.jpg", decoder: .jpeg, outcome: .error(.wrongFormat)),
    .init(file: "jpeg-soi-only.jpg", decoder: .jpeg, outcome: .error(.truncated)),
    .init(file: "jpeg-cut-after-sof.jpg", decoder: .jpeg, outcome: .error(.truncated)),
    .init(file: "jpeg-cut-after-sof.jpg", decoder: .metadata, outcome: .warnings),
    .init(file: "jpeg-cut-halfway.jpg", decoder: .jpeg, outcome: .warnings),
    .init(file: "jpeg-cut-halfway.jpg", decoder: .jpegStrict, outcome: .error(.truncated)),
    .init(file: "jpeg-cut-halfway.jpg", decoder: .auto, outcome: .error(.truncated)),
    .init(file: "jpeg-huge-sof.jpg", decoder: .jpeg, outcome: .error(.exceedsPixelBudget)),
    .init(file: "jpeg-zero-height-sof.jpg", decoder: .jpeg, outcome: .error(.corrupt)),
    .init(file: "jpeg-corrupt-huffman.jpg", decoder: .jpeg, outcome: .warnings),
    .init(file: "jpeg-corrupt-huffman.jpg", decoder: .jpegStrict, outcome: .error(.corrupt)),
    .init(file: "jpeg-bad-segment-length.jpg", decoder: .jpeg, outcome: .error(.corrupt)),
    .init(file: "jpeg-bad-segment-length.jpg", decoder: .metadata, outcome: .warnings),
    .init(file: "jpeg-no-huffman-tables.jpg", decoder: .jpeg, outcome: .ok),
    // Metadata damage: warnings, never a crash; the pixels still decode.
    .init(file: "jpeg-exif-broken-ifd-offset.jpg", decoder: .metadata, outcome: .warnings),
    .init(file: "jpeg-exif-broken-ifd-offset.jpg", decoder: .jpeg, outcome: .ok),
    .init(file: "jpeg-exif-pointers-outside.jpg", decoder: .metadata, outcome: .warnings),
    .init(file: "jpeg-exif-bad-byte-order.jpg", decoder: .metadata, outcome: .warnings),
    .init(file: "jpeg-xmp-not-xml.jpg", decoder: .metadata, outcome: .warnings),
    .init(file: "jpeg-xmp-not-xml.jpg", decoder: .jpeg, outcome: .ok),
]

@Suite("Corrupt corpus")
struct CorruptCorpusTests {
    @Test("every damaged file gives its typed error or warnings", arguments: corpus)
    func corpusCase(_ c: CorpusCase) throws {
        let data = try fixture("corrupt/" + c.file)
        #expect(data.count < 20_000, "fixtures stay tiny")
        let name = "corrupt/" + c.file
        var warnings: [String] = []
        do {
            switch c.decoder {
            case .png: _ = try PNGCodec.decodeRGBA(data, file: name)
            case .jpeg: warnings = try JPEGCodec.decodeRGB(data, file: name).warnings
            case .jpegStrict: warnings = try JPEGCodec.decodeRGB(data, file: name,
                                                                 options: JPEGDecodeOptions(strict: true)).warnings
            case .auto: _ = try ImageDecoder.decodeRGB(data, file: name)
            case .metadata: warnings = try ImageMetadata.read(fromJPEG: data, file: name).warnings
            }
        } catch {
            #expect(c.outcome == .error(kind(of: error)), "\(error)")
            // Every message names the file.
            #expect("\(error)".contains(name), "\(error)")
            return
        }
        switch c.outcome {
        case .error(let expected): Issue.record("expected \(expected), got success with warnings \(warnings)")
        case .warnings: #expect(!warnings.isEmpty)
        case .ok: #expect(warnings.isEmpty, "\(warnings)")
        }
    }

    @Test("the corpus has at least 20 distinct files")
    func corpusSize() {
        #expect(Set(corpus.map(\.file)).count >= 20)
    }

    @Test("a pixel budget below the image size is refused before decoding")
    func smallBudget() throws {
        let png = try fixture("corrupt/valid-16x16.png"), jpeg = try fixture("corrupt/valid-16x16.jpg")
        #expect(throws: ImagingError.exceedsPixelBudget(file: nil, width: 16, height: 16, budget: 255)) {
            try PNGCodec.decodeRGB(png, pixelBudget: 255)
        }
        #expect(throws: ImagingError.exceedsPixelBudget(file: nil, width: 16, height: 16, budget: 255)) {
            try JPEGCodec.decodeRGB(jpeg, pixelBudget: 255)
        }
        // The budget applies to the scaled output: 1/2 of 16×16 is 64 pixels.
        #expect(try JPEGCodec.decodeRGB(jpeg, options: JPEGDecodeOptions(scale: .half), pixelBudget: 64).image.width == 8)
    }

    @Test("every truncation of a valid PNG and JPEG gives a typed error or warnings, never a crash")
    func everyTruncation() throws {
        let png = try fixture("corrupt/valid-16x16.png"), jpeg = try fixture("corrupt/valid-16x16.jpg")
        #expect(throws: ImagingError.empty(file: nil)) { try PNGCodec.decodeRGBA([]) }
        for n in 1..<png.count {
            #expect("cut at \(n)") { try PNGCodec.decodeRGBA(Array(png[0..<n])) } throws: { error in
                guard case ImagingError.truncated(nil, "PNG", _) = error else { return false }
                return true
            }
        }
        for n in stride(from: 0, to: jpeg.count, by: 3) {
            let cut = Array(jpeg[0..<n])
            do {
                let r = try JPEGCodec.decodeRGB(cut)
                #expect(!r.warnings.isEmpty, "cut at \(n)")
            } catch {
                #expect(error is ImagingError)
            }
            _ = try? ImageMetadata.read(fromJPEG: cut)
        }
    }
}
