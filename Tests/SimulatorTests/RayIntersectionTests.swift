import Testing
@testable import Simulator

@Suite struct RayIntersectionTests {
    let v0 = Vec3(0, 0, 0), e1 = Vec3(1, 0, 0), e2 = Vec3(0, 1, 0)

    func hit(_ o: Vec3, _ d: Vec3, tMin: Float = 0, tMax: Float = 100) -> (t: Float, u: Float, v: Float)? {
        RayIntersection.triangle(origin: o, direction: d, v0: v0, edge1: e1, edge2: e2, tMin: tMin, tMax: tMax)
    }

    @Test func hitsInsideWithDistanceAndBarycentrics() throws {
        let h = try #require(hit(Vec3(0.25, 0.25, 2), Vec3(0, 0, -1)))
        #expect(abs(h.t - 2) < 1e-6 && abs(h.u - 0.25) < 1e-6 && abs(h.v - 0.25) < 1e-6)
    }

    @Test func edgesAndVerticesCountAsInside() {
        #expect(hit(Vec3(0, 0, 1), Vec3(0, 0, -1)) != nil)        // vertex
        #expect(hit(Vec3(0.5, 0, 1), Vec3(0, 0, -1)) != nil)      // edge v0–v1
        #expect(hit(Vec3(0.5, 0.5, 1), Vec3(0, 0, -1)) != nil)    // hypotenuse
        #expect(hit(Vec3(0.51, 0.5, 1), Vec3(0, 0, -1)) == nil)   // just outside
    }

    @Test func sharedEdgeOfAQuadHasNoCrack() {
        // Quad (0,0)-(1,0)-(1,1)-(0,1) as two triangles sharing the diagonal.
        var misses = 0
        for i in 0...200 {
            let s = Float(i) / 200
            let o = Vec3(s, s, 1), d = Vec3(0, 0, -1)
            let a = RayIntersection.triangle(origin: o, direction: d, v0: Vec3(0, 0, 0), edge1: Vec3(1, 0, 0), edge2: Vec3(1, 1, 0), tMin: 0, tMax: 10)
            let b = RayIntersection.triangle(origin: o, direction: d, v0: Vec3(0, 0, 0), edge1: Vec3(1, 1, 0), edge2: Vec3(0, 1, 0), tMin: 0, tMax: 10)
            if a == nil && b == nil { misses += 1 }
        }
        #expect(misses == 0)
    }

    @Test func parallelBehindAndBeyondMiss() {
        #expect(hit(Vec3(0.2, 0.2, 0), Vec3(1, 0, 0)) == nil)            // in the plane, parallel
        #expect(hit(Vec3(0.2, 0.2, 1), Vec3(1, 0, 0)) == nil)            // parallel above
        #expect(hit(Vec3(0.2, 0.2, -1), Vec3(0, 0, -1)) == nil)          // triangle behind the origin
        #expect(hit(Vec3(0.2, 0.2, 5), Vec3(0, 0, -1), tMax: 4.9) == nil) // farther than tMax
        #expect(hit(Vec3(0.2, 0.2, 5), Vec3(0, 0, -1), tMax: 5.1) != nil)
        #expect(hit(Vec3(0.2, 0.2, 1), Vec3(0, 0, 1)) == nil)            // pointing away
    }

    @Test func backFacesAreHitToo() {
        #expect(hit(Vec3(0.2, 0.2, -1), Vec3(0, 0, 1)) != nil)
    }

    @Test func boxSlabEdgeCases() {
        let lo = Vec3(0, 0, 0), hi = Vec3(1, 1, 1)
        func box(_ o: Vec3, _ d: Vec3) -> Float {
            RayIntersection.box(origin: o, inverseDirection: RayIntersection.safeReciprocal(d), minimum: lo, maximum: hi, tMin: 0, tMax: 100)
        }
        #expect(box(Vec3(-1, 0.5, 0.5), Vec3(1, 0, 0)) == 1)
        #expect(box(Vec3(0.5, 0.5, 0.5), Vec3(0, 0, 1)) == 0)            // starting inside
        #expect(box(Vec3(-1, 0, 0.5), Vec3(1, 0, 0)) == 1)               // on the slab plane y = 0, parallel
        #expect(box(Vec3(-1, 2, 0.5), Vec3(1, 0, 0)) == .infinity)       // parallel outside
        #expect(box(Vec3(2, 0.5, 0.5), Vec3(1, 0, 0)) == .infinity)      // pointing away
        #expect(box(Vec3(-1, -1, 0.5), Vec3(1, 1, 0)) == 1)              // through the edge x = y = 0
    }

    @Test func bvhMatchesBruteForce() {
        var state: UInt64 = 42
        func random() -> Float { state = state &* 6364136223846793005 &+ 1442695040888963407; return Float(state >> 40) / Float(1 << 24) }
        var vertices: [Vec3] = []
        for _ in 0..<600 {
            let c = Vec3(random() * 40 - 20, random() * 40 - 20, random() * 40 - 20)
            for _ in 0..<3 { vertices.append(c + Vec3(random() * 4 - 2, random() * 4 - 2, random() * 4 - 2)) }
        }
        let bvh = BoundingVolumeHierarchy(vertices: vertices)
        let stack = UnsafeMutablePointer<UInt32>.allocate(capacity: bvh.stackCapacity)
        defer { stack.deallocate() }
        var mismatches = 0, hits = 0
        for _ in 0..<500 {
            let o = Vec3(random() * 60 - 30, random() * 60 - 30, random() * 60 - 30)
            let d = (Vec3(random() * 20 - 10, random() * 20 - 10, random() * 20 - 10) - o).normalized
            var best: Float = .infinity
            for t in 0..<600 {
                if let h = RayIntersection.triangle(origin: o, direction: d, v0: vertices[3 * t], edge1: vertices[3 * t + 1] - vertices[3 * t],
                                                    edge2: vertices[3 * t + 2] - vertices[3 * t], tMin: 1e-4, tMax: best) { best = h.t }
            }
            let fast = bvh.closestHit(origin: o, direction: d, tMin: 1e-4, tMax: 1e30, stack: stack)
            let occluded = bvh.isOccluded(origin: o, direction: d, tMin: 1e-4, tMax: 1e30, stack: stack)
            if best.isFinite { hits += 1 }
            if (fast == nil) != !best.isFinite || (fast.map { abs($0.t - best) > 1e-4 } ?? false) || occluded != best.isFinite { mismatches += 1 }
        }
        #expect(hits > 100)
        #expect(mismatches == 0)
    }
}
