/// How files that belong to one panorama are named beside its JPEG.
///
/// The default: `NAME.jpg` (or `.jpeg`, any case) is the panorama, `NAME.depth.png` its depth map,
/// `NAME.labels.png` its label map, and `NAME.json` an optional sidecar (``PanoramaSidecar``).
/// Every suffix can be changed (`lookaround index --depth-suffix … --labels-suffix … --sidecar-suffix …`)
/// so another producer's layout can be read without renaming files.
public struct CatalogNamingConvention: Sendable, Hashable, Codable {
    /// Extensions of panorama images, lowercase, without the dot.
    public var imageExtensions: [String]
    /// Appended to `NAME` for the depth map.
    public var depthSuffix: String
    /// Appended to `NAME` for the label map.
    public var labelsSuffix: String
    /// Appended to `NAME` for the JSON sidecar.
    public var sidecarSuffix: String

    /// A convention from its parts.
    public init(imageExtensions: [String] = ["jpg", "jpeg"], depthSuffix: String = ".depth.png",
                labelsSuffix: String = ".labels.png", sidecarSuffix: String = ".json") {
        self.imageExtensions = imageExtensions
        self.depthSuffix = depthSuffix
        self.labelsSuffix = labelsSuffix
        self.sidecarSuffix = sidecarSuffix
    }

    /// `NAME.jpg`, `NAME.depth.png`, `NAME.labels.png`, `NAME.json`.
    public static let standard = CatalogNamingConvention()

    /// Whether `fileName` is a panorama image by its extension.
    public func isImage(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(of: "."), !fileName.hasPrefix(".") else { return false }
        return imageExtensions.contains(fileName[fileName.index(after: dot)...].lowercased())
    }

    /// The path without the image extension (`/a/R0010023` for `/a/R0010023.JPG`).
    public func stem(ofImage path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return path }
        return String(path[..<dot])
    }
}
