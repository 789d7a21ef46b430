/// Google's Photo Sphere XMP fields (namespace `http://ns.google.com/photos/1.0/panorama/`, prefix
/// `GPano`), as 360° cameras write them. Every field is optional.
public struct PanoramaMetadata: Sendable, Hashable {
    /// `GPano:ProjectionType`; `"equirectangular"` for the panoramas this project reads.
    public var projectionType: String?
    /// `GPano:UsePanoramaViewer`.
    public var usePanoramaViewer: Bool?
    /// `GPano:PoseHeadingDegrees`: compass heading of the image centre, 0…<360, clockwise from true north.
    public var poseHeadingDegrees: Double?
    /// `GPano:PosePitchDegrees`: −90…90.
    public var posePitchDegrees: Double?
    /// `GPano:PoseRollDegrees`: −180…180.
    public var poseRollDegrees: Double?
    /// `GPano:FullPanoWidthPixels`.
    public var fullPanoWidthPixels: Int?
    /// `GPano:FullPanoHeightPixels`.
    public var fullPanoHeightPixels: Int?
    /// `GPano:CroppedAreaImageWidthPixels`.
    public var croppedAreaImageWidthPixels: Int?
    /// `GPano:CroppedAreaImageHeightPixels`.
    public var croppedAreaImageHeightPixels: Int?
    /// `GPano:CroppedAreaLeftPixels`.
    public var croppedAreaLeftPixels: Int?
    /// `GPano:CroppedAreaTopPixels`.
    public var croppedAreaTopPixels: Int?
    /// `GPano:CaptureSoftware`.
    public var captureSoftware: String?

    /// GPano fields (all optional).
    public init(projectionType: String? = nil, usePanoramaViewer: Bool? = nil, poseHeadingDegrees: Double? = nil,
                posePitchDegrees: Double? = nil, poseRollDegrees: Double? = nil, fullPanoWidthPixels: Int? = nil,
                fullPanoHeightPixels: Int? = nil, croppedAreaImageWidthPixels: Int? = nil,
                croppedAreaImageHeightPixels: Int? = nil, croppedAreaLeftPixels: Int? = nil,
                croppedAreaTopPixels: Int? = nil, captureSoftware: String? = nil) {
        self.projectionType = projectionType
        self.usePanoramaViewer = usePanoramaViewer
        self.poseHeadingDegrees = poseHeadingDegrees
        self.posePitchDegrees = posePitchDegrees
        self.poseRollDegrees = poseRollDegrees
        self.fullPanoWidthPixels = fullPanoWidthPixels
        self.fullPanoHeightPixels = fullPanoHeightPixels
        self.croppedAreaImageWidthPixels = croppedAreaImageWidthPixels
        self.croppedAreaImageHeightPixels = croppedAreaImageHeightPixels
        self.croppedAreaLeftPixels = croppedAreaLeftPixels
        self.croppedAreaTopPixels = croppedAreaTopPixels
        self.captureSoftware = captureSoftware
    }

    /// A full equirectangular panorama of `width × height` pixels (uncropped) facing `headingDegrees`.
    public static func equirectangular(width: Int, height: Int, headingDegrees: Double,
                                       pitchDegrees: Double = 0, rollDegrees: Double = 0,
                                       captureSoftware: String? = nil) -> PanoramaMetadata {
        PanoramaMetadata(projectionType: "equirectangular", usePanoramaViewer: true, poseHeadingDegrees: headingDegrees,
                         posePitchDegrees: pitchDegrees, poseRollDegrees: rollDegrees, fullPanoWidthPixels: width,
                         fullPanoHeightPixels: height, croppedAreaImageWidthPixels: width,
                         croppedAreaImageHeightPixels: height, croppedAreaLeftPixels: 0, croppedAreaTopPixels: 0,
                         captureSoftware: captureSoftware)
    }

    /// Checks ranges before writing.
    /// - Throws: `ImagingError.invalidParameter` naming the field, value and range.
    public func validate() throws {
        if let h = poseHeadingDegrees, !(h >= 0 && h < 360) {
            throw ImagingError.invalidParameter(name: "PoseHeadingDegrees", value: "\(h)", allowed: "0…<360")
        }
        if let p = posePitchDegrees, !(p >= -90 && p <= 90) {
            throw ImagingError.invalidParameter(name: "PosePitchDegrees", value: "\(p)", allowed: "-90…90")
        }
        if let r = poseRollDegrees, !(r >= -180 && r <= 180) {
            throw ImagingError.invalidParameter(name: "PoseRollDegrees", value: "\(r)", allowed: "-180…180")
        }
        let sizes: [(String, Int?)] = [
            ("FullPanoWidthPixels", fullPanoWidthPixels), ("FullPanoHeightPixels", fullPanoHeightPixels),
            ("CroppedAreaImageWidthPixels", croppedAreaImageWidthPixels),
            ("CroppedAreaImageHeightPixels", croppedAreaImageHeightPixels)]
        for (name, value) in sizes {
            if let value, value <= 0 {
                throw ImagingError.invalidParameter(name: name, value: "\(value)", allowed: "1 or more pixels")
            }
        }
        for (name, value) in [("CroppedAreaLeftPixels", croppedAreaLeftPixels), ("CroppedAreaTopPixels", croppedAreaTopPixels)] {
            if let value, value < 0 {
                throw ImagingError.invalidParameter(name: name, value: "\(value)", allowed: "0 or more pixels")
            }
        }
    }
}
