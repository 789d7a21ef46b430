import Geodesy

/// Google's encoded polyline format (what OSRM's `geometries=polyline` and `polyline6` answer):
/// latitude then longitude, scaled by 10^precision, delta-coded, zig-zagged, 5 bits per character.
public enum PolylineEncoding {
    /// The encoded text of `coordinates` at `precision` decimal digits (5 for `polyline`, 6 for `polyline6`).
    public static func encode(_ coordinates: [GeoCoordinate], precision: Int = 5) -> String {
        let factor = pow10(precision)
        var output: [UInt8] = []
        output.reserveCapacity(coordinates.count * 8)
        var previousLatitude = 0, previousLongitude = 0
        for coordinate in coordinates {
            let latitude = Int((coordinate.latitude * factor).rounded()), longitude = Int((coordinate.longitude * factor).rounded())
            append(latitude - previousLatitude, to: &output)
            append(longitude - previousLongitude, to: &output)
            previousLatitude = latitude
            previousLongitude = longitude
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The coordinates of an encoded polyline, as (latitude, longitude) degree pairs; nil when malformed.
    public static func decode(_ text: String, precision: Int = 5) -> [(latitude: Double, longitude: Double)]? {
        let factor = pow10(precision)
        var result: [(latitude: Double, longitude: Double)] = []
        var bytes = Array(text.utf8)[...]
        var latitude = 0, longitude = 0
        func next() -> Int? {
            var value = 0, shift = 0
            while let byte = bytes.popFirst() {
                guard byte >= 63, shift < 60 else { return nil }
                let chunk = Int(byte) - 63
                value |= (chunk & 0x1F) << shift
                shift += 5
                if chunk < 0x20 { return (value & 1) != 0 ? ~(value >> 1) : value >> 1 }
            }
            return nil
        }
        while !bytes.isEmpty {
            guard let dLat = next(), let dLon = next() else { return nil }
            latitude += dLat
            longitude += dLon
            result.append((Double(latitude) / factor, Double(longitude) / factor))
        }
        return result
    }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }

    private static func append(_ value: Int, to output: inout [UInt8]) {
        var v = value < 0 ? ~(value << 1) : value << 1
        while v >= 0x20 {
            output.append(UInt8((0x20 | (v & 0x1F)) + 63))
            v >>= 5
        }
        output.append(UInt8(v + 63))
    }
}
