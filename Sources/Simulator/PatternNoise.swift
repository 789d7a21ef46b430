/// Integer hashing for procedural patterns: the same inputs give the same value on every machine and
/// thread, so renders are deterministic.
enum PatternNoise {
    /// A well-mixed 32-bit hash of three integers.
    @inline(__always) static func hash(_ a: Int32, _ b: Int32, _ c: UInt32) -> UInt32 {
        var h = UInt32(bitPattern: a) &* 0x8DA6_B343 ^ UInt32(bitPattern: b) &* 0xD816_3841 ^ c &* 0xCB1A_B31F
        h ^= h >> 16; h = h &* 0x7FEB_352D; h ^= h >> 15; h = h &* 0x846C_A68B; h ^= h >> 16
        return h
    }

    /// A value in [0, 1) for a cell.
    @inline(__always) static func unit(_ a: Int32, _ b: Int32, _ c: UInt32) -> Float {
        Float(hash(a, b, c) >> 8) * (1 / 16_777_216)
    }

    /// Cell noise in [0, 1) at a point of the plane with cells of `size` metres.
    @inline(__always) static func cell(_ x: Float, _ y: Float, size: Float, seed: UInt32) -> Float {
        unit(Int32(clamping: Int((x / size).rounded(.down))), Int32(clamping: Int((y / size).rounded(.down))), seed)
    }
}
