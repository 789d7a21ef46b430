import Foundation
import Geodesy
import Imaging
import Parallelism

extension MapRenderer {
    /// The ground from the orthophoto provider: one top-down image of the visible ground, resampled
    /// bilinearly through the camera (exact for top-down views, perspective for pitched ones); sky above
    /// the horizon, land colour beyond the far distance. With a world layer, only the ground inside the
    /// extract's box (the simulated area) is imagery; outside it the world layer's land and sea stay.
    mutating func drawImagery() throws {
        guard let provider = options.orthophotoProvider else {
            throw MapSnapshotError.mapTypeUnavailable(options.mapType, reason: "no orthophoto provider is set "
                + "(set options.orthophotoProvider, for example to the Orthophoto module's SimulatedOrthophoto(dataset:))")
        }
        let b = bounds
        let rect = MapRect(x: projection.center.x + b.minX, y: projection.center.y + b.minY,
                           width: b.maxX - b.minX, height: b.maxY - b.minY)
        let mpp = projection.mapPointsPerPixel
        let width = max(1, min(4096, Int((rect.width / mpp).rounded(.up))))
        let height = max(1, min(4096, Int((rect.height / mpp).rounded(.up))))
        let ortho: RGB8Image
        do { ortho = try provider.orthophoto(of: rect, size: PixelSize(width: width, height: height)) } catch {
            throw MapSnapshotError.orthophotoFailed(detail: "\(error)")
        }
        guard ortho.width == width, ortho.height == height else {
            throw MapSnapshotError.orthophotoFailed(detail: "asked for \(width)x\(height) pixels, got \(ortho.width)x\(ortho.height)")
        }
        // The canvas's window of the picture (all of it unless a tile cuts its margin away).
        let w = canvas.image.width, h = canvas.image.height, wx = canvas.windowX, wy = canvas.windowY
        let sx = Double(width) / rect.width, sy = Double(height) / rect.height
        let projection = self.projection, far = projection.farDistanceMapPoints
        let sky0 = style.skyTop, sky1 = style.skyHorizon, land = style.land
        let horizon = max(1, projection.horizonRow)
        let threads = options.maximumThreads
        let clip = content.world != nil ? relativeExtractBox : nil
        canvas.image.components.withUnsafeMutableBufferPointer { dst in
            ortho.components.withUnsafeBufferPointer { src in
                let dstBase = dst.baseAddress!, srcBase = src.baseAddress!
                Parallel.forEachRowRange(h, maximumThreads: threads) { rows in
                    for row in rows {
                        let y = wy + row
                        let t = min(1, Double(y) / horizon)
                        for x in wx..<(wx + w) {
                            let o = dstBase + (row * w + x - wx) * 4
                            o[3] = 255
                            guard let g = projection.groundRelative(forPixel: PixelPoint(Double(x) + 0.5, Double(y) + 0.5)) else {
                                o[0] = UInt8(Double(sky0.red) * (1 - t) + Double(sky1.red) * t)
                                o[1] = UInt8(Double(sky0.green) * (1 - t) + Double(sky1.green) * t)
                                o[2] = UInt8(Double(sky0.blue) * (1 - t) + Double(sky1.blue) * t)
                                continue
                            }
                            if let e = clip, g.x < e.minX || g.x > e.maxX || g.y < e.minY || g.y > e.maxY { continue }
                            guard (g.x * g.x + g.y * g.y).squareRoot() <= far else {
                                o[0] = land.red; o[1] = land.green; o[2] = land.blue
                                continue
                            }
                            let u = min(max((g.x - b.minX) * sx - 0.5, 0), Double(width - 1))
                            let v = min(max((g.y - b.minY) * sy - 0.5, 0), Double(height - 1))
                            let iu = min(Int(u), width - 2 < 0 ? 0 : width - 2), iv = min(Int(v), height - 2 < 0 ? 0 : height - 2)
                            let fu = width > 1 ? u - Double(iu) : 0, fv = height > 1 ? v - Double(iv) : 0
                            let iu1 = min(iu + 1, width - 1), iv1 = min(iv + 1, height - 1)
                            for c in 0..<3 {
                                let p00 = Double(srcBase[(iv * width + iu) * 3 + c]), p10 = Double(srcBase[(iv * width + iu1) * 3 + c])
                                let p01 = Double(srcBase[(iv1 * width + iu) * 3 + c]), p11 = Double(srcBase[(iv1 * width + iu1) * 3 + c])
                                let top = p00 + (p10 - p00) * fu, bottom = p01 + (p11 - p01) * fu
                                o[c] = UInt8(min(255, max(0, (top + (bottom - top) * fv).rounded())))
                            }
                        }
                    }
                }
            }
        }
    }
}
