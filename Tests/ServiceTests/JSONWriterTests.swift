import Catalog
import Foundation
import Geodesy
@testable import Service
import Testing

/// The service's hand-written JSON against `JSONEncoder` (what the CLI's `--json` writes), and the
/// per-panorama fragments against the writer without them.
@Suite struct JSONWriterTests {
    static func answers() throws -> [SceneAnswer] {
        let catalog = try Catalog(path: try ServiceFixture.catalog.get().catalog)
        var answers: [SceneAnswer] = []
        for (latitude, longitude) in [(60.1699, 24.9523), (60.1686, 24.9480), (60.16805, 24.9416), (10.0, 10.0), (60.1677, 24.9509)] {
            answers.append(try catalog.scene(for: SceneRequest(coordinate: try GeoCoordinate(latitude: latitude, longitude: longitude),
                                                               radiusMeters: 80), requestID: latitude == 10 ? nil : "id \"\(latitude)\"\n"))
        }
        answers.append(try catalog.scene(for: SceneRequest(coordinate: try GeoCoordinate(latitude: 60.1699, longitude: 24.9523),
                                                           source: .photo)))
        return answers
    }

    @Test func scenesEncodeAsJSONEncoderDoes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        for answer in try Self.answers() {
            var writer = JSONWriter()
            writer.write(answer)
            let ours = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? NSDictionary
            let theirs = try JSONSerialization.jsonObject(with: try encoder.encode(answer)) as? NSDictionary
            #expect(ours == theirs, "\(String(decoding: writer.bytes, as: UTF8.self))")
        }
    }

    @Test func fragmentsGiveTheSameBytes() throws {
        let fragments = SceneFragments()
        for answer in try Self.answers() + Self.answers() {
            var plain = JSONWriter(), fast = JSONWriter()
            plain.write(answer)
            fast.write(answer, fragments: fragments, revision: 0)
            #expect(plain.bytes == fast.bytes, "\(String(decoding: fast.bytes, as: UTF8.self))")
        }
    }

    /// A request that began under revision 1 writes its (old) scene after a poll saw revision 2 and
    /// dropped the caches: the next request, under revision 2, must get its own scene's bytes, not the
    /// old fragments the straddling request left (same panorama id, another heading).
    @Test func fragmentsOfARequestThatStraddledARevisionChangeDoNotAnswerUnderTheNewOne() throws {
        let fragments = SceneFragments()
        let old = try Self.answers()[0]
        var new = old
        new.scene?.headingDegrees += 10
        fragments.removeAll()
        var straddler = JSONWriter()
        straddler.write(old, fragments: fragments, revision: 1)
        var plain = JSONWriter(), fast = JSONWriter()
        plain.write(new)
        fast.write(new, fragments: fragments, revision: 2)
        // As text: a failure then shows the two headings.
        #expect(String(decoding: fast.bytes, as: UTF8.self) == String(decoding: plain.bytes, as: UTF8.self))
        // Under one revision the fragments are reused.
        var again = JSONWriter()
        again.write(new, fragments: fragments, revision: 2)
        #expect(String(decoding: again.bytes, as: UTF8.self) == String(decoding: plain.bytes, as: UTF8.self))
    }

    @Test func stringsAreEscaped() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("a", "quote \" backslash \\ newline \n tab \t bell \u{07} é /")
        writer.endObject()
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == #"{"a":"quote \" backslash \\ newline \n tab \t bell \u0007 é /"}"#)
        let back = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: String]
        #expect(back?["a"] == "quote \" backslash \\ newline \n tab \t bell \u{07} é /")
    }
}

extension JSONWriterTests {
    /// Numbers are written without making strings now; the bytes are the ones the writer wrote when it
    /// did (`String(Int64(number))` for whole numbers below 10¹⁵, `"\(number)"` otherwise, `null` for
    /// NaN and ±∞), for every kind of double a scene answer carries and the edges of both forms.
    @Test func numbersAreWrittenAsSwiftPrintsThem() {
        func reference(_ number: Double) -> String {
            if !number.isFinite { return "null" }
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return "\(number)"
        }
        var generator = SystemRandomNumberGenerator()
        var numbers: [Double] = [0, -0.0, 1, -1, 9, 10, -10, 0.1, 1e-5, 1e-7, 123.456, 1e15, -1e15, 999_999_999_999_999, 1e16, 1e300,
                                 5e-324, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .nan, .infinity, -.infinity,
                                 60.1699, 24.9523, 12.345678901234567, 359.99999999999994]
        for _ in 0..<20_000 {
            numbers.append(Double.random(in: -180...180, using: &generator))
            numbers.append(Double.random(in: 0...500, using: &generator).rounded() / 10)
            numbers.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
        }
        for number in numbers {
            var writer = JSONWriter()
            writer.value(number)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == reference(number), "\(number.bitPattern)")
        }
        for whole in [0, 1, -1, 9, 10, 99, 100, -100, 1234567, Int.max, Int.min, Int.min + 1] + (0..<1000).map({ _ in Int.random(in: .min ... .max) }) {
            var writer = JSONWriter()
            writer.value(whole)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(whole), "\(whole)")
        }
    }
}
