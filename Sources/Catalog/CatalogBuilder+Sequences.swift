import Foundation
import Geodesy
import Imaging

/// A sequence name the index makes itself, read back: `FOLDER/CAMERA`, `FOLDER/CAMERA (SERIAL)`, either
/// with ` #2`, ` #3`… after a pause. CAMERA is the EXIF Model (else Make, else "camera"), SERIAL the EXIF
/// BodySerialNumber when the folder holds more than one camera of that model.
struct AutomaticSequenceName: Hashable {
    /// `FOLDER/CAMERA`.
    var base: String
    /// The serial in the name, nil when it has none.
    var serial: String?

    /// The name of `base`'s captures by the camera with `serial` (nil: the name without one).
    init(base: String, serial: String?) {
        self.base = base
        self.serial = serial
    }

    /// `FOLDER/CAMERA` for captures in `folder` by a camera that wrote `make` and `model`.
    static func base(folder: String, make: String?, model: String?) -> String {
        "\(folder)/\(model ?? make ?? "camera")"
    }

    /// The parts of `name` when it is an automatic name of the captures of `make`/`model` in `folder`,
    /// nil when it is another (a sidecar's `sequence_id`).
    init?(parsing name: String, folder: String, make: String?, model: String?) {
        base = Self.base(folder: folder, make: make, model: model)
        var rest = Substring(name)
        if let hash = rest.range(of: " #", options: .backwards), Int(rest[hash.upperBound...]) != nil {
            rest = rest[..<hash.lowerBound]
        }
        if rest == base {
            serial = nil
        } else if rest.hasPrefix(base + " ("), rest.hasSuffix(")"), rest.count > base.count + 3 {
            serial = String(rest.dropFirst(base.count + 2).dropLast())
        } else {
            return nil
        }
    }

    /// The name before any pause split: `FOLDER/CAMERA` or `FOLDER/CAMERA (SERIAL)`.
    var camera: String { serial.map { "\(base) (\($0))" } ?? base }
}

extension CatalogBuilder {
    /// Gives the captures of each camera in a folder their own sequence: `FOLDER/CAMERA` while the folder
    /// holds one camera of that model (the name most folders keep: `dcim/GoPro Max`), `FOLDER/CAMERA (SERIAL)`
    /// for each of several told apart by EXIF BodySerialNumber (two riders' GoPro Max:
    /// `dcim/GoPro Max (C3351324514062)`, `dcim/GoPro Max (C3353424686268)`); one that writes no serial
    /// keeps `FOLDER/CAMERA`. Sidecar-named sequences are left alone; ` #n` parts are made afterwards by
    /// ``splitAtTimeGaps(_:folders:)``.
    ///
    /// `serials` are the files' serials as read this run; `reused` marks records taken from the previous
    /// catalog, whose serial is not stored: a name with a serial says it; a name without says that those
    /// captures were, last run, all of one camera (the only one of the model there, or the one without a
    /// serial beside others that have one). When that camera has to be told from new files' cameras, the
    /// serial of one of its files is read again (headers only, one file per folder and model). A catalog
    /// written before serials were read has every camera of a model under `FOLDER/CAMERA`: its unchanged
    /// files stay together until `lookaround index --full` reads them again.
    static func separateCameras(_ records: inout [PanoramaRecord], folders: [String], serials: [String?], reused: [Bool]) {
        var groups: [String: [(index: Int, name: AutomaticSequenceName)]] = [:]
        for (i, record) in records.enumerated() {
            guard let name = AutomaticSequenceName(parsing: record.sequenceName, folder: folders[i], make: record.make,
                                                   model: record.model) else { continue }
            groups[name.base, default: []].append((i, name))
        }
        for (base, members) in groups {
            var serial: [Int: String?] = [:]
            var unnamed: [Int] = []   // reused, no serial in the name: one camera, serial not known yet
            for (i, name) in members {
                if !reused[i] { serial[i] = serials[i] } else if let named = name.serial { serial[i] = named } else { unnamed.append(i) }
            }
            if !unnamed.isEmpty {
                let hasNamedSerials = members.contains { reused[$0.index] && $0.name.serial != nil }
                let hasNewFiles = members.contains { !reused[$0.index] }
                // With serial-named ones beside them they were the camera without a serial; alone (no new files)
                // they are still the only camera; beside new files, the file says which camera they are.
                var known: String?
                if !hasNamedSerials && hasNewFiles, let sample = unnamed.min(by: { records[$0].imagePath < records[$1].imagePath }) {
                    known = PanoramaIngest.metadata(of: records[sample].imagePath)?.metadata.bodySerialNumber
                }
                for i in unnamed { serial[i] = known }
            }
            let cameras = Set(members.map { serial[$0.index] ?? nil })
            for (i, _) in members {
                let own = serial[i] ?? nil
                records[i].sequenceName = cameras.count > 1 ? AutomaticSequenceName(base: base, serial: own).camera : base
            }
        }
    }

