import Catalog
import Foundation
import Synchronization

/// A small JSON writer for the answers the service sends thousands of times a second: compact, keys
/// in the order written (callers write them sorted, as the CLI's `--json` sorts them), numbers in
/// Swift's shortest round-trip form (whole numbers without a fraction, as `JSONEncoder` writes them).
/// `JSONEncoder` costs more than the whole scene lookup; this costs a few hundred nanoseconds.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    /// `value` to a tenth: the precision routes carry distances (metres), durations (seconds) and bearings.
    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"name":` (the value follows).
    mutating func key(_ name: String) {
        separate()
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func value(_ text: String) { separate(); string(text); needsComma = true }
    mutating func value(_ flag: Bool) { separate(); bytes.append(contentsOf: (flag ? "true" : "false").utf8); needsComma = true }
    mutating func value(_ number: Int) { separate(); integer(Int64(number)); needsComma = true }
    mutating func value(_ number: Double) {
        separate()
        if !number.isFinite {
            bytes.append(contentsOf: "null".utf8)
        } else if number == number.rounded(), abs(number) < 1e15 {
            integer(Int64(number))
        } else {
            shortest(number)
        }
        needsComma = true
    }
    mutating func null() { separate(); bytes.append(contentsOf: "null".utf8); needsComma = true }

    /// `"name": value` for each kind.
    mutating func field(_ name: String, _ text: String) { key(name); value(text) }
    mutating func field(_ name: String, _ number: Double) { key(name); value(number) }
    mutating func field(_ name: String, _ number: Int) { key(name); value(number) }
    mutating func field(_ name: String, _ flag: Bool) { key(name); value(flag) }
    /// Omitted when nil (as `JSONEncoder` omits nil optionals).
    mutating func field(_ name: String, _ text: String?) { if let text { field(name, text) } }
    mutating func field(_ name: String, _ number: Double?) { if let number { field(name, number) } }

    /// Raw, already-encoded JSON as a value.
    mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json); needsComma = true }

    /// Raw bytes continuing the document after a comma: `…,` + `fragment`; `endsWithKey` when the
    /// fragment ends with `"name":` (its value follows without a comma).
    mutating func continuation(_ fragment: [UInt8], endsWithKey: Bool) {
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: fragment)
        needsComma = !endsWithKey
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// The digits of `number` (as `String(number)` writes them), without making a string.
    private mutating func integer(_ number: Int64) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = number.magnitude
        guard rest >= 10 else { return bytes.append(UInt8(ascii: "0") + UInt8(rest)) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes: room for UInt64's 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            while rest > 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// `number` in Swift's shortest round-trip form (`number.description`), written straight into the
    /// bytes: `Double.write(to:)` formats into a stack buffer and hands it over as ASCII, where
    /// `description` would make a string (on the heap when over 15 bytes, as most distances are).
    private mutating func shortest(_ number: Double) {
        var sink = ASCIISink()
        swap(&sink.bytes, &bytes)
        number.write(to: &sink)
        swap(&sink.bytes, &bytes)
    }

    /// A text output stream onto a byte array, taking the ASCII the standard library's number
    /// formatting writes as bytes.
    private struct ASCIISink: TextOutputStream {
        var bytes: [UInt8] = []
        mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
    }

    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Fast path: most strings (ids, keys, paths) need no escape and are copied whole.
        var text = text
        let copied = text.withUTF8 { utf8 -> Bool in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONWriter {
    /// A tile's GeoJSON `FeatureCollection` of points, keys sorted: each item's `Point` at
    /// `position(item)` (longitude, latitude), its `properties` object written by `properties`, and the
    /// collection's `tile` ("z/x/y").
    static func pointFeatures<Items: Sequence>(_ items: Items, tile: String, capacity: Int,
                                               position: (Items.Element) -> (longitude: Double, latitude: Double),
                                               properties: (inout JSONWriter, Items.Element) -> Void) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity)
        writer.beginObject()
        writer.key("features")
        writer.beginArray()
        for item in items {
            writer.beginObject()
            writer.key("geometry")
            writer.beginObject()
            writer.key("coordinates")
            writer.beginArray()
            let point = position(item)
            writer.value(point.longitude)
            writer.value(point.latitude)
            writer.endArray()
            writer.field("type", "Point")
            writer.endObject()
            writer.key("properties")
            writer.beginObject()
            properties(&writer, item)
            writer.endObject()
            writer.field("type", "Feature")
            writer.endObject()
        }
        writer.endArray()
        writer.field("tile", tile)
        writer.field("type", "FeatureCollection")
        writer.endObject()
        return writer.bytes
    }
}

extension JSONWriter {
    /// A scene answer with the keys and nesting of `SceneAnswer`'s `Codable` form (snake_case, sorted).
    mutating func write(_ answer: SceneAnswer) {
        beginObject()
        field("found", answer.found)
        field("latitude", answer.latitude)
        field("longitude", answer.longitude)
        if let noCoverage = answer.noCoverage {
            key("no_coverage")
            write(noCoverage)
        }
        field("radius_meters", answer.radiusMeters)
        field("request_id", answer.requestID)
        if let scene = answer.scene {
            key("scene")
            write(scene)
        }
        endObject()
    }

    /// A scene match (`SceneMatch`'s `Codable` form): the bearing, then the panorama's constant parts
    /// around the distance (``SceneFragments/make(_:)``).
    mutating func write(_ scene: SceneMatch) {
        write(scene, parts: SceneFragments.make(scene))
    }

    mutating func write(_ scene: SceneMatch, parts: SceneFragments.Fragments) {
        beginObject()
        key("bearing_from_request_degrees")
        if let bearing = scene.bearingFromRequestDegrees { value(bearing) } else { null() }
        continuation(parts.head, endsWithKey: true)
        value(scene.distanceMeters)
        continuation(parts.tail, endsWithKey: false)
    }

    /// A no-coverage answer (`NoCoverage`'s `Codable` form).
    mutating func write(_ noCoverage: NoCoverage) {
        beginObject()
        field("filtered_out_count", noCoverage.filteredOutCount)
        field("message", noCoverage.message)
        field("nearest_distance_meters", noCoverage.nearestDistanceMeters)
        field("nearest_panorama_id", noCoverage.nearestPanoramaID)
        field("reason", noCoverage.reason.rawValue)
        endObject()
    }

    /// Links (`PanoramaLink`'s `Codable` form).
    mutating func write(_ links: [PanoramaLink]) {
        beginArray()
        for link in links {
            beginObject()
            field("distance_meters", link.distanceMeters)
            field("heading_degrees", link.headingDegrees)
            field("kind", link.kind.rawValue)
            field("panorama_id", link.panoramaID)
            endObject()
        }
        endArray()
    }

    /// The encoded bytes of any `Encodable` value the way the CLI's `--json` writes it, compact: for
    /// the answers that are not hot (search results, panorama details).
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return (try? [UInt8](encoder.encode(value))) ?? Array(#"{"error":{"code":"internal_error","message":"encoding failed"}}"#.utf8)
    }
}

/// The parts of a scene's JSON that do not depend on the request, kept per panorama: a scene answer
/// then costs its distance and bearing, the request's numbers and two copies, instead of encoding
/// some twenty fields and the links each time. Also the whole Street View metadata answer, which
/// depends on nothing but the panorama. Bounded like ``SceneDetailCache``: full, it starts again.
/// Kept per catalog revision like it: callers pass `catalog.revision` as read before the query that
/// found the scene, so fragments of a request that straddled a revision change never answer under the
/// new revision.
final class SceneFragments: Sendable {
    struct Fragments: Sendable {
        /// `"capture_time":…,…,"distance_meters":` (between the bearing and the distance).
        var head: [UInt8]
        /// `"heading_degrees":…,…}` (after the distance, to the end of the scene object).
        var tail: [UInt8]
    }

    private let scenes: PanoramaValueCache<Fragments>
    private let metadata: PanoramaValueCache<[UInt8]>
    /// `--public-imagery-url`: scenes of imagery in object storage then carry `image_url`.
    let publicImagery: PublicImageryURL?

    init(capacity: Int = 65_536, publicImagery: PublicImageryURL? = nil) {
        self.publicImagery = publicImagery
        scenes = PanoramaValueCache(capacity: capacity)
        metadata = PanoramaValueCache(capacity: capacity)
    }

    /// The fragments of `scene`'s panorama (made from it on a miss); `revision`: the catalog's, read
    /// before the query that found `scene`.
    func fragments(of scene: SceneMatch, revision: Int64) -> Fragments {
        scenes.value(for: scene.panoramaID, revision: revision) { Self.make(scene, publicImagery: publicImagery) }
    }

    /// The constant parts of `scene`'s JSON: every field but the bearing and the distance.
    static func make(_ scene: SceneMatch, publicImagery: PublicImageryURL? = nil) -> Fragments {
        var head = JSONWriter()
        head.field("capture_time", scene.captureTime)
        head.field("depth_path", scene.depthPath)
        head.key("distance_meters")
        var tail = JSONWriter()
        tail.field("heading_degrees", scene.headingDegrees)
        tail.field("heading_source", scene.headingSource)
        tail.field("horizontal_coverage_degrees", scene.horizontalCoverageDegrees)
        tail.field("image_height", scene.imageHeight)
        tail.field("image_path", scene.imagePath)
        tail.field("image_url", publicImagery?.url(for: scene.imagePath))
        tail.field("image_width", scene.imageWidth)
        tail.field("labels_path", scene.labelsPath)
        tail.field("latitude", scene.latitude)
        tail.key("links")
        tail.write(scene.links)
        tail.field("longitude", scene.longitude)
        tail.field("maps_source", scene.mapsSource?.rawValue)
        tail.field("panorama_id", scene.panoramaID)
        tail.field("pitch_degrees", scene.pitchDegrees)
        if let alignment = scene.poseAlignment {
            tail.key("pose_alignment")
            tail.raw(Array(alignment.jsonText.utf8))
        }
        tail.field("roll_degrees", scene.rollDegrees)
        tail.field("sequence", scene.sequence)
        tail.field("sequence_index", scene.sequenceIndex)
        tail.field("source", scene.source.rawValue)
        tail.endObject()
        return Fragments(head: head.bytes, tail: tail.bytes)
    }

    /// Forgets every fragment (the catalog changed).
    func removeAll() {
        scenes.removeAll()
        metadata.removeAll()
    }

    /// The Street View metadata answer of a panorama, made by `make` on a miss; `revision` as above.
    func metadata(of panoramaID: String, revision: Int64, make: () -> [UInt8]) -> [UInt8] {
        metadata.value(for: panoramaID, revision: revision, make: make)
    }
}

/// Values made once per panorama id and catalog revision, at most `capacity` of them (full, it starts
/// again empty). Made outside the lock: two threads missing the same id at once both make it, and one
/// is kept. A value answers only a lookup of the revision it was made under, and never replaces one of
/// a newer revision.
final class PanoramaValueCache<Value: Sendable>: Sendable {
    private let entries = Mutex<[String: (value: Value, revision: Int64)]>([:])
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func value(for panoramaID: String, revision: Int64, make: () -> Value) -> Value {
        if let hit = entries.withLock({ $0[panoramaID] }), hit.revision == revision { return hit.value }
        let value = make()
        entries.withLock { entries in
            if let kept = entries[panoramaID], kept.revision > revision { return }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[panoramaID] = (value, revision)
        }
        return value
    }

    /// Forgets every value.
    func removeAll() { entries.withLock { $0.removeAll(keepingCapacity: true) } }
}

extension JSONWriter {
    /// A scene answer as ``write(_:)-(SceneAnswer)`` writes it, byte for byte, with the panorama's
    /// constant parts from `fragments` (`revision`: the catalog's, read before the query that answered).
    mutating func write(_ answer: SceneAnswer, fragments: SceneFragments, revision: Int64) {
        guard let scene = answer.scene, answer.noCoverage == nil else { return write(answer) }
        beginObject()
        field("found", answer.found)
        field("latitude", answer.latitude)
        field("longitude", answer.longitude)
        field("radius_meters", answer.radiusMeters)
        field("request_id", answer.requestID)
        key("scene")
        write(scene, parts: fragments.fragments(of: scene, revision: revision))
        endObject()
    }
}
