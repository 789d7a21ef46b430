import Foundation

/// The BVH's triangles and single-ray queries over plain float arrays, for measuring other ray engines
/// (Embree in `Benchmarks`) on the same triangles and the same rays. Triangles only: the analytic
/// ground plane is not part of them.
extension CityModel {
    /// The triangles as 9 floats each (three vertices, x y z), in the BVH's leaf order.
    package func triangleVertexArray() -> [Float] {
        var out = [Float](repeating: 0, count: bvh.triangleCount * 9)
        let t = bvh.triangles
        for k in 0..<bvh.triangleCount {
            for c in 0..<3 {
                let v0 = t[9 * k + c], e1 = t[9 * k + 3 + c], e2 = t[9 * k + 6 + c]
                out[9 * k + c] = v0; out[9 * k + 3 + c] = v0 + e1; out[9 * k + 6 + c] = v0 + e2
            }
        }
        return out
    }

    /// The closest-hit distance of each ray (origins and directions as x y z triples), `.infinity` for
    /// a miss, traced one by one on the calling thread with our BVH.
    package func closestHitDistances(origins: [Float], directions: [Float]) -> [Float] {
        traceEach(origins: origins, directions: directions, initial: Float.infinity) { view, origin, direction, stack in
            view.closestHit(origin: origin, direction: direction, tMin: 0, tMax: .infinity, stack: stack)?.t ?? .infinity
        }
    }

    /// Whether each ray is blocked anywhere along it (any-hit), traced one by one with our BVH.
    package func occlusions(origins: [Float], directions: [Float]) -> [Bool] {
        traceEach(origins: origins, directions: directions, initial: false) { view, origin, direction, stack in
            view.isOccluded(origin: origin, direction: direction, tMin: 0, tMax: .infinity, stack: stack)
        }
    }

    /// `trace` for each ray (origins and directions as x y z triples), one by one on the calling thread,
    /// with one traversal stack for all.
    @inline(__always)
    private func traceEach<Result>(origins: [Float], directions: [Float], initial: Result,
                                   _ trace: (BVHView, Vec3, Vec3, UnsafeMutablePointer<UInt32>) -> Result) -> [Result] {
        let count = origins.count / 3
        var out = [Result](repeating: initial, count: count)
        let stack = UnsafeMutablePointer<UInt32>.allocate(capacity: stackCapacity)
        defer { stack.deallocate() }
        let view = bvh.view
        origins.withUnsafeBufferPointer { o in
            directions.withUnsafeBufferPointer { d in
                out.withUnsafeMutableBufferPointer { r in
                    for i in 0..<count {
                        r[i] = trace(view, Vec3(o[3 * i], o[3 * i + 1], o[3 * i + 2]), Vec3(d[3 * i], d[3 * i + 1], d[3 * i + 2]), stack)
                    }
                }
            }
        }
        withExtendedLifetime(self) {}
        return out
    }
}
