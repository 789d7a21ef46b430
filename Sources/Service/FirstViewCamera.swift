import ArgumentParsing
import CommandOptions
import Foundation

/// The camera a deep link to the page names, when it names one fully: a panorama (`?pano=ID`) and a
/// heading, in either of the page's forms (`/@LAT,LON,3a,FOVy,HEADINGh,TILTt?pano=ID`, tilt 90 = the
/// horizon; `/?pano=ID&heading=&pitch=&fov=`). It reads the address and limits the camera by the
/// ``ViewerFacts`` that `lookaround/addresses.js` reads too, so the frame it names is the viewer's first
/// frame: the same query, and the same key (``ViewerFacts/frameKeyFields``, JavaScript's `toFixed`).
struct FirstViewCamera: Equatable {
    var panoramaID: String
    /// Degrees: heading in 0..<360, pitch and horizontal field of view within the viewer's limits
    /// (``ViewerFacts/pitchDegrees``, ``ViewerFacts/fieldOfViewDegrees``).
    var heading: Double
    var pitch: Double
    var fov: Double

    init?(_ request: HTTPRequest) {
        let names = ViewerFacts.deepLinkQuery
        guard let pano = request.argument(names["panorama"]!), !pano.isEmpty else { return nil }
        var heading: Double?, pitch = ViewerFacts.defaultPitchDegrees, fov = ViewerFacts.defaultFieldOfViewDegrees
        if request.path.hasPrefix(ViewerFacts.deepLinkPrefix) {
            // Google's form may go on after the camera (`/data=…`): the camera ends at the next slash. Its
            // values count only after a point (two decimals) that starts it.
            let parts = request.path.dropFirst(ViewerFacts.deepLinkPrefix.count).prefix(while: { $0 != "/" })
                .split(separator: ",", omittingEmptySubsequences: false)
            let point = parts.count >= 2 && ParsedArguments.decimal(parts[0]) != nil && ParsedArguments.decimal(parts[1]) != nil
            for part in point ? parts.dropFirst(2) : [] {
                guard let unit = part.last, let value = ParsedArguments.decimal(part.dropLast()) else { continue }
                switch ViewerFacts.deepLinkUnits[String(unit)] {
                case "fov": fov = value
                case "heading": heading = value
                case "tilt": pitch = value - ViewerFacts.horizonTiltDegrees
                default: break
                }
            }
        }
        func number(_ name: String) -> Double? {
            request.argument(names[name]!).flatMap(ParsedArguments.decimal)
        }
        heading = number("heading") ?? heading
        pitch = number("pitch") ?? pitch
        fov = number("fov") ?? fov
        guard let heading else { return nil }
        panoramaID = pano
        self.heading = (heading.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        self.pitch = pitch.clamped(to: ViewerFacts.pitchDegrees)
        self.fov = fov.clamped(to: ViewerFacts.fieldOfViewDegrees)
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
        return (w, h, ratio.clamped(to: ViewerFacts.labelScale))
    }

    /// The values of the first frame's key fields (``ViewerFacts/frameKeyFields``), by name.
    private func fields(size: (width: Int, height: Int, labelScale: Double)) -> [String: String] {
        ["scene": panoramaID, "heading_degrees": Self.fixed(heading), "pitch_degrees": Self.fixed(pitch), "fov_degrees": Self.fixed(fov),
         "width": String(size.width), "height": String(size.height), "labels": ViewerFacts.firstFrameLabels,
         "label_scale": Self.fixed(size.labelScale)]
    }

    /// The viewer's key of its first frame (`lookaround/addresses.js` `frameRequest`).
    func key(size: (width: Int, height: Int, labelScale: Double)) -> String {
        let fields = fields(size: size)
        return ViewerFacts.frameKeyFields.map { fields[$0] ?? "" }.joined(separator: "|")
    }

    /// The frame request of the viewer's first frame, and its URL (path and query): the key's fields
    /// in order, the width and height as `size`, then the picture's format and quality.
    func snapshotRequest(size: (width: Int, height: Int, labelScale: Double)) -> (request: HTTPRequest, url: String) {
        let fields = fields(size: size)
        var query: [(name: String, value: String)] = []
        for name in ViewerFacts.frameKeyFields where name != "height" {
            query.append(name == "width" ? ("size", "\(size.width)x\(size.height)") : (name, fields[name] ?? ""))
        }
        query += [("format", ViewerFacts.frameFormat), ("quality", String(ViewerFacts.frameQuality))]
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let text = query.map { "\($0.name)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.value)" }.joined(separator: "&")
        return (HTTPRequest(path: ViewerFacts.framePath, query: query), ViewerFacts.framePath + "?" + text)
    }

    /// JavaScript's `x.toFixed(ViewerFacts.frameDecimals)`: a tie rounded away from zero (printf's
    /// `%.2f` rounds a tie such as 0.125 to even).
    static func fixed(_ value: Double) -> String {
        let scale = pow(10, Double(ViewerFacts.frameDecimals))
        return String(format: "%.\(ViewerFacts.frameDecimals)f", (value * scale).rounded(.toNearestOrAwayFromZero) / scale)
    }
}

extension Comparable {
    /// The value, or the nearer bound of `range` when it lies outside.
    func clamped(to range: ClosedRange<Self>) -> Self { min(range.upperBound, max(range.lowerBound, self)) }
}
