import Imaging
import Storage

/// Reading a panorama, depth map or label map that may be a local file or an object in S3, with each
/// kind of location's errors: a local file's as ``ImageFile/read(_:)`` reports them (`ImagingError`), an
/// object's as `ReprojectionError.storageFailed` (unreachable, refused, missing, with S3's code).
public enum ImageryFile {
    /// The whole file or object.
    public static func read(_ location: String) throws -> [UInt8] {
        guard StorageLocation.isObjectStorage(location) else { return try ImageFile.read(location) }
        do { return try ObjectStorage.shared.read(location) } catch { throw ReprojectionError.storageFailed(error) }
    }

    /// The size and version of the file or object, nil when it does not exist.
    /// - Throws: `ReprojectionError.storageFailed` when the store cannot be used now.
    public static func stamp(_ location: String) throws(ReprojectionError) -> ObjectStamp? {
        do { return try ObjectStorage.shared.stamp(location) } catch .notFound { return nil } catch where error.isUnavailable {
            throw .storageFailed(error)
        } catch {
            return nil
        }
    }
}
