import Diagnostics
import Foundation
import Storage
import Testing
import TestSupport

/// Where S3 is and who we are, resolved by the AWS conventions, and how locations are written.
@Suite struct ConfigurationTests {
    /// A home folder with the given `~/.aws/config` and `~/.aws/credentials`.
    static func home(config: String?, credentials: String?) throws -> String {
        let home = try Lookaround.temporaryDirectory().path
        try FileManager.default.createDirectory(atPath: home + "/.aws", withIntermediateDirectories: true)
        if let config { try config.write(toFile: home + "/.aws/config", atomically: true, encoding: .utf8) }
        if let credentials { try credentials.write(toFile: home + "/.aws/credentials", atomically: true, encoding: .utf8) }
        return home
    }

    @Test func theEnvironmentWinsOverTheFiles() throws {
        let home = try Self.home(config: "[default]\nregion = eu-north-1\nendpoint_url = http://files.example:9000\n",
                                 credentials: "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = filesecret\n")
        let fromFiles = try S3Configuration.resolve(environment: [:], home: home)
        #expect(fromFiles.endpoint == "http://files.example:9000" && fromFiles.region == "eu-north-1")
        #expect(fromFiles.credentials?.accessKeyID == "FILEKEY" && fromFiles.credentials?.secretAccessKey == "filesecret")
        #expect(fromFiles.style(for: "imagery") == .path, "a custom endpoint: path-style")

        let fromEnvironment = try S3Configuration.resolve(environment: [
            "AWS_ENDPOINT_URL": "http://general.example:1", "AWS_ENDPOINT_URL_S3": "https://S3.Example:8443/",
            "AWS_REGION": "ap-south-1", "AWS_DEFAULT_REGION": "us-west-2",
            "AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "envsecret", "AWS_SESSION_TOKEN": "token",
        ], home: home)
        #expect(fromEnvironment.endpoint == "https://s3.example:8443", "AWS_ENDPOINT_URL_S3 first, normalised")
        #expect(fromEnvironment.region == "ap-south-1")
        #expect(fromEnvironment.credentials == S3Credentials(accessKeyID: "ENVKEY", secretAccessKey: "envsecret", sessionToken: "token",
                                                               source: "the environment (AWS_ACCESS_KEY_ID)"))
        let general = try S3Configuration.resolve(environment: ["AWS_ENDPOINT_URL": "http://general.example:1", "AWS_DEFAULT_REGION": "us-west-2"], home: home)
        #expect(general.endpoint == "http://general.example:1" && general.region == "us-west-2")
        let ignored = try S3Configuration.resolve(environment: ["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true",
                                                                "AWS_ENDPOINT_URL": "http://general.example:1"], home: home)
        #expect(ignored.endpoint == "https://s3.eu-north-1.amazonaws.com" && !ignored.isCustomEndpoint)
        #expect(ignored.style(for: "imagery") == .virtual && ignored.style(for: "my.dotted.bucket") == .path)
        #expect(ignored.base(for: "imagery").host == "imagery.s3.eu-north-1.amazonaws.com")
    }

    @Test func profilesNestedS3SectionsAndTheConfigFileCredentials() throws {
        let config = """
            # comments and blank lines

            [default]
            region = us-east-1

            [profile seaweed]
            region = eu-west-1
            max_attempts = 7
            s3 =
                endpoint_url = http://127.0.0.1:8333
                addressing_style = virtual
            aws_access_key_id = CONFIGKEY
            aws_secret_access_key = config#secret ; not a comment
            """
        let home = try Self.home(config: config, credentials: "[other]\naws_access_key_id = X\naws_secret_access_key = Y\n")
        let resolved = try S3Configuration.resolve(environment: ["AWS_PROFILE": "seaweed"], home: home)
        #expect(resolved.endpoint == "http://127.0.0.1:8333" && resolved.region == "eu-west-1" && resolved.maximumAttempts == 7)
        #expect(resolved.style(for: "imagery") == .virtual)
        #expect(resolved.credentials?.accessKeyID == "CONFIGKEY")
        #expect(resolved.credentials?.secretAccessKey == "config#secret", "an inline comment needs a space before it")
        #expect(resolved.credentials?.source.contains("[profile seaweed]") == true)

        let none = try S3Configuration.resolve(environment: [:], home: home)
        #expect(none.credentials == nil && none.credentialSearch.contains("[default]"), "\(none.credentialSearch)")
        let files = try S3Configuration.resolve(environment: ["AWS_CONFIG_FILE": home + "/.aws/config", "AWS_SHARED_CREDENTIALS_FILE": home + "/.aws/credentials",
                                                              "AWS_PROFILE": "other"], home: "/nonexistent")
        #expect(files.credentials?.accessKeyID == "X")
    }

    @Test func malformedSettingsAreNamed() throws {
        let home = try Self.home(config: nil, credentials: nil)
        #expect(throws: StorageError.invalidConfiguration(name: "AWS_SECRET_ACCESS_KEY", value: "", allowed: "set it too: AWS_ACCESS_KEY_ID is set")) {
            try S3Configuration.resolve(environment: ["AWS_ACCESS_KEY_ID": "K"], home: home)
        }
        for bad in ["127.0.0.1:8333", "ftp://x", "http://host/path", "http://user@host"] {
            do {
                _ = try S3Configuration.resolve(environment: ["AWS_ENDPOINT_URL": bad], home: home)
                Issue.record("\(bad) accepted")
            } catch {
                #expect(error.description.contains(bad) && error.description.contains("http://"), "\(error)")
                #expect(error.category == .usage)
            }
        }
        #expect(throws: StorageError.self) { try S3Configuration.resolve(environment: ["AWS_MAX_ATTEMPTS": "0"], home: home) }
        #expect(throws: StorageError.self) { try S3Configuration.resolve(environment: ["LOOKAROUND_S3_ADDRESSING_STYLE": "dns"], home: home) }
    }

    @Test func locationsAreS3URLsOrPaths() throws {
        #expect(try StorageLocation(parsing: "s3://imagery/helsinki/pano.jpg") == .s3(bucket: "imagery", key: "helsinki/pano.jpg"))
        #expect(try StorageLocation(parsing: "S3://imagery") == .s3(bucket: "imagery", key: ""))
        #expect(try StorageLocation(parsing: "s3://imagery/") == .s3(bucket: "imagery", key: ""))
        #expect(try StorageLocation(parsing: "Panoramas/helsinki") == .file(path: "Panoramas/helsinki"))
        #expect(try StorageLocation(parsing: "s3://imagery/Panoramas").appending("helsinki/a.jpg").description == "s3://imagery/Panoramas/helsinki/a.jpg")
        #expect(try StorageLocation(parsing: "s3://imagery").appending("a.jpg").description == "s3://imagery/a.jpg")
        #expect(StorageLocation.joining("s3://imagery/out/", "x.png") == "s3://imagery/out/x.png")
        #expect(StorageLocation.joining("out", "x.png") == "out/x.png")
        #expect(try StorageLocation(parsing: "s3://imagery/a/b.jpg").name == "b.jpg")
        for (bad, says) in [("s3://", "no bucket"), ("s3://Im", "bucket 'Im'"), ("s3://-bad-/x", "bucket '-bad-'"), ("s3:/imagery", "two slashes"),
                            ("s3a://imagery/x", "only s3://"), ("gs://imagery/x", "only s3://"), ("", "empty")] {
            do {
                _ = try StorageLocation(parsing: bad)
                Issue.record("\(bad) accepted")
            } catch {
                #expect(error.description.contains(says), "\(bad): \(error)")
                #expect(error.category == .usage)
            }
        }
    }
}
