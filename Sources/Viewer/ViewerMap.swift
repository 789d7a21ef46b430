import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import MapData
import MapSnapshot

/// The map inset (`m`): a north-up map snapshot around the panorama with the coverage, the links and
/// a cone showing the heading and field of view. The OSM extract loads on a thread of its own the
/// first time the inset is asked for; until then the inset says so.
// @unchecked Sendable: status, snapshotter and cached inset are under `lock`; `onChange` is set before
// the first load starts.
final class ViewerMap: @unchecked Sendable {
    enum Status: Sendable { case idle, loading, ready, failed(String) }

    let osmPath: String
    let catalog: Catalog?
    /// Called (on the loading thread) when the map has loaded or failed, so the viewer redraws.
    var onChange: (@Sendable () -> Void)?
    /// Map width across the inset, metres.
    static let spanMeters = 180.0

    private let lock = NSLock()
    private var status = Status.idle
    private var snapshotter: MapSnapshotter?
    /// The last inset: the map of one panorama at one size.
    private var cached: (key: String, inset: Inset)?

    /// A map reduced to the inset's size: its image, and where a coordinate is on it.
    struct Inset {
        var image: RGBA8Image
        var snapshot: MapSnapshot
        var factor: Double
        func point(for coordinate: GeoCoordinate) -> PixelPoint? {
            snapshot.point(for: coordinate).map { PixelPoint(x: $0.x / factor, y: $0.y / factor) }
        }
    }

    init(osmPath: String, catalog: Catalog?) {
        self.osmPath = osmPath
        self.catalog = catalog
    }

    /// What the inset shows instead of a map (nil when the map is ready).
    var statusText: String? {
        lock.lock()
        defer { lock.unlock() }
        switch status {
        case .idle, .loading: return "loading the map…"
        case .ready: return nil
        case .failed(let reason): return "no map: \(reason)"
        }
    }

    /// Starts loading the extract unless it is loaded or loading.
    func load() {
        lock.lock()
        guard case .idle = status else { lock.unlock(); return }
        status = .loading
        lock.unlock()
        let thread = Thread { [self] in
            let outcome: Status
            var loaded: MapSnapshotter?
            if !FileManager.default.fileExists(atPath: osmPath) {
                outcome = .failed("\(osmPath) not found (give --osm FILE)")
            } else {
                do {
                    loaded = try MapSnapshotter(dataset: try MapDataset(contentsOfFile: osmPath))
                    outcome = .ready
                } catch {
                    outcome = .failed("\(osmPath): \(error)")
                }
            }
            lock.lock()
            snapshotter = loaded
            status = outcome
            let change = onChange
            lock.unlock()
            change?()
        }
        thread.name = "viewer map"
        thread.start()
    }

    /// The rectangle of the picture the inset covers.
    static func insetRect(in layout: ViewerLayout) -> (x: Int, y: Int, width: Int, height: Int) {
        let size = layout.picturePixelSize
        let (px, py) = layout.pixelsPerCell
        let columns = max(12, min(layout.pictureColumns / 3, 64)), rows = max(5, min(layout.pictureRows / 2, 24))
        let width = min(size.width - Int(px), Int(Double(columns) * px)), height = min(size.height - Int(py), Int(Double(rows) * py))
        return (size.width - width - Int(px), Int(py / 2), width, height)
    }

