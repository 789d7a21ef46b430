import Catalog
import Foundation
import Geodesy
import LookAround

/// Where a move goes: the links of the scene's panorama, as Street View's arrows offer them.
public struct ViewerNavigator: Sendable {
    /// The catalog the links and panoramas come from; nil for a single file (no links).
    public let catalog: Catalog?

    /// A link is "ahead" when its direction is within this of the view heading, degrees (so one of
    /// four arrows at a crossing is always the one in front).
    static let aheadToleranceDegrees = 67.5
    /// A click on the ground looks for a panorama this near the point, metres.
    static let clickRadiusMeters = 15.0

    public init(catalog: Catalog?) { self.catalog = catalog }

    /// Signed difference `b − a` of two headings, degrees, (−180, 180].
    public static func headingDifference(_ a: Double, _ b: Double) -> Double {
        var d = (b - a).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        return d
    }

    /// The link nearest the direction `headingDegrees`, within ``aheadToleranceDegrees``: the
    /// smallest angle, and among links in nearly that direction (within ``sameDirectionDegrees`` of it:
    /// the next capture and the one after it, say) the nearest.
    public static func link(toward headingDegrees: Double, in links: [PanoramaLink]) -> PanoramaLink? {
        let candidates = links.map { (link: $0, offset: abs(headingDifference(headingDegrees, $0.headingDegrees))) }
            .filter { $0.offset <= aheadToleranceDegrees }
        guard let best = candidates.map(\.offset).min() else { return nil }
        return candidates.filter { $0.offset <= best + sameDirectionDegrees }
            .min { ($0.link.distanceMeters, $0.offset) < ($1.link.distanceMeters, $1.offset) }?.link
    }

    /// Links this close in direction count as one way, degrees.
    static let sameDirectionDegrees = 10.0

    /// What a move command found: the scene to go to, or why there is none.
    public enum Outcome: Sendable, Equatable {
        case move(LookAroundScene)
        case stay(String)
    }

    /// The scene a move command leads to from `state`.
    public func destination(of command: ViewerCommand, from state: ViewerState) -> Outcome {
        guard let catalog else { return .stay("a single panorama file has no links") }
        let match = state.scene.match
        let target: String
        switch command {
        case .forward, .backward:
            let heading = command == .forward ? state.headingDegrees : ViewerState.normalized(state.headingDegrees + 180)
            guard let link = Self.link(toward: heading, in: match.links) else {
                return .stay(command == .forward ? "no panorama ahead: turn towards an arrow" : "no panorama behind")
            }
            target = link.panoramaID
        case .nextInSequence, .previousInSequence:
            let wanted = match.sequenceIndex + (command == .nextInSequence ? 1 : -1)
            let candidates = match.links.filter { $0.kind == .sequence }.compactMap { link -> String? in
                guard let record = try? catalog.panorama(id: link.panoramaID),
                      record.sequenceName == match.sequence, record.sequenceIndex == wanted else { return nil }
                return record.id
            }
            guard let id = candidates.first else {
                return .stay(command == .nextInSequence ? "last panorama of sequence \(match.sequence)"
                                                        : "first panorama of sequence \(match.sequence)")
            }
            target = id
        default:
            return .stay("not a move")
        }
        do { return .move(try LookAroundScene(panoramaID: target, catalog: catalog)) } catch {
            return .stay("cannot open panorama \(target): \(error)")
        }
    }

    /// The scene of the panorama nearest `coordinate` (a clicked ground point), within ``clickRadiusMeters``.
    public func destination(near coordinate: GeoCoordinate, from state: ViewerState) -> Outcome {
        guard let catalog else { return .stay("a single panorama file has no neighbours") }
        do {
            let answer = try catalog.scene(for: SceneRequest(coordinate: coordinate, radiusMeters: Self.clickRadiusMeters))
            guard let match = answer.scene else { return .stay("no panorama within \(Int(Self.clickRadiusMeters)) m of that point") }
            if match.panoramaID == state.scene.panoramaID { return .stay("that is where you stand (\(match.panoramaID))") }
            return .move(try LookAroundScene(panoramaID: match.panoramaID, catalog: catalog))
        } catch {
            return .stay("cannot look up the point: \(error)")
        }
    }

    /// The sequence position "31/60" of the scene's panorama (nil without a catalog).
    public func sequencePosition(of scene: LookAroundScene) -> String? {
        guard let catalog else { return nil }
        let match = scene.match
        let count = (try? catalog.sequenceLength(named: match.sequence)) ?? nil
        return "\(match.sequenceIndex + 1)" + (count.map { "/\($0)" } ?? "")
    }

    /// Where the panorama stands, for the status line: the nearest named street within 25 m, with the
    /// house number of the nearest address within 20 m when that address is on the same street
    /// ("Aleksanterinkatu 21").
    public func streetName(of scene: LookAroundScene, language: String?) -> String? {
        guard let catalog, let point = try? GeoCoordinate(latitude: scene.match.latitude, longitude: scene.match.longitude),
              let named = (try? catalog.namedStreet(near: point, radiusMeters: 25, language: language)) ?? nil else { return nil }
        let address = (try? catalog.reverseGeocode(point, radiusMeters: 20, streetRadiusMeters: 0))?.address
        guard let address, address.street != nil, address.street == named.street.name else { return named.name }
        return "\(named.name) \(address.houseNumber)"
    }
}
