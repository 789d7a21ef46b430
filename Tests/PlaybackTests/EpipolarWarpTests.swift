import Foundation
import Geodesy
import Imaging
@testable import Reprojection
import Testing

/// The epipolar depth warp's parts (``EpipolarWarp``) on the shipped panoramas: the grid region a view
/// needs covers every tap its lookup makes, the ends reproduce their own panoramas, frames repeat, and
/// the fast arctangent keeps its bound. Its quality against the simulator is TransitionGroundTruthTests.
@Suite(.serialized) struct EpipolarWarpTests {
    struct Case: CustomStringConvertible {
        var a: String, b: String, fraction: Double, headingOffset: Double, pitch: Double = 0, fieldOfView: Double = 90
        var width = 320, height = 180
        var description: String { "\(a)→\(b) t=\(fraction) heading \(headingOffset) pitch \(pitch) fov \(fieldOfView) \(width)×\(height)" }
    }

    static let cases: [Case] = [
        // Along the move (the pole in view), back along it (the other pole), across it.
        Case(a: "aleksanterinkatu-030", b: "aleksanterinkatu-031", fraction: 0.5, headingOffset: 0),
        Case(a: "aleksanterinkatu-030", b: "aleksanterinkatu-031", fraction: 0.1, headingOffset: 180, width: 640, height: 360),
        Case(a: "aleksanterinkatu-030", b: "aleksanterinkatu-031", fraction: 0.9, headingOffset: 75, fieldOfView: 40),
        Case(a: "aleksanterinkatu-000", b: "mannerheimintie-014", fraction: 0.5, headingOffset: 45),
        // A pole just outside the view, and tall or steep views.
        Case(a: "senaatintori-003", b: "senaatintori-004", fraction: 0.3, headingOffset: 52, width: 320, height: 180),
        Case(a: "senaatintori-003", b: "senaatintori-004", fraction: 0.3, headingOffset: -120, pitch: 25, width: 200, height: 300),
        Case(a: "senaatintori-006", b: "senaatintori-007", fraction: 0.6, headingOffset: 10, pitch: -70, fieldOfView: 110),
        Case(a: "pohjoisesplanadi-020", b: "pohjoisesplanadi-021", fraction: 0.0, headingOffset: 30, width: 3, height: 3),
        Case(a: "pohjoisesplanadi-020", b: "pohjoisesplanadi-021", fraction: 1.0, headingOffset: -30, fieldOfView: 120, width: 97, height: 61),
    ]

