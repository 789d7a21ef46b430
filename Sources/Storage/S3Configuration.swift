import Foundation

/// An access key pair (and a session token for temporary credentials).
public struct S3Credentials: Sendable, Hashable, CustomStringConvertible {
    /// `AWS_ACCESS_KEY_ID`.
    public var accessKeyID: String
    /// `AWS_SECRET_ACCESS_KEY` (never printed).
    public var secretAccessKey: String
    /// `AWS_SESSION_TOKEN`, for temporary credentials.
    public var sessionToken: String?
    /// Where they came from (`environment`, `~/.aws/credentials [default]`, …), for messages.
    public var source: String

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, source: String = "given") {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.source = source
    }

    /// The access key and the source; never the secret.
    public var description: String { "access key \(accessKeyID) from \(source)" }
}

/// How a bucket appears in request URLs.
public enum S3AddressingStyle: String, Sendable, Hashable {
    /// `https://ENDPOINT/BUCKET/KEY`: any bucket name, any server (MinIO, SeaweedFS, Ceph RGW).
    case path
    /// `https://BUCKET.ENDPOINT/KEY`: what AWS prefers (needs DNS for every bucket name).
    case virtual
}

/// Where S3 is and how to talk to it, resolved as the AWS CLI and SDKs resolve it (so one set of
/// settings serves `aws`, boto3 and `lookaround` alike):
///
/// - **Endpoint**: `AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL`, else `endpoint_url` in the profile's
///   `s3 =` section or the profile itself in `~/.aws/config` (unless `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS`
///   is `true`), else AWS's `https://s3.REGION.amazonaws.com`.
/// - **Region**: `AWS_REGION`, else `AWS_DEFAULT_REGION`, else `region` in the profile, else `us-east-1`.
/// - **Credentials**: `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`), else the
///   profile in `~/.aws/credentials` (`AWS_SHARED_CREDENTIALS_FILE`), else the profile in `~/.aws/config`
///   (`AWS_CONFIG_FILE`). The profile is `AWS_PROFILE`, else `default` (`[default]` in both files,
///   `[profile NAME]` for others in the config file).
/// - **Addressing**: `addressing_style = path | virtual | auto` in the profile's `s3 =` section (or
///   `LOOKAROUND_S3_ADDRESSING_STYLE`); `auto` (the default) is path-style for any endpoint but AWS's and for
///   bucket names with dots or capitals, virtual-host style for AWS.
/// - **Retries**: `AWS_MAX_ATTEMPTS` or `max_attempts` (1…20, default 4); **TLS**: `AWS_CA_BUNDLE` or `ca_bundle`.
public struct S3Configuration: Sendable, Hashable {
    /// `scheme://host[:port]` requests go to (no path).
    public var endpoint: String
    /// Whether the endpoint is not AWS's own (`AWS_ENDPOINT_URL` or the config named it).
    public var isCustomEndpoint: Bool
    /// The region requests are signed for.
    public var region: String
    /// The credentials; nil when none were found (requests then fail with `missingCredentials`).
    public var credentials: S3Credentials?
    /// Where the credentials were looked for (for the message when there are none).
    public var credentialSearch: String
    /// `path`, `virtual` or nil for automatic.
    public var addressingStyle: S3AddressingStyle?
    /// Attempts per request for retryable failures (1 = no retry).
    public var maximumAttempts: Int
    /// A CA bundle for TLS (nil: the system's).
    public var caBundle: String?

    public init(endpoint: String, region: String = "us-east-1", credentials: S3Credentials?, addressingStyle: S3AddressingStyle? = nil,
                maximumAttempts: Int = 4, caBundle: String? = nil) throws(StorageError) {
        self.endpoint = try Self.normalizedEndpoint(endpoint, name: "endpoint")
        self.isCustomEndpoint = !Self.isAWSEndpoint(self.endpoint)
        self.region = region
        self.credentials = credentials
        self.credentialSearch = credentials == nil ? "nowhere (none given)" : credentials!.source
        self.addressingStyle = addressingStyle
        self.maximumAttempts = maximumAttempts
        self.caBundle = caBundle
    }

