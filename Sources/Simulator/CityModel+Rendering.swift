import Foundation
import Geodesy
import Imaging
import Parallelism

extension CityModel {
    /// Offset of shadow-ray origins along the surface normal, metres (against shadow acne), plus a
    /// part proportional to the hit distance for Float precision far away.
    static let shadowBias: Float = 2e-3

    /// Pointers into this model's storage; valid while the model lives.
    var query: SceneQuery {
        SceneQuery(bvh: bvh.view, records: UnsafePointer(records.baseAddress!), ground: ground, embree: embree?.view,
                   instances: instanceLevel?.view)
    }
    /// The same queries through our BVH only, whatever ``rayEngine`` is: the reference for tests.
    var referenceQuery: SceneQuery {
        SceneQuery(bvh: bvh.view, records: UnsafePointer(records.baseAddress!), ground: ground, embree: nil,
                   instances: instanceLevel?.view)
    }

    /// Renders the scene through `camera`: stratified anti-aliasing, hard sun shadows, sky ambient,
    /// tone-mapped to sRGB. Deterministic for a given camera, settings and seed.
    public func render<C: RayGenerating>(_ camera: C, settings: RenderSettings) -> RGB8Image {
        renderCountingRays(camera, settings: settings).image
    }

    /// ``render(_:settings:)`` that also returns how many rays it traced (primary + shadow).
    public func renderCountingRays<C: RayGenerating>(_ camera: C, settings: RenderSettings) -> (image: RGB8Image, rayCount: Int) {
        // Dispatch to concrete types so the per-sample camera call is specialised and inlined.
        if let c = camera as? EquirectangularCamera { return renderLoop(c, settings: settings) }
        if let c = camera as? PinholeCamera { return renderLoop(c, settings: settings) }
        if let c = camera as? OrthographicCamera { return renderLoop(c, settings: settings) }
        return renderLoop(camera, settings: settings)
    }

    /// ``render(_:settings:)`` through our BVH only, whatever ``rayEngine`` is (the reference for tests).
    func referenceRender(_ camera: EquirectangularCamera, settings: RenderSettings) -> RGB8Image {
        renderLoop(camera, settings: settings, query: referenceQuery).image
    }

    func renderLoop<C: RayGenerating>(_ camera: C, settings: RenderSettings, query chosen: SceneQuery? = nil) -> (image: RGB8Image, rayCount: Int) {
        let query = chosen ?? self.query
        let width = camera.width, height = camera.height
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let sky = SkyModel(sun: settings.sun)
        let tone = ToneMapper(exposure: settings.exposure)
        let spp = settings.samplesPerPixel
        let columns = Int(Double(spp).squareRoot().rounded(.up)), rows = (spp + columns - 1) / columns
        let seed = UInt32(truncatingIfNeeded: settings.seed ^ (settings.seed >> 32))
        let lock = NSLock()
        nonisolated(unsafe) var totalRays = 0
        let entries = atlas.flatEntries
        atlas.coverage.withUnsafeBufferPointer { atlasPixels in
          entries.withUnsafeBufferPointer { entryPointer in
            tone.table.withUnsafeBufferPointer { toneTable in
                pixels.withUnsafeMutableBufferPointer { out in
                    let context = TraceContext(query: query, sky: sky,
                                               shader: SurfaceShader(atlasPixels: atlasPixels.baseAddress!, atlasWidth: atlas.width,
                                                                     atlasEntries: entryPointer.baseAddress!))
                    let outBase = out.baseAddress!
                    // Camera rays go to the engine in batches of about 256 (a run of pixels along a row,
                    // all their samples), the stream size at which Embree's packets paid off most.
                    let pixelsPerBatch = max(1, 256 / spp)
                    Parallel.forEachRowRange(height, minimumRowsPerChunk: 2, maximumThreads: settings.maximumThreads) { range in
                        let stack = UnsafeMutablePointer<UInt32>.allocate(capacity: stackCapacity)
                        let batch = RayBatch(capacity: pixelsPerBatch * spp)
                        defer { stack.deallocate(); batch.deallocate() }
                        var rays = 0
                        let inverseSamples = 1 / Float(spp)
                        for y in range {
                            for x0 in stride(from: 0, to: width, by: pixelsPerBatch) {
                                let pixels = x0..<min(width, x0 + pixelsPerBatch)
                                var lane = 0
                                for x in pixels {
                                    for s in 0..<spp {
                                        let sx = s % columns, sy = s / columns
                                        let h = PatternNoise.hash(Int32(x), Int32(y), seed &+ UInt32(s) &* 0x9E37_79B9)
                                        let jx = Float(h & 0xFFFF) * (1 / 65_536), jy = Float(h >> 16) * (1 / 65_536)
                                        let px = Float(x) + (Float(sx) + jx) / Float(columns)
                                        let py = Float(y) + (Float(sy) + jy) / Float(rows)
                                        let ray = camera.sceneRay(x: px, y: py)
                                        context.query.prepare(batch.primary + lane, origin: ray.origin.vec3, direction: ray.direction.vec3)
                                        lane += 1
                                    }
                                }
                                context.shade(batch, count: lane, stack: stack, rays: &rays)
                                lane = 0
                                for x in pixels {
                                    var sum = Vec3.zero
                                    for _ in 0..<spp { sum += batch.radiance[lane]; lane += 1 }
                                    let o = outBase + (y * width + x) * 3
                                    o[0] = tone.map(sum.x * inverseSamples, toneTable.baseAddress!)
                                    o[1] = tone.map(sum.y * inverseSamples, toneTable.baseAddress!)
                                    o[2] = tone.map(sum.z * inverseSamples, toneTable.baseAddress!)
                                }
                            }
                        }
                        lock.withLock { totalRays += rays }
                    }
                }
            }
          }
        }
        withExtendedLifetime(self) {}
        return (RGB8Image(width: width, height: height, components: pixels), totalRays)
    }

