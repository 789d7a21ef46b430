import Foundation
import Geodesy
import Imaging
@testable import Reprojection
import Testing

/// DESIGN §3: the optimised depth warp (block culling, both cores, parallel blend and fill) against
/// the serial reference kernels it replaced, on the shipped panoramas: the same bytes.
@Suite(.serialized) struct TransitionFastPathTests {
    struct Case: CustomStringConvertible {
        var a: String, b: String, fraction: Double, headingOffset: Double, pitch: Double = 0, fieldOfView: Double = 90
        var width = 320, height = 180
        var description: String { "\(a)→\(b) t=\(fraction) heading \(headingOffset) pitch \(pitch) fov \(fieldOfView) \(width)×\(height)" }
    }

    static let cases: [Case] = [
        Case(a: "aleksanterinkatu-030", b: "aleksanterinkatu-031", fraction: 0.5, headingOffset: 0),
        Case(a: "aleksanterinkatu-030", b: "aleksanterinkatu-031", fraction: 0.1, headingOffset: 180, width: 640, height: 360),
        Case(a: "aleksanterinkatu-030", b: "aleksanterinkatu-031", fraction: 0.9, headingOffset: 75, fieldOfView: 40),
        Case(a: "aleksanterinkatu-000", b: "mannerheimintie-014", fraction: 0.5, headingOffset: 45),
        Case(a: "senaatintori-003", b: "senaatintori-004", fraction: 0.3, headingOffset: -120, pitch: 25, width: 200, height: 300),
        // Steep pitch: no row/column culling, blocks only.
        Case(a: "senaatintori-006", b: "senaatintori-007", fraction: 0.6, headingOffset: 10, pitch: -70, fieldOfView: 110),
        Case(a: "pohjoisesplanadi-020", b: "pohjoisesplanadi-021", fraction: 0.0, headingOffset: 30, width: 3, height: 3),
        Case(a: "pohjoisesplanadi-020", b: "pohjoisesplanadi-021", fraction: 1.0, headingOffset: -30, fieldOfView: 120, width: 97, height: 61),
    ]

    @Test(arguments: cases)
    func fastWarpMatchesTheReferenceKernels(_ c: Case) throws {
        let (a, _) = try TransitionGroundTruthTests.endpoint(c.a), (b, _) = try TransitionGroundTruthTests.endpoint(c.b)
        var transition = PanoramaTransition(from: a, to: b)
        let travel = atan2(b.position.east - a.position.east, b.position.north - a.position.north) * 180 / .pi
        let camera = try ViewCamera(headingDegrees: Angle.normalizedHeadingDegrees(travel + c.headingOffset), pitchDegrees: c.pitch,
                                    fieldOfViewDegrees: c.fieldOfView, width: c.width, height: c.height)
        let rendered = transition.renderReference(fraction: c.fraction, camera: camera)
        let reference = try #require(rendered)
        // Twice: the second frame reuses the scratch buffers the first left behind.
        for _ in 0..<2 {
            let fast = try transition.render(fraction: c.fraction, camera: camera)
            let differing = zip(fast.components, reference.components).filter { $0 != $1 }.count
            #expect(differing == 0, "\(c): \(differing) of \(fast.components.count) components differ")
        }
    }

    /// The culling culls: a 90° view sees well under half of the panorama's blocks.
    @Test func blockCullingLeavesOutWhatTheViewCannotSee() throws {
        let (a, _) = try TransitionGroundTruthTests.endpoint("aleksanterinkatu-030"), (b, _) = try TransitionGroundTruthTests.endpoint("aleksanterinkatu-031")
        let cloud = PointCloud(a, depth: try #require(a.depth))
        let camera = try ViewCamera(headingDegrees: 90, width: 320, height: 180)
        var visible = [Bool](repeating: false, count: cloud.blockCount)
        let offset = SIMD3<Float>(Float(b.position.east - a.position.east), Float(b.position.north - a.position.north), 0) * 0.5
        visible.withUnsafeMutableBufferPointer { cloud.cull(view: ViewSetup(camera: camera), eyeOffset: offset, into: $0) }
        let share = Double(visible.filter { $0 }.count) / Double(visible.count)
        print("block culling: \(visible.filter { $0 }.count) of \(visible.count) blocks kept (\(share))")
        #expect(share > 0.02 && share < 0.35, "\(share) of the blocks kept")
    }
}