    /// A camera standing still (at a traffic light, in a queue) writes capture after capture at one spot:
    /// within a sequence, in capture order, a capture closer than this to the previous capture kept, metres,
    /// and facing within ``defaultNearDuplicateDegrees`` of it, is a near-duplicate and is left out of the
    /// catalog — mapillary_tools' rule (its `--duplicate_distance` and `--duplicate_angle`). Under a walking
    /// timelapse's spacing (0.5 s at a walk: 0.6–0.7 m), so such a timelapse keeps every frame.
    public static let defaultNearDuplicateMeters = 0.5
    /// See ``defaultNearDuplicateMeters``: a camera turning on the spot (a new view) is kept, degrees.
    public static let defaultNearDuplicateDegrees = 5.0

    /// Leaves out each capture closer than `meters` (geodesic) to the previous capture kept in its sequence
    /// whose heading is within `degrees` of that one's (by distance alone when either has no heading in its
    /// metadata), walking each sequence in capture order (time, then path). Panoramas with an explicit
    /// `sequence_index` (a sidecar's) are never left out nor compared. Run after the sequences are named and
    /// split, before they are numbered.
    /// - Returns: what was left out, in file order, each with the capture it repeats.
    static func dropNearDuplicates(_ records: inout [PanoramaRecord], explicitIndex: inout [Int?],
                                   meters: Double = defaultNearDuplicateMeters,
                                   degrees: Double = defaultNearDuplicateDegrees,
                                   rules: [SequenceRules?] = []) -> [IndexReport.NearDuplicate] {
        var bySequence: [String: [Int]] = [:]
        for (i, record) in records.enumerated() where explicitIndex[i] == nil {
            bySequence[record.sequenceName, default: []].append(i)
        }
        var repeats: [(index: Int, kept: Int, distanceMeters: Double, angle: Double?)] = []
        for (_, members) in bySequence where members.count > 1 {
            let ordered = members.sorted { (records[$0].captureTime, records[$0].imagePath) < (records[$1].captureTime, records[$1].imagePath) }
            var kept = ordered[0]
            // The folder's own thresholds (an upload set's duplicate_distance and duplicate_rotation) when it has them.
            let rule = rules.isEmpty ? nil : rules[ordered[0]]
            let meters = rule?.duplicateMeters ?? meters, degrees = rule?.duplicateDegrees ?? degrees
            for i in ordered.dropFirst() {
                let distance = Geodesic.wgs84.inverse(from: records[kept].coordinate, to: records[i].coordinate).distanceMeters
                let angle = isMetadataHeading(records[kept].headingSource) && isMetadataHeading(records[i].headingSource)
                    ? CaptureHeadingMath.difference(records[kept].headingDegrees, records[i].headingDegrees) : nil
                if distance < meters && (angle ?? 0) <= degrees { repeats.append((i, kept, distance, angle)) } else { kept = i }
            }
        }
        guard !repeats.isEmpty else { return [] }
        repeats.sort { $0.index < $1.index }
        let report = repeats.map { IndexReport.NearDuplicate(path: records[$0.index].imagePath, keptPath: records[$0.kept].imagePath,
                                                             distanceMeters: $0.distanceMeters, headingDifferenceDegrees: $0.angle,
                                                             sequenceName: records[$0.index].sequenceName) }
        let left = Set(repeats.map(\.index))
        records = records.indices.filter { !left.contains($0) }.map { records[$0] }
        explicitIndex = explicitIndex.indices.filter { !left.contains($0) }.map { explicitIndex[$0] }
        return report
    }
}