    /// The configuration from `environment` and the AWS files under `home` (see the type's summary).
    /// - Throws: `StorageError.invalidConfiguration` for a malformed endpoint, style or attempt count,
    ///   or only one half of the access key pair in the environment.
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment,
                               home: String? = nil) throws(StorageError) -> S3Configuration {
        func variable(_ name: String) -> String? {
            guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        let home = home ?? variable("HOME") ?? NSHomeDirectory()
        let profileName = variable("AWS_PROFILE") ?? variable("AWS_DEFAULT_PROFILE") ?? "default"
        let configPath = variable("AWS_CONFIG_FILE") ?? home + "/.aws/config"
        let credentialsPath = variable("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials"
        let config = AWSConfigFile(path: configPath)
        let credentialsFile = AWSConfigFile(path: credentialsPath)
        let profile = config.section(profileName == "default" ? "default" : "profile \(profileName)")
            ?? (profileName == "default" ? config.section("profile default") : nil) ?? AWSConfigFile.Section()
        let s3Section = profile.subsections["s3"] ?? [:]
        let services = profile.values["services"].flatMap { config.section("services \($0)")?.subsections["s3"] } ?? [:]

        let region = variable("AWS_REGION") ?? variable("AWS_DEFAULT_REGION") ?? profile.values["region"] ?? "us-east-1"
        let ignoreConfigured = variable("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")?.lowercased() == "true"
        var endpoint: String, endpointName: String
        if !ignoreConfigured, let value = variable("AWS_ENDPOINT_URL_S3") {
            (endpoint, endpointName) = (value, "AWS_ENDPOINT_URL_S3")
        } else if !ignoreConfigured, let value = variable("AWS_ENDPOINT_URL") {
            (endpoint, endpointName) = (value, "AWS_ENDPOINT_URL")
        } else if !ignoreConfigured, let value = services["endpoint_url"] ?? s3Section["endpoint_url"] ?? profile.values["endpoint_url"] {
            (endpoint, endpointName) = (value, "endpoint_url in \(configPath)")
        } else {
            (endpoint, endpointName) = (region == "us-east-1" ? "https://s3.amazonaws.com" : "https://s3.\(region).amazonaws.com", "the AWS endpoint")
        }
        endpoint = try normalizedEndpoint(endpoint, name: endpointName)

        var credentials: S3Credentials?
        var searched: [String] = []
        let accessKey = variable("AWS_ACCESS_KEY_ID"), secret = variable("AWS_SECRET_ACCESS_KEY")
        searched.append("AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY")
        switch (accessKey, secret) {
        case let (key?, secret?):
            credentials = S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: variable("AWS_SESSION_TOKEN"),
                                        source: "the environment (AWS_ACCESS_KEY_ID)")
        case (_?, nil):
            throw .invalidConfiguration(name: "AWS_SECRET_ACCESS_KEY", value: "", allowed: "set it too: AWS_ACCESS_KEY_ID is set")
        case (nil, _?):
            throw .invalidConfiguration(name: "AWS_ACCESS_KEY_ID", value: "", allowed: "set it too: AWS_SECRET_ACCESS_KEY is set")
        case (nil, nil):
            let sections: [(AWSConfigFile, String, String)] = [
                (credentialsFile, profileName, "[\(profileName)] of \(credentialsPath)"),
                (config, profileName == "default" ? "default" : "profile \(profileName)", "[\(profileName == "default" ? "default" : "profile \(profileName)")] of \(configPath)"),
            ]
            for (file, name, label) in sections {
                searched.append(label)
                guard let section = file.section(name) else { continue }
                if let key = section.values["aws_access_key_id"], let secret = section.values["aws_secret_access_key"] {
                    credentials = S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: section.values["aws_session_token"],
                                                source: label)
                    break
                }
            }
        }

        let styleText = variable("LOOKAROUND_S3_ADDRESSING_STYLE") ?? services["addressing_style"] ?? s3Section["addressing_style"] ?? "auto"
        let style: S3AddressingStyle?
        switch styleText.lowercased() {
        case "path": style = .path
        case "virtual": style = .virtual
        case "auto": style = nil
        default: throw .invalidConfiguration(name: "addressing_style", value: styleText, allowed: "path, virtual or auto")
        }
        let attemptsText = variable("AWS_MAX_ATTEMPTS") ?? profile.values["max_attempts"] ?? "4"
        guard let attempts = Int(attemptsText), (1...20).contains(attempts) else {
            throw .invalidConfiguration(name: "AWS_MAX_ATTEMPTS", value: attemptsText, allowed: "a whole number of attempts, 1…20")
        }
        var configuration = try S3Configuration(endpoint: endpoint, region: region, credentials: credentials, addressingStyle: style,
                                                maximumAttempts: attempts,
                                                caBundle: variable("AWS_CA_BUNDLE") ?? profile.values["ca_bundle"])
        configuration.credentialSearch = searched.joined(separator: ", ")
        return configuration
    }

    /// `scheme://host[:port]` of a URL (a trailing slash dropped).
    /// - Throws: `StorageError.invalidConfiguration` for anything but an http(s) URL with a host and no path.
    static func normalizedEndpoint(_ text: String, name: String) throws(StorageError) -> String {
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        let lower = trimmed.lowercased()
        let allowed = "an http:// or https:// URL of the S3 server, e.g. http://127.0.0.1:8333 or https://s3.eu-north-1.amazonaws.com"
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw .invalidConfiguration(name: name, value: text, allowed: allowed)
        }
        let rest = trimmed[trimmed.range(of: "://")!.upperBound...]
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("@"), !rest.contains(" ") else {
            throw .invalidConfiguration(name: name, value: text, allowed: allowed + " (no path, query or user in it)")
        }
        return lower.hasPrefix("https://") ? "https://" + rest.lowercased() : "http://" + rest.lowercased()
    }

    static func isAWSEndpoint(_ endpoint: String) -> Bool {
        let host = endpoint.split(separator: "/").last.map(String.init) ?? ""
        return host.hasSuffix(".amazonaws.com") || host.hasSuffix(".amazonaws.com.cn")
    }

    /// The style used for `bucket`: the configured one, else virtual-host for AWS endpoints and
    /// DNS-friendly names without dots, path-style otherwise.
    public func style(for bucket: String) -> S3AddressingStyle {
        if let addressingStyle { return addressingStyle }
        let dnsFriendly = !bucket.contains(".") && !bucket.contains("_")
        return !isCustomEndpoint && dnsFriendly ? .virtual : .path
    }

    /// The scheme, host and port requests for `bucket` go to, and the path prefix of its keys.
    public func base(for bucket: String) -> (origin: String, host: String, pathPrefix: String) {
        let scheme = endpoint.hasPrefix("https://") ? "https://" : "http://"
        let authority = String(endpoint.dropFirst(scheme.count))
        switch style(for: bucket) {
        case .path: return (endpoint, authority, "/\(bucket)")
        case .virtual: return (scheme + bucket + "." + authority, bucket + "." + authority, "")
        }
    }
}

