import Foundation
import Storage

/// `serve --public-imagery-url URL`: the address at which a CDN (or the bucket itself) serves the
/// objects of the imagery's buckets, as geovisio's `API_PERMANENT_PICTURES_PUBLIC_URL`: the object
/// `s3://BUCKET/KEY` is at `URL/KEY`, with `{bucket}` in URL replaced by BUCKET (one CDN origin per
/// bucket, or a path-style bucket URL `http://HOST:PORT/{bucket}`). Local files have no public URL.
public struct PublicImageryURL: Sendable, Hashable {
    /// The URL as given, without a trailing slash.
    public let base: String

    /// nil unless `text` is an http:// or https:// URL.
    public init?(_ text: String) {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), trimmed.count > "https://".count,
              !trimmed.contains(" "), !trimmed.contains("?"), !trimmed.contains("#") else { return nil }
        base = trimmed
    }

    /// The public URL of `location` (nil for a local path): each key segment percent-encoded.
    public func url(for location: String?) -> String? {
        guard let location, case .s3(let bucket, let key)? = try? StorageLocation(parsing: location) else { return nil }
        let segments = key.split(separator: "/", omittingEmptySubsequences: false)
            .map { SignatureV4.percentEncoded(String($0), keepingSlashes: false) }
        return base.replacingOccurrences(of: "{bucket}", with: bucket) + "/" + segments.joined(separator: "/")
    }
}
