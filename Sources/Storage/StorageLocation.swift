import Imaging

/// Where bytes live: a local path, or an object (or a folder of objects) in an S3 bucket,
/// `s3://BUCKET/KEY`.
///
/// Every option that takes a folder of panoramas or an output folder takes either; a folder in a bucket
/// is a key prefix (`s3://imagery/helsinki` holds `s3://imagery/helsinki/pano-000.jpg`). The text form
/// (``description``) is what the catalog stores for an object and what messages show.
public enum StorageLocation: Sendable, Hashable, CustomStringConvertible {
    /// A local file or folder.
    case file(path: String)
    /// An object, or a folder of objects, in an S3 bucket: `key` has no leading `/` ("" is the bucket's root).
    case s3(bucket: String, key: String)

    /// The scheme of object storage locations.
    public static let s3Scheme = "s3://"

    /// Whether `text` names object storage (`s3://…`, any case of the scheme) rather than a local path.
    public static func isObjectStorage(_ text: String) -> Bool {
        text.utf8.count >= 5 && text.prefix(5).lowercased() == s3Scheme
    }

    /// `s3://BUCKET[/KEY]` or a local path.
    /// - Throws: `StorageError.invalidLocation` for an `s3://` URL without a valid bucket name or with a
    ///   key over 1024 bytes, and for the schemes of other tools' S3 URLs (`s3a://`, `s3n://`) or of
    ///   other clouds (`gs://`, `az://`), naming the form that is taken.
    public init(parsing text: String) throws(StorageError) {
        let lower = text.lowercased()
        for other in ["s3a://", "s3n://", "gs://", "gcs://", "az://", "abfs://", "wasb://", "swift://", "minio://", "seaweedfs://"]
        where lower.hasPrefix(other) {
            throw .invalidLocation(text: text, reason: "only s3:// URLs name object storage (any S3-compatible server: set "
                                   + "AWS_ENDPOINT_URL); write s3://BUCKET/PREFIX")
        }
        guard Self.isObjectStorage(text) else {
            if lower.hasPrefix("s3:") {
                throw .invalidLocation(text: text, reason: "write s3://BUCKET/PREFIX, with two slashes")
            }
            guard !text.isEmpty else { throw .invalidLocation(text: text, reason: "the location is empty") }
            self = .file(path: text)
            return
        }
        let rest = text.dropFirst(Self.s3Scheme.count)
        let bucket = String(rest.prefix { $0 != "/" })
        var key = String(rest.dropFirst(bucket.count))
        if key.hasPrefix("/") { key.removeFirst() }
        try Self.validate(bucket: bucket, in: text)
        guard key.utf8.count <= 1024 else {
            throw .invalidLocation(text: text, reason: "an S3 key is at most 1024 bytes; this one is \(key.utf8.count)")
        }
        guard !key.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .invalidLocation(text: text, reason: "the key holds a control character")
        }
        self = .s3(bucket: bucket, key: key)
    }

    /// Bucket names as S3 allows them: 3…63 characters, lowercase letters, digits, `.`, `-` (and `_`,
    /// which older buckets and S3-compatible servers allow), starting and ending with a letter or digit.
    static func validate(bucket: String, in text: String) throws(StorageError) {
        let allowed = "3…63 lowercase letters, digits, '.', '-' or '_', starting and ending with a letter or digit"
        guard !bucket.isEmpty else { throw .invalidLocation(text: text, reason: "no bucket name after s3://") }
        let bytes = Array(bucket.utf8)
        func alphanumeric(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) }
        guard (3...63).contains(bytes.count), bytes.allSatisfy({ alphanumeric($0) || $0 == 0x2E || $0 == 0x2D || $0 == 0x5F }),
              alphanumeric(bytes.first!), alphanumeric(bytes.last!) else {
            throw .invalidLocation(text: text, reason: "bucket '\(bucket)' is not a bucket name: \(allowed)")
        }
    }

    /// The text form: the path, or `s3://BUCKET/KEY` (`s3://BUCKET` for the root).
    public var description: String {
        switch self {
        case .file(let path): path
        case .s3(let bucket, let key): key.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(key)"
        }
    }

    /// Whether this is in object storage.
    public var isObjectStorage: Bool { if case .s3 = self { true } else { false } }

    /// `relative` inside this folder (`s3://b/p` + `x/y.jpg` → `s3://b/p/x/y.jpg`).
    public func appending(_ relative: String) -> StorageLocation {
        switch self {
        case .file(let path):
            return .file(path: path.isEmpty ? relative : (path.hasSuffix("/") ? path + relative : path + "/" + relative))
        case .s3(let bucket, let key):
            let trimmed = relative.hasPrefix("/") ? String(relative.dropFirst()) : relative
            return .s3(bucket: bucket, key: key.isEmpty ? trimmed : (key.hasSuffix("/") ? key + trimmed : key + "/" + trimmed))
        }
    }

    /// The last component ("pano-000.jpg"; the bucket for a bucket's root).
    public var name: String {
        switch self {
        case .file(let path): return FilePath.name(of: path)
        case .s3(let bucket, let key):
            let trimmed = key.hasSuffix("/") ? String(key.dropLast()) : key
            return trimmed.isEmpty ? bucket : String(trimmed.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        }
    }

    /// `text` joined with `relative` as ``appending(_:)`` does, for callers that keep locations as text.
    public static func joining(_ text: String, _ relative: String) -> String {
        guard isObjectStorage(text), let location = try? StorageLocation(parsing: text) else {
            return text.isEmpty ? relative : (text.hasSuffix("/") ? text + relative : text + "/" + relative)
        }
        return location.appending(relative).description
    }
}