/// An AWS CLI config or credentials file: `[section]` headers, `name = value` lines, and nested
/// sections (`s3 =` followed by indented `name = value` lines). Comments start with `#` or `;`.
struct AWSConfigFile {
    struct Section {
        var values: [String: String] = [:]
        var subsections: [String: [String: String]] = [:]
    }

    var sections: [String: Section] = [:]

    init(path: String) {
        self.init(text: FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "")
    }

    init(text: String) {
        var current: String?, nested: String?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = String(rawLine)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
                let name = trimmed.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                    .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                current = name
                nested = nil
                if sections[name] == nil { sections[name] = Section() }
                continue
            }
            guard let section = current, let equals = trimmed.firstIndex(of: "=") else { continue }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            // An inline comment needs whitespace before it (a secret may hold '#').
            if let comment = value.range(of: " #") ?? value.range(of: " ;") { value = value[..<comment.lowerBound].trimmingCharacters(in: .whitespaces) }
            let indented = line.first == " " || line.first == "\t"
            if indented, let parent = nested {
                sections[section]!.subsections[parent, default: [:]][name] = value
            } else if value.isEmpty {
                nested = name
                sections[section]!.subsections[name] = sections[section]!.subsections[name] ?? [:]
            } else {
                nested = nil
                sections[section]!.values[name] = value
            }
        }
    }

    func section(_ name: String) -> Section? { sections[name] }
}