    /// Draws the inset into the top-right corner of `picture` (nothing while the map loads).
    func drawInset(on picture: inout RGB8Image, state: ViewerState, layout: ViewerLayout, language: String?) {
        load()
        let rect = Self.insetRect(in: layout)
        guard rect.width >= 8, rect.height >= 8,
              let center = try? GeoCoordinate(latitude: state.scene.match.latitude, longitude: state.scene.match.longitude),
              let map = snapshot(center: center, id: state.scene.panoramaID, width: rect.width, height: rect.height, language: language)
        else { return }
        var canvas = Canvas(image: map.image)
        guard let here = map.point(for: center) else { return }
        let frame = try? LocalTangentFrame(origin: center)
        func point(east: Double, north: Double) -> PixelPoint? {
            guard let frame, let c = try? frame.geodetic(from: EastNorthUp(east: east, north: north, up: 0)).coordinate else { return nil }
            return map.point(for: c)
        }
        // The view cone: the field of view, 40 m out.
        let reach = Self.spanMeters * 0.22
        var cone = [here]
        let h = state.headingDegrees, f = state.fieldOfViewDegrees
        for k in 0...8 {
            let a = (h - f / 2 + f * Double(k) / 8) * .pi / 180
            if let p = point(east: sin(a) * reach, north: cos(a) * reach) { cone.append(p) }
        }
        canvas.fillPolygon(cone, color: RGBAColor(red: 255, green: 196, blue: 0, alpha: 110))
        let scale = max(1, Double(rect.width) / 120)
        for link in state.scene.match.links {
            let a = link.headingDegrees * .pi / 180
            if let p = point(east: sin(a) * link.distanceMeters, north: cos(a) * link.distanceMeters) {
                canvas.drawLine(from: here, to: p, width: 1.2 * scale, color: RGBAColor(red: 30, green: 110, blue: 220, alpha: 200))
                canvas.fillCircle(center: p, radius: 1.6 * scale, color: RGBAColor(red: 30, green: 110, blue: 220))
            }
        }
        canvas.fillCircle(center: here, radius: 2.6 * scale, color: .white)
        canvas.fillCircle(center: here, radius: 1.8 * scale, color: RGBAColor(red: 220, green: 40, blue: 40))
        // A frame around the inset.
        let w = Double(rect.width), hgt = Double(rect.height)
        canvas.drawPolyline([PixelPoint(x: 0.5, y: 0.5), PixelPoint(x: w - 0.5, y: 0.5), PixelPoint(x: w - 0.5, y: hgt - 0.5),
                             PixelPoint(x: 0.5, y: hgt - 0.5), PixelPoint(x: 0.5, y: 0.5)],
                            style: StrokeStyle(width: 1), color: RGBAColor(red: 40, green: 40, blue: 48))
        let inset = canvas.image.droppingAlpha()
        picture.components.withUnsafeMutableBufferPointer { dst in
            inset.components.withUnsafeBufferPointer { src in
                for y in 0..<rect.height where rect.y + y < picture.height {
                    let from = y * rect.width * 3, to = ((rect.y + y) * picture.width + rect.x) * 3
                    for i in 0..<rect.width * 3 { dst[to + i] = src[from + i] }
                }
            }
        }
    }

    /// The map of one panorama's surroundings (cached for the last panorama and size); nil until loaded.
    private func snapshot(center: GeoCoordinate, id: String, width: Int, height: Int, language: String?) -> Inset? {
        lock.lock()
        defer { lock.unlock() }
        guard case .ready = status, let snapshotter else { return nil }
        let key = "\(id)@\(width)x\(height)"
        if let cached, cached.key == key { return cached.inset }
        guard let region = try? CoordinateRegion(center: center, latitudinalMeters: Self.spanMeters * Double(height) / Double(width),
                                                 longitudinalMeters: Self.spanMeters) else { return nil }
        // A small inset is drawn larger and reduced, so lines, text and the attribution keep their
        // proportions (at 50 pixels the attribution alone would fill it).
        let factor = max(1, Int((240.0 / Double(width)).rounded(.up)))
        var options = MapSnapshotOptions(region: region, size: PointSize(width: width * factor, height: height * factor))
        options.showsLabels = width * factor >= 200
        options.labelLanguage = language
        options.maximumThreads = 1
        if let catalog { options.coverage = CatalogCoverage(catalog: catalog) }
        guard let snapshot = try? snapshotter.snapshot(options),
              let image = factor == 1 ? snapshot.image
                : try? Resampler.resize(snapshot.image, to: PixelSize(width: width, height: height), filter: .area) else { return nil }
        let inset = Inset(image: image, snapshot: snapshot, factor: Double(factor))
        cached = (key, inset)
        return inset
    }
}
