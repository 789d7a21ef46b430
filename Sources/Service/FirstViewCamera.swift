import CommandOptions
import Foundation

/// The camera a deep link to the page names, when it names one fully: a panorama (`?pano=ID`) and a
/// heading, in either of the page's forms (`/@LAT,LON,3a,FOVy,HEADINGh,TILTt?pano=ID`, tilt 90 = the
/// horizon; `/?pano=ID&heading=&pitch=&fov=`). It reads the address as first-view.js does and limits
/// the camera as lookaround.js's viewer does, so the frame it names is the viewer's first frame: the
/// same query, and the same key (`ID|heading|pitch|fov|width|height|labels|label scale`, JavaScript's
/// `toFixed(2)`).
struct FirstViewCamera: Equatable {
    var panoramaID: String
    /// Degrees: heading in 0..<360, pitch -85…85, horizontal field of view 20…120 (the viewer's limits).
    var heading: Double
    var pitch: Double
    var fov: Double

    init?(_ request: HTTPRequest) {
        guard let pano = request.argument("pano"), !pano.isEmpty else { return nil }
        var heading: Double?, pitch = 0.0, fov = 90.0
        if request.path.hasPrefix("/@") {
            // Google's form may go on after the camera (`/data=…`): the camera ends at the next slash.
            for part in request.path.dropFirst(2).prefix(while: { $0 != "/" }).split(separator: ",").dropFirst(2) {
                guard let unit = part.last, let value = Double(part.dropLast()), value.isFinite else { continue }
                switch unit {
                case "y": fov = value
                case "h": heading = value
                case "t": pitch = value - 90
                default: break
                }
            }
        }
        func number(_ name: String) -> Double? {
            request.argument(name).flatMap { $0.isEmpty ? nil : Double($0) }.flatMap { $0.isFinite ? $0 : nil }
        }
        heading = number("heading") ?? heading
        pitch = number("pitch") ?? pitch
        fov = number("fov") ?? fov
        guard let heading else { return nil }
        panoramaID = pano
        self.heading = (heading.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        self.pitch = min(85, max(-85, pitch))
        self.fov = min(120, max(20, fov))
    }

    /// The window's device pixel size from the viewport's client hints (`Sec-CH-Viewport-Width` and
    /// `-Height` in CSS pixels, `Sec-CH-DPR`), rounded as the viewer rounds its canvas, and the place
    /// labels' scale the viewer asks for (the ratio, 1…4); nil without them or out of range.
    func pixelSize(hints headers: [String: String]) -> (width: Int, height: Int, labelScale: Double)? {
        guard let width = headers["sec-ch-viewport-width"].flatMap(Double.init), let height = headers["sec-ch-viewport-height"].flatMap(Double.init)
        else { return nil }
        let ratio = headers["sec-ch-dpr"].flatMap(Double.init) ?? 1
        guard (0.25...8).contains(ratio), (2...16_384).contains(width), (2...16_384).contains(height) else { return nil }
        let w = Int((width * ratio).rounded(.toNearestOrAwayFromZero)), h = Int((height * ratio).rounded(.toNearestOrAwayFromZero))
        guard (2...SceneSelection.maximumSidePixels).contains(w), (2...SceneSelection.maximumSidePixels).contains(h) else { return nil }
        return (w, h, min(4, max(1, ratio)))
    }

    /// The viewer's key of its first frame (lookaround.js `_frame`).
    func key(size: (width: Int, height: Int, labelScale: Double)) -> String {
        [panoramaID, Self.fixed(heading), Self.fixed(pitch), Self.fixed(fov), String(size.width), String(size.height), "all",
         Self.fixed(size.labelScale)].joined(separator: "|")
    }

    /// The `/v1/snapshot` request of the viewer's first frame, and its URL (path and query).
    func snapshotRequest(size: (width: Int, height: Int, labelScale: Double)) -> (request: HTTPRequest, url: String) {
        let query: [(name: String, value: String)] = [
            ("scene", panoramaID), ("heading_degrees", Self.fixed(heading)), ("pitch_degrees", Self.fixed(pitch)),
            ("fov_degrees", Self.fixed(fov)), ("size", "\(size.width)x\(size.height)"), ("labels", "all"),
            ("label_scale", Self.fixed(size.labelScale)), ("format", "jpeg"), ("quality", "80"),
        ]
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let text = query.map { "\($0.name)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.value)" }.joined(separator: "&")
        return (HTTPRequest(path: "/v1/snapshot", query: query), "/v1/snapshot?" + text)
    }

    /// JavaScript's `x.toFixed(2)`: two decimals, a tie rounded away from zero (printf's `%.2f` rounds
    /// a tie such as 0.125 to even).
    static func fixed(_ value: Double) -> String {
        String(format: "%.2f", (value * 100).rounded(.toNearestOrAwayFromZero) / 100)
    }
}
