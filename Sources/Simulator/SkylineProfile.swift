import Foundation
import Geodesy
import Imaging
import Parallelism

/// A panorama's skyline: for each column (a bearing), the elevation of the top of whatever stands
/// against the sky there, degrees (−90…90); `nan` where the picture does not show it (a cropped band, a
/// column whose top is missing).
///
/// Columns are bearings around a reference heading, level whatever the panorama's pose: column `c` of
/// `columns` looks at `headingDegrees + ((c + 0.5) / columns − 0.5) × 360°`. Two profiles of the same
/// place with the same reference heading differ by a shift of columns when their headings differ,
/// which is what ``PoseAligner`` finds.
public struct SkylineProfile: Sendable, Hashable {
    /// The bearing of the profile's centre column boundary, degrees (see the type's discussion).
    public let headingDegrees: Double
    /// Elevation of the skyline per column, degrees; `nan` for unknown.
    public var elevations: [Float]

    /// The number of columns.
    public var columns: Int { elevations.count }

    /// A profile from its elevations.
    public init(headingDegrees: Double, elevations: [Float]) {
        self.headingDegrees = headingDegrees
        self.elevations = elevations
    }

    /// The share of columns with a known elevation, 0…1.
    public var knownShare: Double {
        elevations.isEmpty ? 0 : Double(elevations.count { !$0.isNaN }) / Double(elevations.count)
    }

}

// MARK: - The skyline of a photo

/// A photographed panorama as the aligner reads it: the decoded picture (at any scale), where it sits in
/// the full sphere (a GPano crop, in the decoded picture's pixels), and its pose from the metadata.
public struct PhotoPanorama: Sendable {
    /// The decoded picture.
    public var image: RGB8Image
    /// The full panorama's width and height in the decoded picture's pixels (the image size when the
    /// photo is not cropped).
    public var fullWidth: Double, fullHeight: Double
    /// The picture's top-left corner inside the full panorama, in the same pixels.
    public var left: Double, top: Double
    /// The pose from the metadata: heading of the centre column, pitch and roll (degrees).
    public var headingDegrees: Double, pitchDegrees: Double, rollDegrees: Double

    /// A photo panorama from its parts; `fullWidth`/`fullHeight` default to the picture's size.
    public init(image: RGB8Image, headingDegrees: Double, pitchDegrees: Double = 0, rollDegrees: Double = 0,
                fullWidth: Double? = nil, fullHeight: Double? = nil, left: Double = 0, top: Double = 0) {
        self.image = image
        self.headingDegrees = headingDegrees
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
        self.fullWidth = fullWidth ?? Double(image.width)
        self.fullHeight = fullHeight ?? Double(image.height)
        self.left = left
        self.top = top
    }
}

extension SkylineProfile {
    /// The colour step between vertically adjacent samples that ends the sky, in 8-bit levels (the
    /// largest of the three channels): a clear or overcast sky changes by a level or two per half
    /// degree, a roof edge or a tree against it by tens.
    public static let skyEdgeLevels = 20

    /// The skyline of a photo, read per column from the zenith down: the first sample whose colour
    /// steps from the one above by more than ``skyEdgeLevels`` ends the sky.
    ///
    /// The photo is resampled level (its pose pitch and roll undone) to `columns` × `columns / 2`
    /// samples, each the mean of four bilinear taps, with column 0 at `photo.headingDegrees − 180°`.
    /// A column whose samples leave the picture before the sky ends is unknown.
    public init(photo: PhotoPanorama, columns: Int) {
        let rows = columns / 2
        let level = EquirectangularFrame(headingDegrees: photo.headingDegrees)
        let pose = EquirectangularFrame(headingDegrees: photo.headingDegrees, pitchDegrees: photo.pitchDegrees,
                                        rollDegrees: photo.rollDegrees)
        let width = photo.image.width, height = photo.image.height
        let fullWidth = photo.fullWidth, fullHeight = photo.fullHeight, left = photo.left, top = photo.top
        let wraps = fullWidth <= Double(width) + 0.5  // a full circle: columns wrap around
        var elevations = [Float](repeating: .nan, count: columns)
        let threshold = Float(Self.skyEdgeLevels)
        photo.image.components.withUnsafeBufferPointer { pixels in
            elevations.withUnsafeMutableBufferPointer { out in
                nonisolated(unsafe) let (pixels, out) = (pixels, out)
                // One bilinear tap at normalized (u, v) of the level panorama added to `sum`; false outside
                // the picture. (Scalar arithmetic: SIMD types are slow in debug builds, where the tests run.)
                func tap(_ u: Double, _ v: Double, into sum: inout (Float, Float, Float)) -> Bool {
                    var (pu, pv) = (u, v)
                    if !pose.isLevel { (pu, pv) = pose.position(of: level.direction(u: u, v: v)) }
                    var x = pu * fullWidth - left - 0.5
                    let y = pv * fullHeight - top - 0.5
                    if wraps {
                        x = x.truncatingRemainder(dividingBy: fullWidth)
                        if x < -0.5 { x += fullWidth }
                    }
                    guard x >= -0.5, y >= -0.5, x <= Double(width) - 0.5, y <= Double(height) - 0.5 else { return false }
                    let x0 = min(max(Int(x.rounded(.down)), 0), width - 1), y0 = min(max(Int(y.rounded(.down)), 0), height - 1)
                    let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                    let fx = Float(min(max(x - Double(x0), 0), 1)), fy = Float(min(max(y - Double(y0), 0), 1))
                    let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
                    let i00 = (y0 * width + x0) * 3, i10 = (y0 * width + x1) * 3, i01 = (y1 * width + x0) * 3, i11 = (y1 * width + x1) * 3
                    sum.0 += w00 * Float(pixels[i00]) + w10 * Float(pixels[i10]) + w01 * Float(pixels[i01]) + w11 * Float(pixels[i11])
                    sum.1 += w00 * Float(pixels[i00 + 1]) + w10 * Float(pixels[i10 + 1]) + w01 * Float(pixels[i01 + 1]) + w11 * Float(pixels[i11 + 1])
                    sum.2 += w00 * Float(pixels[i00 + 2]) + w10 * Float(pixels[i10 + 2]) + w01 * Float(pixels[i01 + 2]) + w11 * Float(pixels[i11 + 2])
                    return true
                }
                // One sample: the sum of four taps a quarter sample apart (4 × the mean), or nil.
                func sample(_ c: Int, _ r: Int) -> (Float, Float, Float)? {
                    let u0 = (Double(c) + 0.25) / Double(columns), u1 = (Double(c) + 0.75) / Double(columns)
                    let v0 = (Double(r) + 0.25) / Double(rows), v1 = (Double(r) + 0.75) / Double(rows)
                    var sum: (Float, Float, Float) = (0, 0, 0)
                    guard tap(u0, v0, into: &sum), tap(u1, v0, into: &sum), tap(u0, v1, into: &sum), tap(u1, v1, into: &sum) else { return nil }
                    return sum
                }
                Parallel.forEachRowRange(columns, minimumRowsPerChunk: 32) { range in
                    for c in range {
                        guard var previous = sample(c, 0) else { continue }
                        for r in 1..<rows {
                            guard let current = sample(c, r) else { break }
                            let step = max(abs(current.0 - previous.0), max(abs(current.1 - previous.1), abs(current.2 - previous.2)))
                            if step > 4 * threshold {
                                out[c] = Float(90 - Double(r) * 180 / Double(rows))
                                break
                            }
                            previous = current
                        }
                    }
                }
            }
        }
        self.init(headingDegrees: photo.headingDegrees, elevations: elevations)
    }
}