    /// Depth and label maps through `camera`, one ray through each pixel centre.
    ///
    /// Depth: Euclidean distance from the camera centre to the surface, in centimetres
    /// (Imaging's ``DepthEncoding``: 1 cm units), rounded, 1…65,534; 65,535 for sky and anything
    /// farther than 655.34 m. Labels: ``LabelClass`` raw values.
    public func renderDepthAndLabels<C: RayGenerating>(_ camera: C, maximumThreads: Int? = nil) -> (depth: Gray16Image, labels: Gray8Image) {
        if let c = camera as? EquirectangularCamera { return mapsLoop(c, maximumThreads: maximumThreads) }
        if let c = camera as? PinholeCamera { return mapsLoop(c, maximumThreads: maximumThreads) }
        if let c = camera as? OrthographicCamera { return mapsLoop(c, maximumThreads: maximumThreads) }
        return mapsLoop(camera, maximumThreads: maximumThreads)
    }

    func mapsLoop<C: RayGenerating>(_ camera: C, maximumThreads: Int?) -> (depth: Gray16Image, labels: Gray8Image) {
        let width = camera.width, height = camera.height
        var depth = [UInt16](repeating: DepthEncoding.skyValue, count: width * height)
        var labels = [UInt8](repeating: LabelClass.sky.rawValue, count: width * height)
        depth.withUnsafeMutableBufferPointer { depthOut in
            labels.withUnsafeMutableBufferPointer { labelOut in
                let d = depthOut.baseAddress!, l = labelOut.baseAddress!
                let query = self.query
                Parallel.forEachRowRange(height, minimumRowsPerChunk: 4, maximumThreads: maximumThreads) { range in
                    let stack = UnsafeMutablePointer<UInt32>.allocate(capacity: stackCapacity)
                    defer { stack.deallocate() }
                    for y in range {
                        for x in 0..<width {
                            let ray = camera.sceneRay(x: Float(x) + 0.5, y: Float(y) + 0.5)
                            let dir = ray.direction.vec3
                            guard let hit = query.closest(origin: ray.origin.vec3, direction: dir, stack: stack) else { continue }
                            d[y * width + x] = DepthEncoding.value(meters: Double(hit.t * dir.length))
                            l[y * width + x] = hit.record.material.label.rawValue
                        }
                    }
                }
            }
        }
        withExtendedLifetime(self) {}
        return (Gray16Image(width: width, height: height, components: depth), Gray8Image(width: width, height: height, components: labels))
    }

    /// The distance (metres) and label class of the first surface along a ray, or nil for sky.
    public func firstHit(from origin: EastNorthUp, direction: EastNorthUp) -> (distanceMeters: Double, label: LabelClass)? {
        firstHit(from: origin, direction: direction, query: query)
    }

    /// ``firstHit(from:direction:)`` through our BVH only (the reference for tests).
    func referenceFirstHit(from origin: EastNorthUp, direction: EastNorthUp) -> (distanceMeters: Double, label: LabelClass)? {
        firstHit(from: origin, direction: direction, query: referenceQuery)
    }

    private func firstHit(from origin: EastNorthUp, direction: EastNorthUp, query: SceneQuery) -> (distanceMeters: Double, label: LabelClass)? {
        let o = Vec3(Float(origin.east), Float(origin.north), Float(origin.up))
        let d = Vec3(Float(direction.east), Float(direction.north), Float(direction.up)).normalized
        let stack = UnsafeMutablePointer<UInt32>.allocate(capacity: stackCapacity)
        defer { stack.deallocate() }
        let hit = query.closest(origin: o, direction: d, stack: stack)
        withExtendedLifetime(self) {}
        return hit.map { (Double($0.t), $0.record.material.label) }
    }
}
