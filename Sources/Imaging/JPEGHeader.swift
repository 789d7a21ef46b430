import CTurboJPEG

/// Chroma subsampling of a JPEG: how many luma samples share one pair of chroma samples.
public enum JPEGSubsampling: String, Sendable, Hashable, CaseIterable {
    /// No subsampling (best colour edges, largest files).
    case chroma444 = "4:4:4"
    /// Chroma halved horizontally.
    case chroma422 = "4:2:2"
    /// Chroma halved in both directions (the usual choice for photos).
    case chroma420 = "4:2:0"
    /// Luma only: a greyscale JPEG.
    case gray = "gray"
    /// Chroma halved vertically (read only; not offered when encoding).
    case chroma440 = "4:4:0"
    /// Chroma quartered horizontally (read only).
    case chroma411 = "4:1:1"

    init?(turboJPEG value: Int32) {
        switch value {
        case Int32(TJSAMP_444.rawValue): self = .chroma444
        case Int32(TJSAMP_422.rawValue): self = .chroma422
        case Int32(TJSAMP_420.rawValue): self = .chroma420
        case Int32(TJSAMP_GRAY.rawValue): self = .gray
        case Int32(TJSAMP_440.rawValue): self = .chroma440
        case Int32(TJSAMP_411.rawValue): self = .chroma411
        default: return nil
        }
    }

    var turboJPEG: Int32 {
        switch self {
        case .chroma444: Int32(TJSAMP_444.rawValue)
        case .chroma422: Int32(TJSAMP_422.rawValue)
        case .chroma420: Int32(TJSAMP_420.rawValue)
        case .gray: Int32(TJSAMP_GRAY.rawValue)
        case .chroma440: Int32(TJSAMP_440.rawValue)
        case .chroma411: Int32(TJSAMP_411.rawValue)
        }
    }
}

/// What a JPEG's headers say, read without decoding pixels (`JPEGCodec.readHeader`).
public struct JPEGHeader: Sendable, Hashable {
    /// Width in pixels (1…65535).
    public var width: Int
    /// Height in pixels (1…65535).
    public var height: Int
    /// Chroma subsampling; `nil` for layouts TurboJPEG does not name (unusual sampling factors).
    public var subsampling: JPEGSubsampling?
    /// The colour space the samples are stored in.
    public var colorSpace: ColorSpace

    /// A JPEG colour space.
    public enum ColorSpace: String, Sendable, Hashable {
        /// RGB samples (Adobe transform 0).
        case rgb
        /// YCbCr, the usual JPEG colour space.
        case yCbCr
        /// One grey channel.
        case gray
        /// CMYK (not decoded to RGB here).
        case cmyk
        /// YCCK (not decoded to RGB here).
        case ycck
        /// A colour space TurboJPEG does not name.
        case unknown
        init(turboJPEG value: Int32) {
            switch value {
            case Int32(TJCS_RGB.rawValue): self = .rgb
            case Int32(TJCS_YCbCr.rawValue): self = .yCbCr
            case Int32(TJCS_GRAY.rawValue): self = .gray
            case Int32(TJCS_CMYK.rawValue): self = .cmyk
            case Int32(TJCS_YCCK.rawValue): self = .ycck
            default: self = .unknown
            }
        }
    }
}
