import Foundation
import Imaging
import Parallelism

/// The equi-angular cubemap (EAC) in the 3×2 layout YouTube defined and FFmpeg's `v360` reads as `eac`
/// (and a GoPro MAX's two strips make once their overlap bands are blended):
///
/// ```
///   +--------+--------+--------+
///   |  left  | front  | right  |     upright
///   +--------+--------+--------+
///   |  down  |  back  |   up   |     down and up turned 90° anticlockwise, back 90° clockwise
///   +--------+--------+--------+
/// ```
///
/// Each face is `faceSize` square and spans 90°; along each face axis the angle, not its tangent, is
/// linear in the pixel position (a cube face at `s` in −1…1 shows the direction at tan(s·π/4)), so
/// every pixel covers about the same solid angle. Directions are in the panorama's own frame:
/// forward (the front face's centre, which becomes the equirectangular centre column), right and up,
/// as ``Geodesy/EquirectangularFrame`` names them. The layout and turns were matched against FFmpeg
/// 5.1's `v360=e:eac` (a test keeps them so).
public struct EquiAngularCubemap: Sendable, Hashable {
    /// A face of the cube.
    public enum Face: Int, Sendable, CaseIterable {
        case left, front, right, down, back, up
    }

    /// Side of one face, pixels.
    public let faceSize: Int
    /// The layout's size: 3 faces across, 2 down.
    public var width: Int { 3 * faceSize }
    public var height: Int { 2 * faceSize }

    /// A cubemap of `faceSize`-pixel faces (≥ 2).
    public init(faceSize: Int) {
        precondition(faceSize >= 2, "face size must be at least 2 pixels")
        self.faceSize = faceSize
    }

    /// Where each face sits in the layout (column, row) and by how many quarter turns clockwise its
    /// picture is turned there.
    static func cell(of face: Face) -> (column: Int, row: Int, quarterTurns: Int) {
        switch face {
        case .left: (0, 0, 0)
        case .front: (1, 0, 0)
        case .right: (2, 0, 0)
        case .down: (0, 1, 3)
        case .back: (1, 1, 1)
        case .up: (2, 1, 3)
        }
    }

    /// The (unnormalised) direction (forward, right, up) of face coordinates (`s` right, `t` down, each
    /// −1…1 on the face plane, i.e. tangent space) as seen from inside the cube with the face upright.
    @inline(__always)
    static func direction(face: Face, s: Double, t: Double) -> SIMD3<Double> {
        switch face {
        case .front: SIMD3(1, s, -t)
        case .back: SIMD3(-1, -s, -t)
        case .right: SIMD3(-s, 1, -t)
        case .left: SIMD3(s, -1, -t)
        case .up: SIMD3(t, s, 1)
        case .down: SIMD3(-t, s, -1)
        }
    }

    /// The face a direction (forward, right, up; any length > 0) falls on and its face coordinates in
    /// tangent space (the inverse of ``direction(face:s:t:)``).
    @inline(__always)
    static func face(of d: SIMD3<Double>) -> (face: Face, s: Double, t: Double) {
        let af = abs(d.x), ar = abs(d.y), au = abs(d.z)
        if af >= ar && af >= au {
            return d.x > 0 ? (.front, d.y / d.x, -d.z / d.x) : (.back, d.y / d.x, d.z / d.x)
        }
        if ar >= au {
            return d.y > 0 ? (.right, -d.x / d.y, -d.z / d.y) : (.left, -d.x / d.y, d.z / d.y)
        }
        return d.z > 0 ? (.up, d.y / d.z, d.x / d.z) : (.down, -d.y / d.z, d.x / d.z)
    }

    /// The layout position (continuous pixels, centres at integer + ½) of a direction, and the face's
    /// rectangle of pixel indices.
    public func position(of d: SIMD3<Double>) -> PlaneRemap.Source {
        let (face, s, t) = Self.face(of: d)
        // Equi-angular: the angle is linear in the pixel position.
        let a = atan(s) * (4 / Double.pi), b = atan(t) * (4 / Double.pi)
        let (column, row, turns) = Self.cell(of: face)
        // Face coordinates → cell coordinates: the face's picture is turned `turns` quarters clockwise.
        let (u, v): (Double, Double)
        switch turns {
        case 1: (u, v) = (-b, a)
        case 2: (u, v) = (-a, -b)
        case 3: (u, v) = (b, -a)
        default: (u, v) = (a, b)
        }
        let n = Double(faceSize)
        return (x: (Double(column) + (u + 1) / 2) * n, y: (Double(row) + (v + 1) / 2) * n,
                minX: column * faceSize, minY: row * faceSize, maxX: column * faceSize + faceSize - 1, maxY: row * faceSize + faceSize - 1)
    }

