import CEmbree3
import Foundation

/// Intel Embree 3 over a triangle soup, on the calling thread: the peer our BVH is measured against,
/// with single rays (`rtcIntersect1` / `rtcOccluded1`) or coherent streams (`rtcIntersect1M` /
/// `rtcOccluded1M`, as the renderer traces), MEDIUM build quality, `threads=1` so the build and the
/// traces stay on one core. See ../shared/notes/embree-and-s3db.md for the interop facts used here.
final class EmbreeScene {
    /// `RTC_INVALID_GEOMETRY_ID`: the C macro is not imported.
    static let invalidGeometryID = UInt32.max
    let device: OpaquePointer
    let scene: OpaquePointer
    /// Seconds to commit (build) the scene.
    let commitSeconds: Double

    /// The scene from 9 floats per triangle; nil when Embree cannot make a device.
    init?(triangles: [Float]) {
        guard let device = rtcNewDevice("threads=1") else { return nil }
        self.device = device
        rtcSetDeviceErrorFunction(device, { _, code, message in
            FileHandle.standardError.write("embree error \(code.rawValue): \(message.map { String(cString: $0) } ?? "")\n".data(using: .utf8)!)
        }, nil)
        scene = rtcNewScene(device)
        rtcSetSceneBuildQuality(scene, RTC_BUILD_QUALITY_MEDIUM)
        let count = triangles.count / 9
        let geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE)
        let vertices = rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 12, count * 3)!
            .bindMemory(to: Float.self, capacity: count * 9)
        let indices = rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 12, count)!
            .bindMemory(to: UInt32.self, capacity: count * 3)
        triangles.withUnsafeBufferPointer { t in
            for i in 0..<(count * 9) { vertices[i] = t[i] }
        }
        for i in 0..<(count * 3) { indices[i] = UInt32(i) }
        rtcCommitGeometry(geometry)
        rtcAttachGeometry(scene, geometry)
        rtcReleaseGeometry(geometry)
        let start = DispatchTime.now().uptimeNanoseconds
        rtcCommitScene(scene)
        commitSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    deinit {
        rtcReleaseScene(scene)
        rtcReleaseDevice(device)
    }

    /// Runs `trace` over the rays of the packed xyz arrays `origins` and `directions`, `streamSize` at a
    /// time (a coherent stream when more than one), in `Ray` records it fills and reads: with the
    /// context, the records, the first ray's index, how many there are, and ray `i` unbounded (0…∞) with
    /// every geometry mask.
    @inline(__always)
    private func inStreams<Ray>(of _: Ray.Type, origins: [Float], directions: [Float], streamSize: Int,
                                _ trace: (_ context: inout RTCIntersectContext, _ rays: UnsafeMutablePointer<Ray>, _ first: Int, _ n: Int,
                                          _ ray: (Int) -> RTCRay) -> Void) {
        var context = RTCIntersectContext()
        rtcInitIntersectContext(&context)
        if streamSize > 1 { context.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT }
        let rays = UnsafeMutablePointer<Ray>.allocate(capacity: streamSize)
        defer { rays.deallocate() }
        let count = origins.count / 3
        origins.withUnsafeBufferPointer { origins in directions.withUnsafeBufferPointer { directions in
            for first in stride(from: 0, to: count, by: streamSize) {
                trace(&context, rays, first, min(streamSize, count - first)) { i in
                    RTCRay(org_x: origins[3 * i], org_y: origins[3 * i + 1], org_z: origins[3 * i + 2], tnear: 0,
                           dir_x: directions[3 * i], dir_y: directions[3 * i + 1], dir_z: directions[3 * i + 2],
                           time: 0, tfar: .infinity, mask: .max, id: 0, flags: 0)
                }
            }
        } }
    }

    /// The closest-hit distance of each ray, `.infinity` for a miss: one ray per call, or `streamSize`
    /// rays per coherent stream call.
    func closestHitDistances(origins: [Float], directions: [Float], streamSize: Int = 1) -> [Float] {
        var out = [Float](repeating: .infinity, count: origins.count / 3)
        inStreams(of: RTCRayHit.self, origins: origins, directions: directions, streamSize: streamSize) { context, rays, first, n, ray in
            for k in 0..<n {
                rays[k].ray = ray(first + k)
                rays[k].hit.geomID = Self.invalidGeometryID
                rays[k].hit.instID = Self.invalidGeometryID
            }
            if streamSize == 1 { rtcIntersect1(scene, &context, rays) }
            else { rtcIntersect1M(scene, &context, rays, UInt32(n), MemoryLayout<RTCRayHit>.stride) }
            for k in 0..<n where rays[k].hit.geomID != Self.invalidGeometryID { out[first + k] = rays[k].ray.tfar }
        }
        return out
    }

    /// Whether each ray is blocked anywhere along it: one ray per call, or `streamSize` per stream call.
    func occlusions(origins: [Float], directions: [Float], streamSize: Int = 1) -> [Bool] {
        var out = [Bool](repeating: false, count: origins.count / 3)
        inStreams(of: RTCRay.self, origins: origins, directions: directions, streamSize: streamSize) { context, rays, first, n, ray in
            for k in 0..<n { rays[k] = ray(first + k) }
            if streamSize == 1 { rtcOccluded1(scene, &context, rays) }
            else { rtcOccluded1M(scene, &context, rays, UInt32(n), MemoryLayout<RTCRay>.stride) }
            for k in 0..<n { out[first + k] = rays[k].tfar < 0 }   // Embree sets tfar to −∞ when the ray is occluded
        }
        return out
    }
}
