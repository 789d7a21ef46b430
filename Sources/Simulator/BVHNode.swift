/// One node of the flattened bounding-volume hierarchy: 32 bytes, two nodes per cache line.
///
/// Inner nodes have `count == 0` and their two children at `firstOrLeft` and `firstOrLeft + 1`;
/// leaves hold `count` triangles starting at `firstOrLeft` in the reordered triangle arrays.
struct BVHNode: Sendable {
    var minimum: Vec3
    var firstOrLeft: UInt32
    var maximum: Vec3
    var count: UInt32
}