    static func warp(_ c: Case) throws -> (EpipolarWarp, ViewCamera, PanoramaTransition) {
        let (a, _) = try TransitionGroundTruthTests.endpoint(c.a), (b, _) = try TransitionGroundTruthTests.endpoint(c.b)
        let travel = atan2(b.position.east - a.position.east, b.position.north - a.position.north) * 180 / .pi
        let camera = try ViewCamera(headingDegrees: Angle.normalizedHeadingDegrees(travel + c.headingOffset), pitchDegrees: c.pitch,
                                    fieldOfViewDegrees: c.fieldOfView, width: c.width, height: c.height)
        return (EpipolarWarp(from: a, depth: try #require(a.depth), to: b, depth: try #require(b.depth)), camera, PanoramaTransition(from: a, to: b))
    }

    /// Every pixel's four taps (its direction's row and meridian, exactly, at the row's lookup level)
    /// lie on rows its meridians are warped on: nothing the view shows is left over from another frame.
    @Test(arguments: cases)
    func theRegionCoversEveryTapOfTheView(_ c: Case) throws {
        let (warp, camera, _) = try Self.warp(c)
        let region = warp.region(camera: camera)
        let (f, r, u) = camera.basis
        let forward = SIMD3(f.east, f.north, f.up), right = SIMD3(r.east, r.north, r.up), up = SIMD3(u.east, u.north, u.up)
        let focal = camera.focalLengthPixels, perSample = Double(warp.samples) / .pi, perMeridian = Double(warp.meridians) / (2 * .pi)
        var missing = 0, first = ""
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                let d = forward * focal + right * (Double(x) + 0.5 - Double(camera.width) / 2) - up * (Double(y) + 0.5 - Double(camera.height) / 2)
                let along = (d * warp.pole).sum(), a = (d * warp.first).sum(), b = (d * warp.second).sum()
                var phi = atan2(b, a)
                if phi < 0 { phi += 2 * .pi }
                let v = atan2((a * a + b * b).squareRoot(), along) * perSample - 0.5
                let w = phi * perMeridian - 0.5
                let k = Int(v.rounded(.down)), level = Int(region.lookupLevels[max(0, min(region.rows.count, k - region.rows.lowerBound))])
                let spacing = region.meridianCount == warp.meridians ? 1 << level : 1
                let m0 = (Int((w / Double(spacing)).rounded(.down)) * spacing + warp.meridians) % warp.meridians
                for m in [m0, (m0 + spacing) % warp.meridians] {
                    for row in [k, k + 1] where row >= 0 && row < warp.samples {
                        let index = ((m - region.firstMeridian) % warp.meridians + warp.meridians) % warp.meridians
                        let covered = index < region.meridianCount
                            && Int(region.meridianRows[index].x) <= row && row < Int(region.meridianRows[index].y)
                        if !covered {
                            if missing == 0 { first = "pixel (\(x), \(y)): meridian \(m) row \(row), region \(region.rows) from \(region.firstMeridian) ×\(region.meridianCount)" }
                            missing += 1
                        }
                    }
                }
            }
        }
        #expect(missing == 0, "\(c): \(missing) taps outside the region, first \(first)")
        let warped = region.meridianRows.reduce(0) { $0 + Int($1.y - $1.x) }
        #expect(warped <= region.meridianCount * region.rows.count)
    }

    /// At either end the warp shows that end's own panorama (the other end adds only what it sees
    /// nearer), and the same frame twice is the same bytes (the scratch reused).
    @Test func theEndsShowTheirOwnPanoramasAndFramesRepeat() throws {
        let c = Self.cases[0]
        var (_, camera, transition) = try Self.warp(c)
        var renderer = try ViewRenderer()
        for (fraction, end) in [(0.0, transition.from), (1.0, transition.to)] {
            let warped = try transition.render(fraction: fraction, camera: camera)
            var own = RGB8Image(width: camera.width, height: camera.height)
            try renderer.render(end.image, camera: camera, pose: end.pose, into: &own)
            let psnr = ImageMetrics.psnr(warped, own)
            print("t = \(fraction): the warp against the end's own view \(String(format: "%.1f", psnr)) dB")
            #expect(psnr >= 30, "t = \(fraction): \(psnr) dB")
        }
        let once = try transition.render(fraction: 0.37, camera: camera), again = try transition.render(fraction: 0.37, camera: camera)
        #expect(once.components == again.components)
    }

    /// Where an end's samples crowd (two or more to a row: the end ahead, seen from behind it), every
    /// other one is drawn: the frames differ from drawing them all, by little. (Looking back from
    /// near the start, cases[1], nothing crowds: its frames are the same bytes.)
    @Test(arguments: [cases[0], cases[3], cases[6]])
    func drawingCrowdedSamplesSparseChangesLittle(_ c: Case) throws {
        var (warp, camera, _) = try Self.warp(c)
        var scratch = EpipolarWarp.Scratch(), sparse = RGB8Image(width: camera.width, height: camera.height), dense = sparse
        let tolerance = PanoramaTransition.occlusionToleranceFraction
        warp.render(fraction: Float(c.fraction), camera: camera, occlusionTolerance: tolerance, scratch: &scratch, into: &sparse)
        warp.sparseLandingRows = -1
        warp.render(fraction: Float(c.fraction), camera: camera, occlusionTolerance: tolerance, scratch: &scratch, into: &dense)
        let psnr = ImageMetrics.psnr(sparse, dense)
        print("\(c): sparse against dense drawing \(String(format: "%.1f", psnr)) dB")
        let differs = sparse.components != dense.components
        #expect(differs, "\(c): nothing was drawn sparse")
        #expect(psnr >= 40, "\(c): \(psnr) dB")
    }

