import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import MapSnapshot
import Reprojection
import Synchronization
import Terminal

/// One rendered view: the picture (with navigation arrows and the map inset, without text) and what a
/// click needs to know about it.
public struct RenderedView: Sendable {
    public var state: ViewerState
    public var layout: ViewerLayout
    /// The camera of `picture`.
    public var camera: ViewCamera
    public var picture: RGB8Image
    /// Place labels: where they are drawn, in screen cells (text modes) or only in `picture` (graphics).
    public var placeLabels: [PlacedLabel]
    /// Street names, as text cells in the text modes.
    public var roadLabels: [PlacedLabel]
    /// The links the arrows point to, with the cell of each arrow.
    public var arrows: [(link: PanoramaLink, column: Int, row: Int)]
    /// The status line's left and right parts.
    public var status: (left: String, right: String) = ("", "")
    /// What the map inset says instead of a map (loading, failed), when it is shown.
    public var mapStatus: String?

    /// A label and the cells it covers (`row`, `columns`).
    public struct PlacedLabel: Sendable {
        public var name: String
        public var category: String
        public var distanceMeters: Double
        public var row: Int
        public var columns: Range<Int>
        public var color: RGBAColor
    }
}

/// Renders views of the viewer's state: the perspective view from the snapshotter, labels placed for
/// the terminal, arrows on the ground towards the linked panoramas, and the map inset.
// @unchecked Sendable: the shared snapshotter is a Mutex; `cameraHeights` is touched only by the one
// render thread that renders (the viewer's or the player's).
final class ViewerRenderer: @unchecked Sendable {
    let navigator: ViewerNavigator
    let language: String?
    let map: ViewerMap?
    private var cameraHeights: [String: Double] = [:]
    /// The last view's snapshotter: the next one of its panorama shares what its labels read.
    private let lastSnapshotter = Mutex<LookAroundSnapshotter?>(nil)

    /// Place labels in the text modes are laid out as if each cell were this many pixels (the size
    /// the labels' fonts are made for), then written as text.
    static let labelCellPixels = (x: 8.0, y: 16.0)
    /// Arrows are drawn this far ahead on the ground, metres (nearer for a nearer panorama).
    static let arrowDistanceMeters = 7.0

    init(navigator: ViewerNavigator, language: String?, map: ViewerMap?) {
        self.navigator = navigator
        self.language = language
        self.map = map
    }

    /// Renders `state` for `layout`.
    /// - Throws: `ReprojectionError`/`ImagingError` when the panorama cannot be read.
    func render(_ state: ViewerState, layout: ViewerLayout) throws -> RenderedView {
        let size = layout.picturePixelSize
        let camera = LookAroundSnapshotter.Camera(headingDegrees: state.headingDegrees, pitchDegrees: state.pitchDegrees,
                                                  fieldOfViewDegrees: state.fieldOfViewDegrees)
        var options = LookAroundSnapshotter.Options(size: size, camera: camera, pointOfInterestFilter: state.labels.placeFilter,
                                                    showsRoadLabels: state.labels.showsRoadLabels, language: language)
        var placed: [RenderedView.PlacedLabel] = [], roads: [RenderedView.PlacedLabel] = []
        let snapshot: LookAroundSnapshotter.Snapshot
        if layout.isGraphics {
            // The labels drawn in the picture with their fonts, as `snapshot` draws them.
            snapshot = try snapshotter(state.scene, options).render()
            placed = snapshot.labels.map { label in
                let first = layout.cell(showing: PixelPoint(x: label.box.minX, y: label.box.minY))
                let last = layout.cell(showing: PixelPoint(x: label.box.maxX, y: label.box.minY))
                return RenderedView.PlacedLabel(name: label.name, category: label.category, distanceMeters: label.distanceMeters,
                                                row: max(layout.pictureTopRow, first.row),
                                                columns: first.column..<max(first.column + 1, last.column + 1),
                                                color: LookAroundSnapshotter.labelColor(categoryGroup: label.categoryGroup))
            }
        } else {
            let labelOptions = options
            options.pointOfInterestFilter = .excludingAll
            options.showsRoadLabels = false
            snapshot = try snapshotter(state.scene, options).render()
            if let catalog = navigator.catalog, state.labels != .none {
                (placed, roads) = try textLabels(state: state, options: labelOptions, layout: layout, catalog: catalog)
            }
        }
        var picture = snapshot.image
        let arrows = try drawArrows(on: &picture, state: state, camera: snapshot.camera, layout: layout)
        if state.showsMap, let map {
            map.drawInset(on: &picture, state: state, layout: layout, language: language)
        }
        return RenderedView(state: state, layout: layout, camera: snapshot.camera, picture: picture, placeLabels: placed,
                            roadLabels: roads, arrows: arrows)
    }

