import Foundation
import Geodesy

/// Where a sequence's headings come from when its metadata and its direction of travel disagree
/// (`lookaround index --heading-from`).
public enum HeadingChoice: String, Sendable, Hashable, Codable, CaseIterable {
    /// The metadata's heading (GPano `PoseHeadingDegrees`, EXIF `GPSImgDirection`), as the camera wrote it;
    /// a sequence whose headings point against its travel is reported, not changed. The default.
    case metadata
    /// The direction of travel wherever a sequence gives one (``CatalogBuilder/travelMaximumSecondsApart``):
    /// for a camera mounted backwards, or a field written as the vehicle's direction rather than the
    /// picture centre's. Panoramas without a direction of travel keep their metadata's.
    case travel
}

extension IndexReport {
    /// A sequence whose stated directions point away from the way it goes (more than
    /// ``CatalogBuilder/headingDisagreementDegrees`` for most of its panoramas that have both).
    public struct HeadingDisagreement: Sendable, Hashable, Codable {
        /// The sequence.
        public var sequenceName: String
        /// The metadata field the headings came from (`GPSImgDirection`, `PoseHeadingDegrees`, `sidecar`).
        public var metadataSource: String
        /// The mean of the metadata's headings, degrees.
        public var metadataDegrees: Double
        /// The mean direction of travel, degrees.
        public var travelDegrees: Double
        /// Panoramas whose heading is off their direction of travel by more than the limit, of `compared`.
        public var disagreeing: Int
        /// Panoramas with both a metadata heading and a direction of travel.
        public var compared: Int
        /// What the catalog kept: `metadata` (reported only) or `travel` (faced along the way).
        public var used: HeadingChoice

        /// The warning `lookaround index` prints: the sequence, both directions and the likely causes.
        public var message: String {
            let both = "\(metadataSource) says " + String(format: "%.1f° but the photos advance towards %.1f°", metadataDegrees, travelDegrees)
            let causes = "the camera may be mounted backwards, or the field holds the direction of travel of the vehicle "
                + "rather than the picture's centre"
            let outcome = used == .travel ? "faced along the way (--heading-from travel)"
                : "kept as written; 'lookaround index --heading-from travel' faces them along the way"
            return "sequence \(sequenceName): \(both) (off by more than \(Int(CatalogBuilder.headingDisagreementDegrees))° "
                + "for \(disagreeing) of \(compared) photos): \(causes); \(outcome)"
        }
    }
}

extension CatalogBuilder {
    /// Two captures of a sequence give a direction of travel when at most this many seconds apart: a
    /// walk, a bicycle or a car shooting every few seconds. A THETA user's photos taken minutes apart
    /// (a stop, a look around, a turn between them) say nothing about where the camera faced.
    public static let travelMaximumSecondsApart = 30.0
    /// …and at least this far apart (smoothed positions), metres: closer, GPS noise decides the bearing.
    public static let travelMinimumMeters = 0.5
    /// A heading further than this from the direction of travel disagrees with it, degrees.
    public static let headingDisagreementDegrees = 90.0

    /// The direction of travel at each member of a sequence, `ordered` by sequence index (indices into
    /// `records`), parallel to `ordered`: the bearing to the next capture (from the previous one for the
    /// last, when the next gives none), between the positions ``SequencePath`` smooths, when the two are
    /// ``travelMinimumMeters`` to ``travelMaximumSecondsApart`` apart; nil where no neighbour qualifies.
    static func travelDirections(of records: [PanoramaRecord], ordered: [Int]) -> [Double?] {
        guard ordered.count > 1 else { return [nil] }
        let path = SequencePath.smoothedCoordinates(of: records, ordered: ordered)
        func direction(_ from: Int, _ to: Int) -> Double? {
            let seconds = abs(records[ordered[to]].captureTime.timeIntervalSince(records[ordered[from]].captureTime))
            guard seconds <= travelMaximumSecondsApart else { return nil }
            let move = Geodesic.wgs84.inverse(from: path[from], to: path[to])
            return move.distanceMeters >= travelMinimumMeters ? Angle.normalizedHeadingDegrees(move.initialAzimuth.degrees) : nil
        }
        return ordered.indices.map { k in
            (k + 1 < ordered.count ? direction(k, k + 1) : nil) ?? (k > 0 ? direction(k - 1, k) : nil)
        }
    }

