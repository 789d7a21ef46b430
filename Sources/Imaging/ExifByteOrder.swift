/// Byte order of the TIFF structure inside an EXIF segment. Cameras write both; readers must read both.
public enum ExifByteOrder: Sendable, Hashable {
    /// `II` (Intel): least significant byte first.
    case littleEndian
    /// `MM` (Motorola): most significant byte first.
    case bigEndian
}
