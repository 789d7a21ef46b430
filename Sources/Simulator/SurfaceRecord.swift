/// What the shader needs to know about one triangle: its material, colours, geometric normal and a
/// planar texture mapping `u = (p − origin) · (axisX, axisY, 0)`, `v = p.z − origin.z` (metres).
struct SurfaceRecord: Sendable {
    /// Unit geometric normal (facing outwards for closed solids; flipped towards the ray when shading).
    var normal: Vec3
    /// The pattern.
    var material: MaterialKind
    /// Base colour, linear RGB 0…1.
    var albedo: Vec3
    /// Second colour (window frames, sign text), linear RGB.
    var accent: Vec3
    /// Texture-mapping origin (metres).
    var origin: Vec3
    /// Texture-mapping horizontal axis (unit, in the east-north plane).
    var axisX: Float, axisY: Float
    /// Length of the mapped area along the axis (wall segment length, sign width), metres.
    var extent: Float
    /// Height of the mapped area (building height above its base, sign height), metres.
    var extentV: Float
    /// Per-object value: building style seed, or sign index into the atlas.
    var style: UInt32

    init(normal: Vec3, material: MaterialKind, albedo: Vec3, accent: Vec3 = .zero, origin: Vec3 = .zero,
         axisX: Float = 1, axisY: Float = 0, extent: Float = 0, extentV: Float = 0, style: UInt32 = 0) {
        self.normal = normal; self.material = material; self.albedo = albedo; self.accent = accent
        self.origin = origin; self.axisX = axisX; self.axisY = axisY; self.extent = extent
        self.extentV = extentV; self.style = style
    }
}