    /// A snapshotter of `scene` with `options`, sharing the last one's label sources when it was of
    /// the same panorama (``LookAroundSnapshotter/sharingLabels(scene:options:catalog:)``).
    private func snapshotter(_ scene: LookAroundScene, _ options: LookAroundSnapshotter.Options) -> LookAroundSnapshotter {
        lastSnapshotter.withLock { last in
            let next = last?.sharingLabels(scene: scene, options: options, catalog: navigator.catalog)
                ?? LookAroundSnapshotter(scene: scene, options: options, catalog: navigator.catalog)
            last = next
            return next
        }
    }

    /// Labels for the text modes: laid out on a camera of `labelCellPixels` per cell (so the fonts'
    /// sizes match a cell's), decluttered there, and written as text one cell per character.
    private func textLabels(state: ViewerState, options: LookAroundSnapshotter.Options, layout: ViewerLayout, catalog: Catalog)
        throws -> ([RenderedView.PlacedLabel], [RenderedView.PlacedLabel]) {
        var labelOptions = options
        let cx = Self.labelCellPixels.x, cy = Self.labelCellPixels.y
        labelOptions.size = PixelSize(width: Int(Double(layout.columns) * cx), height: Int(Double(layout.pictureRows) * cy))
        let snapshotter = self.snapshotter(state.scene, labelOptions)
        let camera = try snapshotter.viewCamera()
        let places = try snapshotter.placeLabels(for: camera, catalog: catalog)
        let roads = try snapshotter.roadLabels(for: camera, catalog: catalog, avoiding: places)
        var taken: [(row: Int, columns: Range<Int>)] = []
        func place(_ name: String, centerX: Double, row: Int) -> Range<Int>? {
            let width = name.unicodeScalars.count + 2
            guard width <= layout.columns, (0..<layout.pictureRows - 1).contains(row) else { return nil }
            let start = max(0, min(layout.columns - width, Int((centerX / cx).rounded()) - width / 2))
            let range = start..<start + width
            guard !taken.contains(where: { $0.row == row && $0.columns.overlaps(range) }) else { return nil }
            taken.append((row, range))
            return range
        }
        var placed: [RenderedView.PlacedLabel] = []
        for label in places {
            // The name sits in the cell row above the sign's point.
            let row = Int((label.anchor.y / cy).rounded(.down)) - 1
            guard let columns = place(label.name, centerX: label.anchor.x, row: row) else { continue }
            placed.append(.init(name: label.name, category: label.category, distanceMeters: label.distanceMeters, row: row,
                                columns: columns, color: LookAroundSnapshotter.labelColor(categoryGroup: label.categoryGroup)))
        }
        var streets: [RenderedView.PlacedLabel] = []
        for road in roads where !road.centerline.isEmpty {
            let middle = road.centerline[road.centerline.count / 2]
            let row = Int((middle.y / cy).rounded(.down))
            guard let columns = place(road.name, centerX: middle.x, row: row) else { continue }
            streets.append(.init(name: road.name, category: road.highwayClass.tagValue, distanceMeters: road.distanceMeters, row: row,
                                 columns: columns, color: RGBAColor(red: 40, green: 44, blue: 52)))
        }
        return (placed, streets)
    }

    /// The camera height of a panorama (catalogued, else the label placer's default), metres.
    private func cameraHeight(of scene: LookAroundScene) -> Double {
        if let h = cameraHeights[scene.panoramaID] { return h }
        let h = (try? navigator.catalog?.panorama(id: scene.panoramaID))??.cameraHeightMeters
            ?? LookAroundLabelPlacer.defaultCameraHeightMeters
        cameraHeights[scene.panoramaID] = h
        return h
    }

