import Foundation
import Imaging
import MapSnapshot

/// How the frames of a walk are composed.
public struct WalkRenderOptions: Sendable, Hashable {
    /// Where the map goes.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        /// A square map inset in one corner of the view.
        case inset
        /// The view on the left, a map as high as the frame on the right.
        case sideBySide = "side-by-side"
    }

    /// A corner of the frame.
    public enum Corner: String, Sendable, Hashable, CaseIterable {
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    }

    /// The whole frame's size, pixels (each side 64…3840, even for video).
    public var size = PixelSize(width: 640, height: 360)
    /// Inset or side by side.
    public var layout = Layout.inset
    /// The inset's corner.
    public var insetCorner = Corner.topRight
    /// The inset's side, pixels (48…1024, and at most the frame's height); nil = 40 % of the frame's height.
    public var insetSizePixels: Int?
    /// The map's type (standard, muted, imagery, hybrid).
    public var mapType = MapType.standard
    /// How much ground the map shows across, metres (50…2000).
    public var mapWidthMeters = 180.0
    /// Whether place and street labels are drawn on the view.
    public var showsLabels = true
    /// A title shown over the first ``titleSeconds`` (nil: none).
    public var title: String?
    /// How long the title card stays, seconds.
    public var titleSeconds = 2.5
    /// Language of place names, e.g. `sv`.
    public var language: String?

    /// The allowed frame sides, pixels.
    public static let sideRangePixels = 64...3840
    /// The allowed inset sides, pixels.
    public static let insetRangePixels = 48...1024

    /// Defaults: 640×360, an inset top right, standard map, labels.
    public init() {}

    /// The inset's side in pixels.
    public var resolvedInsetSizePixels: Int {
        layout == .sideBySide ? size.height : (insetSizePixels ?? max(48, Int(Double(size.height) * 0.4)))
    }

    /// The street view's size (the frame less the map column when side by side).
    public var viewSize: PixelSize {
        layout == .sideBySide ? PixelSize(width: size.width - size.height, height: size.height) : size
    }

    /// Checks every value against its range.
    /// - Throws: ``PlaybackError/invalidParameter(name:value:allowed:)``.
    public func validated() throws(PlaybackError) -> WalkRenderOptions {
        guard Self.sideRangePixels.contains(size.width), Self.sideRangePixels.contains(size.height) else {
            throw .invalidParameter(name: "--size", value: "\(size.width)x\(size.height)", allowed: "64…3840 pixels per side")
        }
        if let inset = insetSizePixels, !Self.insetRangePixels.contains(inset) || inset > size.height {
            throw .invalidParameter(name: "--inset-size", value: "\(inset)", allowed: "48…1024 pixels, at most the frame height (\(size.height))")
        }
        if layout == .sideBySide, size.width < size.height + 160 {
            throw .invalidParameter(name: "--size", value: "\(size.width)x\(size.height)",
                                    allowed: "side by side, a width of at least the height + 160 pixels (the map is as wide as the frame is high)")
        }
        guard mapWidthMeters.isFinite, (50...2000).contains(mapWidthMeters) else {
            throw .invalidParameter(name: "map width", value: "\(mapWidthMeters) m", allowed: "50…2000 metres")
        }
        guard titleSeconds.isFinite, (0...60).contains(titleSeconds) else {
            throw .invalidParameter(name: "title duration", value: "\(titleSeconds) s", allowed: "0…60 seconds")
        }
        return self
    }
}