    /// The lookup of the frame before is kept while the camera does not change (its region and taps,
    /// whatever the fraction) and made afresh when it does: a scratch carried across cameras renders
    /// the same bytes as a new one, every time.
    @Test(arguments: [(cases[0], cases[1]), (cases[4], cases[5])])
    func aKeptLookupFollowsTheCamera(_ pair: (Case, Case)) throws {
        let (warp, first, _) = try Self.warp(pair.0)
        let second = try ViewCamera(headingDegrees: first.headingDegrees + pair.1.headingOffset - pair.0.headingOffset,
                                    pitchDegrees: pair.1.pitch, fieldOfViewDegrees: pair.1.fieldOfView, width: pair.1.width, height: pair.1.height)
        let tolerance = PanoramaTransition.occlusionToleranceFraction
        var kept = EpipolarWarp.Scratch()
        for (camera, fraction) in [(first, 0.2), (first, 0.6), (second, 0.6), (second, 0.3), (first, 0.3)] {
            var carried = RGB8Image(width: camera.width, height: camera.height), fresh = carried
            var scratch = EpipolarWarp.Scratch()
            warp.render(fraction: Float(fraction), camera: camera, occlusionTolerance: tolerance, scratch: &kept, into: &carried)
            warp.render(fraction: Float(fraction), camera: camera, occlusionTolerance: tolerance, scratch: &scratch, into: &fresh)
            #expect(kept.lookup?.camera == camera)
            #expect(carried.components == fresh.components, "\(camera) t = \(fraction): a kept lookup rendered other bytes")
        }
        // The taps are those of the camera's own region.
        #expect(kept.lookup?.taps.count == first.width * first.height)
        #expect(kept.lookup?.region.rows == warp.region(camera: first).rows)
    }

    /// A move of no length (both captures at one place) has no direction: any pole serves, and the
    /// frames are the two panoramas' blend from there.
    @Test func aMoveOfNoLengthStillRenders() throws {
        let (a, _) = try TransitionGroundTruthTests.endpoint("aleksanterinkatu-030")
        var transition = PanoramaTransition(from: a, to: a)
        let camera = try ViewCamera(headingDegrees: 12, width: 160, height: 90)
        let warped = try transition.render(fraction: 0.5, camera: camera)
        var renderer = try ViewRenderer(), own = RGB8Image(width: 160, height: 90)
        try renderer.render(a.image, camera: camera, pose: a.pose, into: &own)
        #expect(ImageMetrics.psnr(warped, own) >= 30)
    }

    /// The lane-wise arctangent keeps the bound its documentation gives, in every quadrant and on the axes.
    @Test func theFastArctangentIsWithinItsBound() {
        var worst: Float = 0
        for i in -40...40 {
            for j in stride(from: -40, through: 40, by: 4) {
                let y = SIMD4<Float>(Float(i) / 7, Float(i) / 700, Float(i) * 3, Float(i) / 7)
                let x = SIMD4<Float>(Float(j) / 7, Float(j + 1) / 7, Float(j) / 1000, Float(j + 2) * 5)
                let fast = EpipolarWarp.atan2Lanes(y, x)
                for lane in 0..<4 where !(x[lane] == 0 && y[lane] == 0) {
                    worst = max(worst, abs(fast[lane] - Float(atan2(Double(y[lane]), Double(x[lane])))))
                }
            }
        }
        #expect(worst <= 1.2e-5, "largest error \(worst) rad")
        #expect(EpipolarWarp.atan2Lanes(.zero, .zero) == .zero)
    }
}