// MARK: - The skyline of the city model

extension CityModel {
    /// The elevation step of the model's skyline scan, degrees: rays go down each column from 89° in
    /// these steps until one hits, then the edge is bisected to ``skylinePrecisionDegrees``.
    static let skylineScanStepDegrees = 2.0
    /// How finely the model's skyline edge is bisected, degrees.
    static let skylinePrecisionDegrees = 0.05

    /// The skyline of the model seen from `position` (scene metres), `columns` bearings around
    /// `headingDegrees` (see ``SkylineProfile``): per column the elevation where rays from the zenith
    /// down first meet a surface. Detail thinner than ``skylineScanStepDegrees`` above the first hit
    /// (a lamp's arm) can be missed.
    ///
    /// `near`: the skyline from a position close by, with as many columns: each column's scan starts
    /// a few degrees above it instead of at the zenith (the aligner's local search, where it saves most
    /// of the rays).
    public func skyline(at position: EastNorthUp, headingDegrees: Double, columns: Int, near: SkylineProfile? = nil,
                        maximumThreads: Int? = nil) -> SkylineProfile {
        var elevations = [Float](repeating: .nan, count: columns)
        let origin = Vec3(Float(position.east), Float(position.north), Float(position.up))
        let query = self.query
        let hint = near.flatMap { $0.columns == columns ? $0.elevations : nil }
        elevations.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out
            Parallel.forEachRowRange(columns, minimumRowsPerChunk: 16, maximumThreads: maximumThreads) { range in
                let stack = UnsafeMutablePointer<UInt32>.allocate(capacity: stackCapacity)
                defer { stack.deallocate() }
                for c in range {
                    let yaw = (headingDegrees + ((Double(c) + 0.5) / Double(columns) - 0.5) * 360) * .pi / 180
                    let sinYaw = sin(yaw), cosYaw = cos(yaw)
                    func hits(_ elevation: Double) -> Bool {
                        let e = elevation * .pi / 180
                        let d = Vec3(Float(cos(e) * sinYaw), Float(cos(e) * cosYaw), Float(sin(e)))
                        return query.closest(origin: origin, direction: d, stack: stack) != nil
                    }
                    let step = Self.skylineScanStepDegrees
                    var above = 89.0, below = 89.0
                    if let guess = hint?[c], !guess.isNaN, Double(guess) + step < 89, hits(Double(guess) + step) {
                        // Something stands higher than the neighbour's skyline: up until the sky.
                        below = Double(guess) + step
                        while true {
                            if below >= 89 { break }
                            above = min(89, below + step)
                            if !hits(above) { break }
                            below = above
                        }
                        if below >= 89 { out[c] = 89; continue }
                    } else {
                        if let guess = hint?[c], !guess.isNaN, Double(guess) + step < 89 {
                            above = Double(guess) + step  // sky there: down from it
                        } else if hits(above) {
                            out[c] = Float(above)  // a roof over the camera
                            continue
                        }
                        below = above
                        while below > -60 {
                            below = above - step
                            if hits(below) { break }
                            above = below
                        }
                    }
                    while above - below > Self.skylinePrecisionDegrees {
                        let middle = (above + below) / 2
                        if hits(middle) { below = middle } else { above = middle }
                    }
                    out[c] = Float(above)
                }
            }
        }
        withExtendedLifetime(self) {}
        return SkylineProfile(headingDegrees: headingDegrees, elevations: elevations)
    }
}
