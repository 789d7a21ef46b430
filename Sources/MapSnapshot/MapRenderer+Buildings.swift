import Foundation
import Geodesy
import Imaging

extension MapRenderer {
    /// Top-down footprints: all buildings as one fill and one outline.
    mutating func drawFlatBuildings() {
        var path = Path()
        let margin = px(1)   // the outline's half width, and some
        for index in content.buildings.indices where content.buildings[index].drawnFlat && drawn(content.buildings[index].box, marginPixels: margin) {
            let building = content.buildings[index]
            let shift = projection.worldShift(forX: building.box.minX)
            for ring in building.rings {
                if let projected = projection.projectRing(ring.count - 1, { rel(ring[$0], shift) }) {
                    path.addPolygon(projected)
                }
            }
        }
        guard !path.isEmpty else { return }
        canvas.fill(path, color: style.buildingFill, rule: .nonZero)
        if zoom >= 16 {
            canvas.stroke(path, style: StrokeStyle(width: px(0.6), cap: .butt, join: .bevel), color: style.buildingOutline)
        }
    }

    /// Buildings extruded from their footprints (bottom at `minHeightMeters`, top at `heightMeters`), drawn
    /// far to near (painter's algorithm): the walls facing the camera in two shades by whether they face the
    /// light (from the south-west), then the roof.
    mutating func drawExtrudedBuildings() {
        let k = projection.mapPointsPerMeter
        let eye = projection.eye
        var order: [(distance: Double, index: Int)] = []
        for (i, b) in content.buildings.enumerated() where b.drawnExtruded && visible(b.box, marginPixels: 40) {
            let shift = projection.worldShift(forX: b.box.minX)
            let c = rel(b.centroid, shift)
            let d = ((c.x - eye.x) * (c.x - eye.x) + (c.y - eye.y) * (c.y - eye.y)).squareRoot()
            order.append((d, i))
        }
        order.sort { $0.distance > $1.distance }
        let light = SIMD2<Double>(-1, 1) / 2.0.squareRoot()    // towards the sun: south-west (y grows south)
        let shades = [style.wallShaded, style.wallLit]
        for (_, index) in order {
            let b = content.buildings[index]
            let shift = projection.worldShift(forX: b.box.minX)
            let top = b.heightMeters * k, bottom = b.minHeightMeters * k
            var walls = [Path(), Path()]
            for (r, ring) in b.rings.enumerated() {
                let n = ring.count - 1       // rings are closed
                guard n >= 3 else { continue }
                var area = 0.0
                for i in 0..<n { area += ring[i].x * ring[i + 1].y - ring[i + 1].x * ring[i].y }
                // Outward (away from the building's material): holes face into the hole.
                let sign: Double = (area > 0) == (r < b.outerRingCount) ? 1 : -1
                for i in 0..<n {
                    let a = rel(ring[i], shift), c = rel(ring[i + 1], shift)
                    let dx = c.x - a.x, dy = c.y - a.y
                    let len = (dx * dx + dy * dy).squareRoot()
                    guard len > 0 else { continue }
                    let normal = SIMD2(dy, -dx) * (sign / len)
                    let toEye = SIMD2(eye.x - (a.x + c.x) / 2, eye.y - (a.y + c.y) / 2)
                    guard (normal * toEye).sum() > 0 else { continue }
                    let corners = [SIMD3(a.x, a.y, bottom), SIMD3(c.x, c.y, bottom), SIMD3(c.x, c.y, top), SIMD3(a.x, a.y, top)]
                    guard let quad = projection.projectRing(4, { corners[$0] }) else { continue }
                    let lit = (normal * light).sum()
                    walls[lit < 0 ? 0 : 1].addPolygon(quad)
                }
            }
            for (shade, path) in zip(shades, walls) where !path.isEmpty {
                canvas.fill(path, color: shade, rule: .nonZero)
            }
            var roof = Path()
            for ring in b.rings {
                if let projected = projection.projectRing(ring.count - 1, { SIMD3(ring[$0].x - projection.center.x + shift,
                                                                                   ring[$0].y - projection.center.y, top) }) {
                    roof.addPolygon(projected)
                }
            }
            if !roof.isEmpty { canvas.fill(roof, color: style.roof, rule: .nonZero) }
        }
    }
}
