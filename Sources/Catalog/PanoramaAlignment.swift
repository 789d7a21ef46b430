import Foundation
import Geodesy

/// Where a panorama's depth and label maps come from.
public enum PanoramaMapsSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// Made with the picture: files beside the JPEG (the simulator writes them; a depth camera could).
    case measured
    /// Derived by `lookaround index` from OpenStreetMap: the city model rendered at the photo's pose.
    /// Buildings are where the data puts them, at the heights it gives or guesses; what the data lacks
    /// (parked cars, people, a new kiosk) is not in the maps.
    case derived
}

/// What aligning a photo with the city model found (`lookaround index` with an OSM extract): the pose
/// from the metadata, the correction the skylines agree on, and whether it was applied.
public struct PanoramaAlignment: Sendable, Hashable, Codable {
    /// The heading the metadata gave, degrees, and where it came from (``PanoramaRecord/headingSource``).
    public var metadataHeadingDegrees: Double, metadataHeadingSource: String
    /// The position the metadata gave, degrees.
    public var metadataLatitude: Double, metadataLongitude: Double
    /// The aligned heading minus the metadata heading, degrees (−180…180).
    public var headingCorrectionDegrees: Double
    /// How far the aligned position is from the metadata position, metres.
    public var positionCorrectionMeters: Double
    /// How much better the answer fits than any other heading, 0…1.
    public var confidence: Double
    /// The mean skyline difference left at the answer, degrees of elevation.
    public var residualDegrees: Double
    /// Whether the correction was applied (confident); otherwise the metadata pose was kept.
    public var applied: Bool

    /// An alignment from its parts.
    public init(metadataHeadingDegrees: Double, metadataHeadingSource: String, metadataLatitude: Double, metadataLongitude: Double,
                headingCorrectionDegrees: Double, positionCorrectionMeters: Double, confidence: Double,
                residualDegrees: Double, applied: Bool) {
        self.metadataHeadingDegrees = metadataHeadingDegrees
        self.metadataHeadingSource = metadataHeadingSource
        self.metadataLatitude = metadataLatitude
        self.metadataLongitude = metadataLongitude
        self.headingCorrectionDegrees = headingCorrectionDegrees
        self.positionCorrectionMeters = positionCorrectionMeters
        self.confidence = confidence
        self.residualDegrees = residualDegrees
        self.applied = applied
    }

    /// The ``PanoramaRecord/headingSource`` of an applied alignment.
    public static let headingSource = "aligned"
    /// How the index warnings about derived maps and alignment begin (a later run that derives again
    /// replaces them).
    public static let warningPrefixes = ["depth and labels derived from OpenStreetMap", "pose aligned with the city model",
                                         "pose not aligned"]

    /// One line for people: `heading +12.3°, position 3.1 m (confidence 0.85), applied`.
    public var summary: String {
        String(format: "heading %+.1f°, position %.1f m (confidence %.2f, skyline residual %.2f°), ",
               headingCorrectionDegrees, positionCorrectionMeters, confidence, residualDegrees)
            + (applied ? "applied" : "not confident: the metadata pose is kept")
    }

    /// Compact JSON with snake_case keys, sorted: the catalog column and the services' `pose_alignment`.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Reads ``jsonText``; nil for an empty or unreadable column.
    init?(jsonText: String?) {
        guard let jsonText, !jsonText.isEmpty else { return nil }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let value = try? decoder.decode(Self.self, from: Data(jsonText.utf8)) else { return nil }
        self = value
    }
}

extension PanoramaRecord {
    /// Whether maps should be derived for this panorama: it has none made with the picture, and no
    /// derived maps that are still on disk.
    var needsDerivedMaps: Bool {
        switch mapsSource {
        case .measured?: return false
        case .derived?: return !(depthPath.map(PanoramaIngest.exists) ?? false) || !(labelsPath.map(PanoramaIngest.exists) ?? false)
        case nil: return true
        }
    }

    /// Undoes what deriving maps did to the pose: the heading, its source and the position the metadata
    /// gave come back, and the alignment and its warnings go (before maps are derived again, or when
    /// maps made with the picture appear).
    mutating func restoreMetadataPose() {
        if let alignment {
            headingDegrees = alignment.metadataHeadingDegrees
            headingSource = alignment.metadataHeadingSource
            if let metadata = try? GeoCoordinate(latitude: alignment.metadataLatitude, longitude: alignment.metadataLongitude) {
                coordinate = metadata
            }
        }
        alignment = nil
        warnings.removeAll { warning in PanoramaAlignment.warningPrefixes.contains { warning.hasPrefix($0) } }
    }
}
