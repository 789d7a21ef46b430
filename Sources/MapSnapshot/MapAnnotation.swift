import Geodesy
import Imaging

/// A marker on the map, as MapKit's annotations with their views (`MKMarkerAnnotationView`-like pins
/// or an `MKAnnotationView` with a custom image).
public struct MapAnnotation: Sendable, Equatable {
    /// How the annotation looks.
    public enum Appearance: Sendable, Equatable {
        /// A teardrop pin of ``MapAnnotation/pinHeightPoints`` points whose tip is on the coordinate.
        case pin(color: RGBAColor)
        /// A custom image (drawn at the map's scale: one image pixel per pixel) whose centre is placed at the
        /// coordinate moved by `centerOffsetPoints` (MapKit's `centerOffset`: x right, y down, points).
        /// For an image whose tip is its bottom-centre, pass (0, −height / 2 / scale).
        case image(RGBA8Image, centerOffsetPoints: PixelPoint)
    }

    /// The height of a pin, points.
    public static let pinHeightPoints = 34.0

    /// Where it is.
    public var coordinate: GeoCoordinate
    /// A title drawn under the marker; nil for none.
    public var title: String?
    /// The look.
    public var appearance: Appearance
    /// Annotations with the same identifier that come closer than the grouping distance collapse into one
    /// counted group (MapKit's `clusteringIdentifier`); nil never groups.
    public var clusteringIdentifier: String?

    /// An annotation; a red pin by default.
    public init(coordinate: GeoCoordinate, title: String? = nil,
                appearance: Appearance = .pin(color: RGBAColor(red: 234, green: 67, blue: 53)),
                clusteringIdentifier: String? = nil) {
        self.coordinate = coordinate
        self.title = title
        self.appearance = appearance
        self.clusteringIdentifier = clusteringIdentifier
    }
}
