import Geodesy
import Imaging

/// A street name painted on the ground along its street in a snapshot, in perspective (as Apple's
/// Look Around does): which street, where on the ground, and where that lands in the view.
public struct LookAroundRoadLabel: Sendable, Hashable {
    /// The name shown (in the requested language when the street has it, else the local name).
    public var name: String
    /// The catalog's id of the street stretch the label lies on.
    public var streetID: Int
    /// Its OSM element, e.g. `way/123`.
    public var osm: String
    /// Its highway class (`residential`, `pedestrian`…).
    public var highwayClass: HighwayClass
    /// The text's middle line on the ground, from where the text starts to where it ends: points on
    /// the street centreline, metres east, north and up of the camera (up = −camera height).
    public var groundStart: EastNorthUp
    /// See ``groundStart``.
    public var groundEnd: EastNorthUp
    /// ``groundStart``…``groundEnd`` in view pixels, at ``centerlineSampleCount`` evenly spaced ground
    /// points (continuous coordinates, pixel centres at i + 0.5). Straight on the ground, it is straight
    /// in the view too; the samples show how the text shrinks with distance.
    public var centerline: [PixelPoint]
    /// The corners of the painted text's box in view pixels: start-bottom, end-bottom, end-top,
    /// start-top ("bottom" is the letters' foot, nearer the viewer for a street across the view).
    public var corners: [PixelPoint]
    /// Horizontal distance from the camera to the middle of the text, metres.
    public var distanceMeters: Double
    /// The direction the text reads, degrees clockwise from north, [0, 360): along the street, turned
    /// so that it reads left to right in the view (or away from the viewer when it runs up the view).
    public var readingBearingDegrees: Double

    /// Ground points per label in ``centerline``.
    public static let centerlineSampleCount = 9
}
