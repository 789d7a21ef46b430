/// A Mapbox Vector Tile 2.1 (the protobuf `vector_tile.Tile`) written by hand: layers of points and
/// line strings in tile coordinates (0…``extent``, y down), with string, integer and double attributes
/// shared through each layer's key and value tables. Only what coverage tiles need; the reader is any
/// MVT decoder (MapLibre, `mapbox-vector-tile`).
struct VectorTile {
    /// An attribute value.
    enum Value: Hashable {
        case string(String), int(Int64), double(Double)
    }

    /// A feature's geometry in tile coordinates.
    enum Geometry {
        case point(x: Int32, y: Int32)
        case lineString([(x: Int32, y: Int32)])
    }

    /// One layer being built.
    struct Layer {
        let name: String
        let extent: UInt32
        private var keys: [String] = [], keyIndex: [String: UInt32] = [:]
        private var values: [Value] = [], valueIndex: [Value: UInt32] = [:]
        private var features: [[UInt8]] = []

        init(name: String, extent: UInt32 = 4096) { (self.name, self.extent) = (name, extent) }

        var isEmpty: Bool { features.isEmpty }

        /// Adds a feature (`id` 0: none) with `attributes` in order.
        mutating func add(id: UInt64, _ geometry: Geometry, attributes: [(String, Value)]) {
            var tags: [UInt32] = []
            for (key, value) in attributes {
                let k: UInt32
                if let found = keyIndex[key] { k = found } else {
                    k = UInt32(keys.count)
                    keys.append(key)
                    keyIndex[key] = k
                }
                let v: UInt32
                if let found = valueIndex[value] { v = found } else {
                    v = UInt32(values.count)
                    values.append(value)
                    valueIndex[value] = v
                }
                tags += [k, v]
            }
            var commands: [UInt32] = []
            let type: UInt64
            switch geometry {
            case .point(let x, let y):
                type = 1
                commands = [Self.command(1, count: 1), Self.zigzag(x), Self.zigzag(y)]
            case .lineString(let points):
                guard points.count >= 2 else { return }
                type = 2
                commands.reserveCapacity(points.count * 2 + 2)
                commands += [Self.command(1, count: 1), Self.zigzag(points[0].x), Self.zigzag(points[0].y),
                             Self.command(2, count: points.count - 1)]
                for k in 1..<points.count {
                    commands += [Self.zigzag(points[k].x &- points[k - 1].x), Self.zigzag(points[k].y &- points[k - 1].y)]
                }
            }
            var feature = Protobuf()
            if id != 0 { feature.varintField(1, id) }
            feature.packedField(2, tags)
            feature.varintField(3, type)
            feature.packedField(4, commands)
            features.append(feature.bytes)
        }

        /// The layer's bytes (`vector_tile.Tile.Layer`).
        var encoded: [UInt8] {
            var layer = Protobuf()
            layer.varintField(15, 2)
            layer.bytesField(1, Array(name.utf8))
            for feature in features { layer.bytesField(2, feature) }
            for key in keys { layer.bytesField(3, Array(key.utf8)) }
            for value in values {
                var message = Protobuf()
                switch value {
                case .string(let text): message.bytesField(1, Array(text.utf8))
                case .double(let number): message.fixed64Field(3, number.bitPattern)
                case .int(let number): message.varintField(6, UInt64(bitPattern: (number << 1) ^ (number >> 63)))
                }
                layer.bytesField(4, message.bytes)
            }
            layer.varintField(5, UInt64(extent))
            return layer.bytes
        }

        static func command(_ id: UInt32, count: Int) -> UInt32 { (id & 7) | UInt32(count) << 3 }
        static func zigzag(_ value: Int32) -> UInt32 { UInt32(bitPattern: (value << 1) ^ (value >> 31)) }
    }

    /// The tile's bytes: its non-empty layers (`vector_tile.Tile`, layers are field 3).
    static func encode(_ layers: [Layer]) -> [UInt8] {
        var tile = Protobuf()
        for layer in layers where !layer.isEmpty { tile.bytesField(3, layer.encoded) }
        return tile.bytes
    }
}

/// The protobuf wire format, writing only: varints, fixed 64-bit, length-delimited fields.
struct Protobuf {
    private(set) var bytes: [UInt8] = []

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func varintField(_ field: Int, _ value: UInt64) {
        varint(UInt64(field << 3 | 0))
        varint(value)
    }

    mutating func fixed64Field(_ field: Int, _ value: UInt64) {
        varint(UInt64(field << 3 | 1))
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func bytesField(_ field: Int, _ value: [UInt8]) {
        varint(UInt64(field << 3 | 2))
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func packedField(_ field: Int, _ values: [UInt32]) {
        guard !values.isEmpty else { return }
        var packed = Protobuf()
        for value in values { packed.varint(UInt64(value)) }
        bytesField(field, packed.bytes)
    }
}
