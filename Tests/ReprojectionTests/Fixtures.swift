import Foundation
import Foundation
import Imaging
@testable import Reprojection

/// Synthetic panoramas and tolerances shared by the Reprojection tests (named once, here).
enum Fixtures {
    /// Fast path vs reference: largest per-channel difference (grey levels). A hard 0/255 edge moves
    /// by at most the 0.05 px interpolation tolerance plus 1/256 px of weight quantisation: ~14 levels.
    static let fastPathMaximumDifferenceGreyLevels = 16
    /// Fast path vs reference: mean absolute difference (grey levels).
    static let fastPathMeanDifferenceGreyLevels = 0.3
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

    /// Standard deviation of the first channel.
    static func standardDeviation(_ image: RGB8Image) -> Double {
        let values = stride(from: 0, to: image.components.count, by: 3).map { Double(image.components[$0]) }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }
}