    /// Chevrons on the ground towards each linked panorama (Street View's arrows); returns the cell
    /// under each arrow that is in view.
    private func drawArrows(on picture: inout RGB8Image, state: ViewerState, camera: ViewCamera, layout: ViewerLayout) throws
        -> [(link: PanoramaLink, column: Int, row: Int)] {
        let match = state.scene.match
        guard !match.links.isEmpty else { return [] }
        let pose = PanoramaPose(headingDegrees: match.headingDegrees, pitchDegrees: match.pitchDegrees, rollDegrees: match.rollDegrees)
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: match.imageWidth)
        let height = cameraHeight(of: state.scene)
        // One arrow per direction: links within 20° of a nearer one are the same way.
        var shown: [PanoramaLink] = []
        for link in match.links.sorted(by: { $0.distanceMeters < $1.distanceMeters })
            where !shown.contains(where: { abs(ViewerNavigator.headingDifference($0.headingDegrees, link.headingDegrees)) < 20 }) {
            shown.append(link)
        }
        var polygons: [(points: [PixelPoint], link: PanoramaLink, ahead: Bool)] = []
        let ahead = ViewerNavigator.link(toward: state.headingDegrees, in: match.links)?.headingDegrees
        let scale = Double(camera.width) / 160  // arrows keep their size relative to the view
        for link in shown {
            let a = link.headingDegrees * .pi / 180
            let d = min(Self.arrowDistanceMeters, max(3, link.distanceMeters * 0.7))
            let forward = (east: sin(a), north: cos(a)), side = (east: cos(a), north: -sin(a))
            func ground(_ along: Double, _ across: Double) -> PixelPoint? {
                let e = forward.east * along + side.east * across, n = forward.north * along + side.north * across
                let length = (e * e + n * n + height * height).squareRoot()
                guard let p = projection.viewPixel(forDirection: EastNorthUp(east: e / length, north: n / length, up: -height / length))
                else { return nil }
                return PixelPoint(x: p.x, y: p.y)
            }
            let w = 0.9, l = 1.5
            guard let tip = ground(d + l, 0), let left = ground(d, -w), let notch = ground(d + 0.55, 0), let right = ground(d, w)
            else { continue }
            let points = [tip, right, notch, left]
            guard points.allSatisfy({ $0.x > -50 * scale && $0.x < Double(camera.width) + 50 * scale && $0.y > 0
                && $0.y < Double(camera.height) + 50 * scale }) else { continue }
            polygons.append((points, link, ahead.map { abs(ViewerNavigator.headingDifference($0, link.headingDegrees)) < 20 } ?? false))
        }
        guard !polygons.isEmpty else { return [] }
        var canvas = Canvas(image: picture.withAlpha())
        for polygon in polygons {
            canvas.fillPolygon(polygon.points, color: RGBAColor(red: 20, green: 20, blue: 24, alpha: 150))
            let inner = Self.shrunk(polygon.points, by: max(0.7, 1.0 * scale))
            canvas.fillPolygon(inner, color: polygon.ahead ? RGBAColor(red: 255, green: 214, blue: 10)
                                                           : RGBAColor(red: 250, green: 250, blue: 250, alpha: 235))
        }
        picture = canvas.image.droppingAlpha()
        return polygons.map { polygon in
            let cx = polygon.points.map(\.x).reduce(0, +) / Double(polygon.points.count)
            let cy = polygon.points.map(\.y).reduce(0, +) / Double(polygon.points.count)
            let cell = layout.cell(showing: PixelPoint(x: cx, y: cy))
            return (polygon.link, cell.column, cell.row)
        }
    }

    /// A convex-ish polygon moved `pixels` towards its centroid (the arrow's light inside its dark rim).
    static func shrunk(_ points: [PixelPoint], by pixels: Double) -> [PixelPoint] {
        let cx = points.map(\.x).reduce(0, +) / Double(points.count), cy = points.map(\.y).reduce(0, +) / Double(points.count)
        return points.map { p in
            let dx = p.x - cx, dy = p.y - cy, r = max(1e-9, (dx * dx + dy * dy).squareRoot())
            let k = max(0, r - pixels) / r
            return PixelPoint(x: cx + dx * k, y: cy + dy * k)
        }
    }
}
