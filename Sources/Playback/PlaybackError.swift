import Diagnostics
import Foundation
import Geodesy
import Imaging

/// Every error the `Playback` module throws.
///
/// Each case carries the offending value; ``description`` names it, the allowed range or form, and what
/// to do. The CLI maps ``noPath(from:to:lastReachablePanoramaID:nearestUnreachablePanoramaID:gapMeters:)``
/// to exit 1 (a normal answer), ``malformedWaypoints(file:location:detail:)`` to 65, ``missingInput(file:detail:)``
/// to 66, ``outputInTheWay(path:)`` to 73, ``cannotWrite(_:)`` to 73 or 74 (by its cause) and ``invalidParameter(name:value:allowed:)`` to 64.
public enum PlaybackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A value outside its range (`name` carries the unit, e.g. `--speed-mps`).
    case invalidParameter(name: String, value: String, allowed: String)
    /// The link graph has no path between the two ends: where it breaks.
    case noPath(from: String, to: String, lastReachablePanoramaID: String, nearestUnreachablePanoramaID: String,
                gapMeters: Double)
    /// No panorama within `radiusMeters` of a route point.
    case noPanoramaNear(what: String, coordinate: GeoCoordinate, radiusMeters: Double, nearestMeters: Double?)
    /// No sequence with this id.
    case unknownSequence(id: String, known: [String])
    /// A GPX or GeoJSON waypoint file that cannot be read: `location` is `line N` (GPX) or a JSON path
    /// (`features[0].geometry.coordinates[3]`).
    case malformedWaypoints(file: String, location: String, detail: String)
    /// An input file that does not exist or cannot be read.
    case missingInput(file: String, detail: String)
    /// An output that cannot be written: the file or folder named, and the system's reason.
    case cannotWrite(WriteFailure)
    /// `-o` names a folder that is not a frames folder this tool wrote: it is left alone.
    case outputInTheWay(path: String)
    /// An external tool (ffmpeg) is needed and missing.
    case toolMissing(tool: String, debianPackage: String, purpose: String)
    /// An encoder or an external tool failed.
    case encodingFailed(format: String, detail: String)
    /// The render was cancelled (Ctrl-C); nothing was left on disk.
    case cancelled

    /// A one-line message naming the bad value, the allowed range and a remedy.
    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let allowed):
            return "\(name) \(value) is not allowed; allowed \(allowed)"
        case .noPath(let from, let to, let last, let beyond, let gap):
            return "no walk from \(from) to \(to) over the panorama links: the graph breaks after panorama \(last); "
                + "the nearest panorama beyond the gap is \(beyond), \(String(format: "%.1f", gap)) m away "
                + "(capture panoramas across the gap, or choose ends the links join)"
        case .noPanoramaNear(let what, let coordinate, let radius, let nearest):
            let beyond = nearest.map { String(format: "; the nearest is %.0f m away", $0) } ?? ""
            return "no panorama within \(String(format: "%.0f", radius)) m of \(what) (\(coordinate))\(beyond); "
                + "pick a point on a street with imagery (see 'lookaround scene')"
        case .unknownSequence(let id, let known):
            return "no sequence '\(id)' in the catalog; known sequences: \(known.joined(separator: ", "))"
        case .malformedWaypoints(let file, let location, let detail):
            return "\(file): \(location.isEmpty ? "" : "\(location): ")\(detail); give a GeoJSON LineString or MultiPoint, or a GPX track or route"
        case .missingInput(let file, let detail):
            return "\(file): \(detail)"
        case .cannotWrite(let failure):
            return failure.description
        case .outputInTheWay(let path):
            return "\(path) is a folder that is not a frames folder of 'lookaround walk'; nothing was replaced. "
                + "Choose another -o, or remove the folder first"
        case .toolMissing(let tool, let package, let purpose):
            return "\(purpose) needs the '\(tool)' executable, which is not on PATH; install it with 'apt-get install \(package)' or choose .gif, .webp or a folder of PNG frames"
        case .encodingFailed(let format, let detail):
            return "\(format) encoding failed: \(detail)"
        case .cancelled:
            return "cancelled; no output was left behind"
        }
    }
}

extension PlaybackError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .noPath, .noPanoramaNear, .unknownSequence: .noImagery
        case .malformedWaypoints: .badData
        case .missingInput: .missingInput
        case .cannotWrite(let failure): failure.category
        case .outputInTheWay: .cannotCreate
        case .invalidParameter: .usage
        case .toolMissing: .unavailable
        case .encodingFailed, .cancelled: .internalError
        }
    }

    public var invalidValue: InvalidValue? {
        if case .invalidParameter(let name, let value, let allowed) = self { return InvalidValue(parameter: name, value: value, allowed: allowed) }
        return nil
    }
}
