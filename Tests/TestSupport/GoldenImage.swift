import Foundation
import Imaging
import Testing

/// How far a rendered image may stray from its golden image.
public struct GoldenTolerance: Sendable {
    /// The lowest acceptable PSNR in dB over all channels.
    public var minimumPSNR: Double
    /// A pixel "differs" when any channel differs by more than this many grey levels…
    public var channelThreshold: Int
    /// …and at most this fraction (0…1) of pixels may differ.
    public var maximumDifferingFraction: Double

    public init(minimumPSNR: Double = 40, channelThreshold: Int = 16, maximumDifferingFraction: Double = 0.002) {
        self.minimumPSNR = minimumPSNR
        self.channelThreshold = channelThreshold
        self.maximumDifferingFraction = maximumDifferingFraction
    }

    /// Drawing and text from our own code on the same machine: near-identical.
    public static let rendering = GoldenTolerance()
}

/// Golden-image checks. Golden PNGs live in `Fixtures/golden/` beside the calling test file.
///
/// - On a mismatch the test fails and writes `failures/<name>.actual.png` and
///   `failures/<name>.diff.png` beside the test file (git ignores that folder), and names them.
/// - `LOOKAROUND_REGENERATE_GOLDEN=1 swift test` rewrites the golden images instead of comparing;
///   look at every regenerated image before committing it.
public enum GoldenImage {
    /// Compares `image` with the golden image `name` (without extension) and records a test issue
    /// on mismatch. Returns true when it matches (or was regenerated).
    @discardableResult
    public static func check(_ image: RGBA8Image, named name: String,
                             tolerance: GoldenTolerance = .rendering,
                             filePath: String = #filePath,
                             sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let testDirectory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        let goldenURL = testDirectory.appendingPathComponent("Fixtures/golden/\(name).png")
        let failures = testDirectory.appendingPathComponent("failures")
        let regenerate = ProcessInfo.processInfo.environment["LOOKAROUND_REGENERATE_GOLDEN"] == "1"
        do {
            if regenerate {
                try FileManager.default.createDirectory(at: goldenURL.deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                try ImageFile.write(PNGCodec.encode(image), to: goldenURL.path)
                return true
            }
            guard FileManager.default.fileExists(atPath: goldenURL.path) else {
                let actual = try write(image, to: failures, name: "\(name).actual.png")
                fail("no golden image \(goldenURL.path); the rendering is in \(actual). "
                     + "Look at it, then run with LOOKAROUND_REGENERATE_GOLDEN=1 to adopt it.", sourceLocation)
                return false
            }
            let golden = try PNGCodec.decodeRGBA(ImageFile.read(goldenURL.path), file: goldenURL.path)
            guard golden.width == image.width, golden.height == image.height else {
                let actual = try write(image, to: failures, name: "\(name).actual.png")
                fail("\(name): size \(image.size) differs from the golden \(golden.size); see \(actual)", sourceLocation)
                return false
            }
            let psnr = ImageMetrics.psnr(image, golden)
            let fraction = ImageMetrics.differingPixelFraction(image, golden, threshold: tolerance.channelThreshold)
            if psnr >= tolerance.minimumPSNR && fraction <= tolerance.maximumDifferingFraction { return true }
            let actual = try write(image, to: failures, name: "\(name).actual.png")
            let diff = try write(ImageMetrics.diffImage(golden, image), to: failures, name: "\(name).diff.png")
            fail("""
                \(name) differs from its golden image: PSNR \(String(format: "%.2f", psnr)) dB \
                (minimum \(tolerance.minimumPSNR)), \(String(format: "%.4f", fraction * 100)) % of pixels off by more \
                than \(tolerance.channelThreshold) levels (maximum \(tolerance.maximumDifferingFraction * 100) %). \
                Actual: \(actual); diff: \(diff)
                """, sourceLocation)
            return false
        } catch {
            fail("golden image \(name): \(error)", sourceLocation)
            return false
        }
    }

    private static func fail(_ message: String, _ sourceLocation: SourceLocation) {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    private static func write(_ image: RGBA8Image, to directory: URL, name: String) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try ImageFile.write(PNGCodec.encode(image), to: url.path)
        return url.path
    }
}
