/// What a video's pictures are.
public enum VideoProjection: String, Sendable, Hashable, CaseIterable, Codable {
    /// A full equirectangular sphere: frames are panoramas as they are.
    case equirectangular
    /// A GoPro MAX `.360`: two streams of an equi-angular cubemap with overlap bands, rebuilt and
    /// reprojected to equirectangular.
    case goproMaxEAC = "gopro-max-eac"
    /// Two fisheye circles (an Insta360 `.insv`): not stitched here.
    case dualFisheye = "dual-fisheye"
    /// An ordinary (non-360°) video.
    case flat

    /// Whether frames of this projection can become panoramas.
    public var makesPanoramas: Bool { self == .equirectangular || self == .goproMaxEAC }
}
