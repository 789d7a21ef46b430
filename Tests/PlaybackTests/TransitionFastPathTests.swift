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
        // With the coarse levels (the default) and at full density.
        for spacing in [PanoramaTransition.coarseSplatSpacingPixels, 0] {
            transition.coarseSpacingPixels = spacing
            let rendered = transition.renderReference(fraction: c.fraction, camera: camera)
            let reference = try #require(rendered)
            // Twice: the second frame reuses the scratch buffers the first left behind.
            for _ in 0..<2 {
                let fast = try transition.render(fraction: c.fraction, camera: camera)
                let differing = zip(fast.components, reference.components).filter { $0 != $1 }.count
                #expect(differing == 0, "\(c) coarse spacing \(spacing): \(differing) of \(fast.components.count) components differ")
            }
        }
    }

    /// The larger end's splat is cut into bands of view rows of about equal work (blocks counted
    /// where their rows start), covering every row once, in order.
    @Test func workBandsShareTheWorkAndCoverEveryRow() {
        // 40 blocks: the first 30 start on rows 0…29 (one each), the last 10 all on row 50; level 0
        // (256 points each), one culled block that must not count.
        var levels = [Int8](repeating: 0, count: 41), rows: [SIMD2<Int32>] = []
        for k in 0..<30 { rows.append(SIMD2(Int32(k), Int32(k + 16))) }
        for _ in 0..<10 { rows.append(SIMD2(50, 66)) }
        rows.append(SIMD2(0, 100))
        levels[40] = -1
        var starts = [Int](repeating: 7, count: 101)
        let bands = levels.withUnsafeBufferPointer { l in rows.withUnsafeBufferPointer { r in starts.withUnsafeMutableBufferPointer { s in
            PanoramaTransition.workBands(4, levels: l, viewRows: r, height: 100, starts: s)
        } } }
        // A quarter of 40 blocks is 10: rows 0…9, 10…19, 20…29, then row 50's ten blocks with the rest.
        #expect(bands == [0, 10, 20, 30, 100], "\(bands)")
        let empty = [Int8](repeating: -1, count: 3), none = [SIMD2<Int32>](repeating: .zero, count: 3)
        let whole = empty.withUnsafeBufferPointer { l in none.withUnsafeBufferPointer { r in starts.withUnsafeMutableBufferPointer { s in
            PanoramaTransition.workBands(3, levels: l, viewRows: r, height: 100, starts: s)
        } } }
        #expect(whole.count == 4 && whole.first == 0 && whole.last == 100 && zip(whole, whole.dropFirst()).allSatisfy { $0 <= $1 }, "\(whole)")
    }

    /// The culling culls: a 90° view sees well under half of the panorama's blocks.
    @Test func blockCullingLeavesOutWhatTheViewCannotSee() throws {
        let (a, _) = try TransitionGroundTruthTests.endpoint("aleksanterinkatu-030"), (b, _) = try TransitionGroundTruthTests.endpoint("aleksanterinkatu-031")
        let cloud = PointCloud(a, depth: try #require(a.depth))
        let camera = try ViewCamera(headingDegrees: 90, width: 320, height: 180)
        var levels = [Int8](repeating: 0, count: cloud.blockCount)
        let offset = SIMD3<Float>(Float(b.position.east - a.position.east), Float(b.position.north - a.position.north), 0) * 0.5
        levels.withUnsafeMutableBufferPointer {
            cloud.cull(view: ViewSetup(camera: camera), eyeOffset: offset, maximumSpacingPixels: PanoramaTransition.coarseSplatSpacingPixels, into: $0)
        }
        let kept = levels.filter { $0 >= 0 }.count, share = Double(kept) / Double(levels.count)
        print("block culling: \(kept) of \(levels.count) blocks kept (\(share))")
        #expect(share > 0.02 && share < 0.35, "\(share) of the blocks kept")
    }

    /// The panorama ahead, seen from behind its camera (the benchmark's view: half-way from -030 to
    /// -029, looking along the move), is splatted mostly from the coarse levels (measured: 551 of its
    /// 990 blocks kept, 57 % of their points); the one behind from its own pixels.
    /// Each coarse point is one of its cell's points with the cell's extent.
    @Test func thePanoramaAheadIsSplattedFromCoarserLevels() throws {
        let (a, _) = try TransitionGroundTruthTests.endpoint("aleksanterinkatu-030"), (b, _) = try TransitionGroundTruthTests.endpoint("aleksanterinkatu-029")
        let travel = atan2(b.position.east - a.position.east, b.position.north - a.position.north) * 180 / .pi
        let camera = try ViewCamera(headingDegrees: Angle.normalizedHeadingDegrees(travel), width: 320, height: 180)
        var points: [String: (kept: Int, coarse: Int, splatted: Int, full: Int)] = [:]
        for (name, end, other) in [("behind", a, b), ("ahead", b, a)] {
            let cloud = PointCloud(end, depth: try #require(end.depth))
            let offset = SIMD3<Float>(Float(other.position.east - end.position.east), Float(other.position.north - end.position.north), 0) * 0.5
            var levels = [Int8](repeating: 0, count: cloud.blockCount)
            levels.withUnsafeMutableBufferPointer {
                cloud.cull(view: ViewSetup(camera: camera), eyeOffset: offset, maximumSpacingPixels: PanoramaTransition.coarseSplatSpacingPixels, into: $0)
            }
            let size = PointCloud.blockSize * PointCloud.blockSize
            let kept = levels.filter { $0 >= 0 }
            // Level L: one point per 2^L × 2^L cell; column shift c: every 2^c-th cell of a row.
            let splatted = kept.map { size >> (2 * Int($0 & 3) + Int($0 >> 2)) }.reduce(0, +)
            points[name] = (kept.count, kept.filter { $0 > 0 }.count, splatted, kept.count * size)
            print("\(name): \(kept.count) blocks kept, \(kept.filter { $0 > 0 }.count) of them coarse; \(splatted) of \(kept.count * size) points splatted")
            // Coarse points are copies of points of their cells (so the block boxes still bound them).
            for level in 1...PointCloud.coarsestLevel {
                let step = 1 << level, cellsAcross = cloud.levelWidths[level]
                for (cy, cx) in [(0, 0), (cloud.height / step / 2, cellsAcross / 3), (cloud.height / step - 1, cellsAcross - 1)] {
                    let k = cloud.levelOffsets[level] + cy * cellsAcross + cx
                    let pixel = (cy * step + step / 2) * cloud.width + cx * step + step / 2
                    #expect(cloud.points[k] == cloud.points[pixel])
                    #expect(cloud.extents[k] == cloud.extents[pixel] * Float(step))
                }
            }
        }
        let ahead = try #require(points["ahead"]), behind = try #require(points["behind"])
        #expect(ahead.coarse * 2 > ahead.kept, "ahead: \(ahead.coarse) of \(ahead.kept) blocks coarse")
        #expect(ahead.splatted * 3 < ahead.full * 2, "ahead: \(ahead.splatted) of \(ahead.full) points splatted")
        #expect(behind.coarse * 4 < behind.kept, "behind: \(behind.coarse) of \(behind.kept) blocks coarse")
    }
}