    /// Compares each sequence's metadata headings with its direction of travel: a sequence where most of
    /// the panoramas with both (at least two) point more than ``headingDisagreementDegrees`` away is
    /// reported; with `choice` `.travel` every panorama with a direction of travel faces it (heading source
    /// `travel`, a warning naming the metadata's value). Panoramas aligned with the city model, without a
    /// metadata heading or numbered by sidecars are left to the other rules.
    /// - Returns: the disagreeing sequences, by name.
    static func checkHeadingsAgainstTravel(_ records: inout [PanoramaRecord], choice: HeadingChoice) -> [IndexReport.HeadingDisagreement] {
        var bySequence: [String: [Int]] = [:]
        for (i, record) in records.enumerated() { bySequence[record.sequenceName, default: []].append(i) }
        var found: [IndexReport.HeadingDisagreement] = []
        for (name, members) in bySequence where members.count > 1 {
            let ordered = members.sorted { records[$0].sequenceIndex < records[$1].sequenceIndex }
            let travel = travelDirections(of: records, ordered: ordered)
            var compared: [(metadata: Double, travel: Double)] = [], sources: [String: Int] = [:]
            for (k, i) in ordered.enumerated() {
                guard let direction = travel[k], Self.isMetadataHeading(records[i].headingSource) else { continue }
                compared.append((records[i].headingDegrees, direction))
                sources[records[i].headingSource, default: 0] += 1
            }
            let disagreeing = compared.filter { CaptureHeadingMath.difference($0.metadata, $0.travel) > headingDisagreementDegrees }.count
            if compared.count >= 2 && 2 * disagreeing > compared.count {
                found.append(IndexReport.HeadingDisagreement(
                    sequenceName: name, metadataSource: sources.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? "metadata",
                    metadataDegrees: CaptureHeadingMath.mean(compared.map(\.metadata)), travelDegrees: CaptureHeadingMath.mean(compared.map(\.travel)),
                    disagreeing: disagreeing, compared: compared.count, used: choice))
            }
            guard choice == .travel else { continue }
            for (k, i) in ordered.enumerated() {
                guard let direction = travel[k], Self.isMetadataHeading(records[i].headingSource) else { continue }
                let was = records[i].headingSource, degrees = records[i].headingDegrees
                records[i].headingDegrees = direction
                records[i].headingSource = "travel"
                records[i].warnings.append("\(was) " + String(format: "%.1f° replaced by the direction of travel in its sequence, %.1f° "
                                                                + "(--heading-from travel)", degrees, direction))
            }
        }
        return found.sorted { $0.sequenceName < $1.sequenceName }
    }

    /// Whether a heading source is the metadata's (or a sidecar's): what the travel check compares.
    static func isMetadataHeading(_ source: String) -> Bool {
        source == "PoseHeadingDegrees" || source == "GPSImgDirection" || source == "sidecar"
    }
}

/// Angles of headings, degrees.
enum CaptureHeadingMath {
    /// The smallest angle between two headings, 0…180.
    static func difference(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    /// The circular mean of headings, 0..<360 (0 for none or for headings that cancel out).
    static func mean(_ degrees: [Double]) -> Double {
        var x = 0.0, y = 0.0
        for d in degrees {
            x += cos(d * .pi / 180)
            y += sin(d * .pi / 180)
        }
        guard x != 0 || y != 0 else { return 0 }
        return Angle.normalizedHeadingDegrees(atan2(y, x) * 180 / .pi)
    }
}
