import Foundation

/// Which way a panorama's centre column faced, read from its metadata by one policy (README, "Heading
/// policy"), with what was used, missing or contradictory.
///
/// 1. GPano `PoseHeadingDegrees` is the heading of the image centre as the stitching software states it,
///    unless it is a placeholder: GoPro Max writes 0 in every file (its `GPSImgDirection` says 349°–11° on
///    a walk north), and a pose of exactly 0 while `GPSImgDirection` says otherwise (by more than 1°) is
///    taken as that pattern in any camera; a 0 that `GPSImgDirection` confirms (within 1°) is a real heading
///    in any camera (a video frame heading north). A placeholder falls through to the next rule.
/// 2. EXIF `GPSImgDirection` relative to true north (a magnetic one is not read; the EXIF reader warns).
/// 3. Neither: no heading from the metadata (the catalog then takes a sidecar's, the direction of travel
///    in a sequence, or 0° with a warning).
///
/// A pose and a direction that disagree by more than 1° with the pose not a placeholder: the pose is kept
/// (stitching software writes it deliberately) and the disagreement is reported.
public struct CaptureHeading: Sendable, Hashable, Encodable {
    /// The heading as tagged, degrees clockwise from true north (the catalog normalises it to [0, 360));
    /// nil when the metadata gives none.
    public var degrees: Double?
    /// The tag it came from: "PoseHeadingDegrees" or "GPSImgDirection".
    public var source: String?
    /// What was missing, contradictory or a placeholder, for warnings and `image info`.
    public var notes: [String]

    /// Cameras known to write `PoseHeadingDegrees` 0 whatever their heading (make, model prefix).
    public static let placeholderPoseCameras: [(make: String, model: String)] = [("GoPro", "GoPro Max")]

    /// The policy applied to `metadata`.
    public init(_ metadata: ImageMetadata) {
        let pose = metadata.panorama?.poseHeadingDegrees
        let direction = metadata.imageDirectionDegrees
        notes = []
        var poseIsPlaceholder = false
        if let pose, pose == 0 {
            let make = metadata.make ?? "", model = metadata.model ?? ""
            if let direction, Self.difference(direction, 0) <= 1 {
                // GPSImgDirection confirms it (a frame of a recording heading north): a real 0 from any camera.
            } else if Self.placeholderPoseCameras.contains(where: { make.caseInsensitiveCompare($0.make) == .orderedSame
                                                                   && model.lowercased().hasPrefix($0.model.lowercased()) }) {
                poseIsPlaceholder = true
                // The model often repeats the make ("GoPro", "GoPro Max"): named once.
                let camera = model.lowercased().hasPrefix(make.lowercased()) ? model : "\(make) \(model)"
                notes.append("GPano PoseHeadingDegrees 0 is the placeholder the \(camera) writes in every file")
            } else if let direction, Self.difference(direction, 0) > 1 {
                poseIsPlaceholder = true
                notes.append("GPano PoseHeadingDegrees 0 contradicts GPSImgDirection \(Self.format(direction))°: read as a placeholder")
            }
        }
        if let pose, !poseIsPlaceholder {
            degrees = pose
            source = "PoseHeadingDegrees"
            if let direction, Self.difference(direction, pose) > 1 {
                notes.append("GPano PoseHeadingDegrees \(Self.format(pose))° and GPSImgDirection \(Self.format(direction))° disagree; "
                             + "kept the pose")
            }
        } else if let direction {
            degrees = direction
            source = "GPSImgDirection"
        } else {
            degrees = nil
            source = nil
            if poseIsPlaceholder { notes.append("no GPSImgDirection either") }
        }
    }

    /// The smallest angle between two headings, degrees.
    static func difference(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    static func format(_ degrees: Double) -> String {
        degrees == degrees.rounded() ? String(Int(degrees)) : String(format: "%.2f", degrees)
    }
}
