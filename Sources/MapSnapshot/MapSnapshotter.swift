import Foundation
import Geodesy
import Imaging
import MapData

/// Renders map snapshots of one dataset, as MapKit's `MKMapSnapshotter` (synchronously: a snapshot of
/// 1024×1024 points of the Helsinki extract takes tens of milliseconds on one core).
///
/// Holds the prepared features (``MapContent``) and the fonts, so make one per dataset and reuse it.
/// Safe to use from several threads at once (everything it holds is immutable or locked).
public struct MapSnapshotter: Sendable {
    /// The prepared features.
    public let content: MapContent
    /// The fonts for labels.
    public let fonts: FontLibrary

    /// A snapshotter over `dataset` and the shipped world layer, with Debian's fonts.
    /// - Throws: `ImagingError.font` when the DejaVu or WenQuanYi fonts are missing (names the package);
    ///   `MapDataError.worldBasemapNotFound` when the world basemap file is missing.
    public init(dataset: MapDataset, fonts: FontLibrary? = nil) throws {
        // Everything that can throw first, so that no half-initialised snapshotter is ever torn down.
        let world = try WorldLayer.shipped()
        let library = try fonts ?? FontLibrary()
        self.content = MapContent(dataset, world: world)
        self.fonts = library
    }

    /// A snapshotter over prepared content.
    public init(content: MapContent, fonts: FontLibrary) {
        self.content = content
        self.fonts = fonts
    }

    /// Renders a snapshot.
    /// - Throws: ``MapSnapshotError`` for a bad size, camera, overlay, or an imagery type without a
    ///   provider (or a failing provider).
    public func snapshot(_ options: MapSnapshotOptions) throws -> MapSnapshot {
        let camera = try options.resolvedCamera()
        if options.mapType.needsOrthophoto && options.orthophotoProvider == nil {
            throw MapSnapshotError.mapTypeUnavailable(options.mapType, reason: "imagery needs the simulator's "
                + "orthophoto, and no orthophoto provider is available in this build")
        }
        for overlay in options.overlays { try overlay.validate() }
        let pixels = options.pixelSize
        if let window = options.window {
            let allowed = "a window of at least a pixel inside the \(pixels.width)×\(pixels.height)-pixel picture"
            if window.x < 0 || window.width < 1 || window.x + window.width > pixels.width {
                throw MapSnapshotError.valueOutOfRange(parameter: "window x…x+width", value: Double(window.x + window.width), allowed: allowed)
            }
            if window.y < 0 || window.height < 1 || window.y + window.height > pixels.height {
                throw MapSnapshotError.valueOutOfRange(parameter: "window y…y+height", value: Double(window.y + window.height), allowed: allowed)
            }
        }
        let projection = MapProjection(camera: camera, widthPixels: pixels.width, heightPixels: pixels.height, scale: options.scale)
        var renderer = MapRenderer(content: content, options: options, projection: projection, fonts: fonts)
        let image = try renderer.render()
        return MapSnapshot(image: image, camera: camera, projection: projection)
    }
}
