import Foundation
import Imaging
@testable import Reprojection

/// Synthetic panoramas and tolerances shared by the Reprojection tests (named once, here).
enum Fixtures {
    /// Fast path vs reference: largest per-channel difference (grey levels), on any panorama. A
    /// bilinear tap changes by at most 255 levels per source pixel along each axis; positions within
    /// the 1/1024 px interpolation tolerance and 14-bit weights keep it under one level before rounding.
    static let fastPathMaximumDifferenceGreyLevels = 1
    /// Fast path vs reference: mean absolute difference (grey levels).
    static let fastPathMeanDifferenceGreyLevels = 0.05
    /// Against py360convert's e2p (issue 5): mean absolute difference.
    static let py360convertMeanDifferenceGreyLevels = 1.5

    /// The package root (two levels above this file's folder).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A latitude/longitude grid panorama: a smooth colour field (longitude in red, latitude in green,
    /// a diagonal wave in blue) with dark grid lines every 10° that are 2 px wide at this size.
    static func gridPanorama(width: Int = 1024) -> RGB8Image {
        let height = width / 2
        var image = RGB8Image(width: width, height: height)
        image.components.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                let latitude = 90 - (Double(y) + 0.5) / Double(height) * 180
                for x in 0..<width {
                    let longitude = (Double(x) + 0.5) / Double(width) * 360 - 180
                    let onLine = abs(longitude.remainder(dividingBy: 10)) < 360 / Double(width)
                        || abs(latitude.remainder(dividingBy: 10)) < 180 / Double(height)
                    let i = (y * width + x) * 3
                    let r = 128 + 100 * sin(longitude * .pi / 180)
                    let g = 128 + 100 * sin(latitude * .pi / 180)
                    let b = 128 + 60 * sin((longitude + latitude) * .pi / 45)
                    p[i] = UInt8(onLine ? r * 0.3 : r); p[i + 1] = UInt8(onLine ? g * 0.3 : g); p[i + 2] = UInt8(onLine ? b * 0.3 : b)
                }
            }
        }
        return image
    }

    /// Independent random values in every channel of every pixel: the steepest image there is, where a
    /// tap moves by up to 255 levels per source pixel (the worst case for position errors).
    static func noisePanorama(width: Int, seed: UInt64 = 0x5EED) -> RGB8Image {
        var image = RGB8Image(width: width, height: width / 2)
        var state = seed
        for i in 0..<image.components.count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // Mostly extremes, so that neighbouring texels often differ by the full 255.
            let r = UInt8(truncatingIfNeeded: state >> 56)
            image.components[i] = r < 96 ? 0 : (r < 192 ? 255 : r)
        }
        return image
    }

    /// A 1-pixel black/white checkerboard: the worst case for aliasing.
    static func checkerboardPanorama(width: Int) -> RGB8Image {
        let height = width / 2
        var image = RGB8Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where (x + y) % 2 == 0 {
                for c in 0..<3 { image[x, y, c] = 255 }
            }
        }
        return image
    }

    static func camera(_ heading: Double, _ pitch: Double, fov: Double = 90, width: Int = 160, height: Int = 120)
        throws -> ViewCamera {
        try ViewCamera(headingDegrees: heading, pitchDegrees: pitch, fieldOfViewDegrees: fov, width: width, height: height)
    }

    /// Per-channel mean and maximum absolute difference.
    static func difference(_ a: RGB8Image, _ b: RGB8Image) -> (mean: Double, maximum: Int) {
        (ImageMetrics.meanAbsoluteDifference(a, b), ImageMetrics.maximumAbsoluteDifference(a, b))
    }

    /// Writes `fast`, `reference` and their difference (each channel's difference × 64 on black: a
    /// 1-level difference is dark grey, 4 levels full) as PNGs named `name` into `failures/` beside
    /// this file (git ignores that folder); returns the folder and name.
    static func writeComparison(_ fast: RGB8Image, _ reference: RGB8Image, name: String) throws -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("failures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let safe = String(name.map { $0.isLetter || $0.isNumber || "-.".contains($0) ? $0 : "_" })
        var diff = RGB8Image(width: fast.width, height: fast.height)
        for i in 0..<diff.components.count {
            diff.components[i] = UInt8(min(255, 64 * abs(Int(fast.components[i]) - Int(reference.components[i]))))
        }
        for (image, suffix) in [(fast, "fast"), (reference, "reference"), (diff, "diff")] {
            try ImageFile.write(PNGCodec.encode(image.withAlpha()), to: folder.appendingPathComponent("\(safe).\(suffix).png").path)
        }
        return folder.appendingPathComponent(safe).path + ".{fast,reference,diff}.png"
    }

    /// Standard deviation of the first channel.
    static func standardDeviation(_ image: RGB8Image) -> Double {
        let values = stride(from: 0, to: image.components.count, by: 3).map { Double(image.components[$0]) }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }
}