    /// The direction (forward, right, up; unnormalised) of a layout position in pixels.
    public func direction(x: Double, y: Double) -> SIMD3<Double> {
        let n = Double(faceSize)
        let column = min(2, max(0, Int(x / n))), row = min(1, max(0, Int(y / n)))
        let face = Face.allCases.first { Self.cell(of: $0).column == column && Self.cell(of: $0).row == row }!
        let u = (x / n - Double(column)) * 2 - 1, v = (y / n - Double(row)) * 2 - 1
        let (a, b): (Double, Double)
        switch Self.cell(of: face).quarterTurns {
        case 1: (a, b) = (v, -u)
        case 2: (a, b) = (-u, -v)
        case 3: (a, b) = (-v, u)
        default: (a, b) = (u, v)
        }
        return Self.direction(face: face, s: tan(a * .pi / 4), t: tan(b * .pi / 4))
    }

    /// The position in this layout of an equirectangular sample centre (`x`, `y`) of a `width × height`
    /// panorama (centre column forward, row 0 the zenith side: DESIGN §3).
    public func position(equirectangularX x: Double, y: Double, width: Int, height: Int) -> PlaneRemap.Source {
        let longitude = (x / Double(width) - 0.5) * 2 * .pi, latitude = .pi / 2 - y / Double(height) * .pi
        let c = cos(latitude)
        return position(of: SIMD3(c * cos(longitude), c * sin(longitude), sin(latitude)))
    }

    /// The map from one plane of this layout to an equirectangular plane `outputWidth × outputHeight`:
    /// built once (trigonometry per sample, rows on all cores), applied to every frame. For 4:2:0
    /// video the chroma planes take the map of a cubemap of half the face size.
    public func equirectangularRemap(outputWidth: Int, outputHeight: Int, maximumThreads: Int? = nil) -> PlaneRemap {
        let layout = self
        return PlaneRemap(outputWidth: outputWidth, outputHeight: outputHeight, sourceWidth: width, sourceHeight: height,
                          maximumThreads: maximumThreads) { x, y in
            layout.position(equirectangularX: x, y: y, width: outputWidth, height: outputHeight)
        }
    }

    /// This layout rendered from an equirectangular RGB panorama (bilinear, the panorama's columns wrapping):
    /// FFmpeg's `v360=e:eac`, for making cubemaps of known content (tests, benchmarks).
    public func render(from panorama: RGB8Image, maximumThreads: Int? = nil) -> RGB8Image {
        var out = RGB8Image(unfilledWidth: width, height: height)
        let w = panorama.width, h = panorama.height, layoutWidth = width
        panorama.components.withUnsafeBufferPointer { source in
            out.components.withUnsafeMutableBufferPointer { destination in
                nonisolated(unsafe) let source = source, destination = destination
                Parallel.forEachRowRange(height, minimumRowsPerChunk: 8, maximumThreads: maximumThreads) { rows in
                    for y in rows {
                        for x in 0..<layoutWidth {
                            let d = direction(x: Double(x) + 0.5, y: Double(y) + 0.5)
                            let longitude = atan2(d.y, d.x), latitude = atan2(d.z, (d.x * d.x + d.y * d.y).squareRoot())
                            let px = (longitude / (2 * .pi) + 0.5) * Double(w) - 0.5
                            let py = min(max((0.5 - latitude / .pi) * Double(h) - 0.5, 0), Double(h - 1))
                            let x0 = Int(px.rounded(.down)), y0 = min(Int(py), h - 2)
                            let fx = px - Double(x0), fy = py - Double(y0)
                            let xa = (x0 % w + w) % w, xb = (xa + 1) % w
                            for c in 0..<3 {
                                func at(_ xx: Int, _ yy: Int) -> Double { Double(source[3 * (yy * w + xx) + c]) }
                                let v = (at(xa, y0) * (1 - fx) + at(xb, y0) * fx) * (1 - fy) + (at(xa, y0 + 1) * (1 - fx) + at(xb, y0 + 1) * fx) * fy
                                destination[3 * (y * layoutWidth + x) + c] = UInt8(max(0, min(255, v.rounded())))
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
