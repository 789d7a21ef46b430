import ArgumentParsing
import Foundation
import Imaging
import Storage
import Synchronization

/// `lookaround storage …`: object storage from the command line, with the same settings (the AWS
/// variables and files) as every command that reads `s3://` locations: copy panoramas into a bucket,
/// list it, check the credentials, clean up.
enum StorageCommands: CommandGroup {
    static let name = "storage"
    static let abstract = "Object storage (s3://BUCKET/PREFIX): check the settings, make buckets, copy, list, remove."
    static var commands: [any Command.Type] {
        [StorageCheckCommand.self, StorageMakeBucketCommand.self, StorageCopyCommand.self, StorageListCommand.self,
         StorageRemoveCommand.self]
    }

    /// The bucket and key of an `s3://` argument (a usage error otherwise).
    static func s3(_ text: String, arguments: ParsedArguments) throws -> (bucket: String, key: String) {
        guard case .s3(let bucket, let key) = try StorageLocation(parsing: text) else {
            throw arguments.error("'\(text)' is not s3://BUCKET[/PREFIX]")
        }
        return (bucket, key)
    }

    static let settingsHelp = "Endpoint, region and credentials as the AWS CLI reads them: AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3), "
        + "AWS_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN, AWS_PROFILE, else the profile of "
        + "~/.aws/credentials and ~/.aws/config (AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE). See README, 'Imagery on object storage'."
}

enum StorageCheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Print the S3 settings in effect and check that a bucket answers with them.",
        discussion: "Prints the endpoint, region, addressing style and where the credentials come from (the access key, "
            + "never the secret), then asks the bucket (HEAD). A refusal is named with S3's code "
            + "(SignatureDoesNotMatch: the secret is wrong; InvalidAccessKeyId; AccessDenied; NoSuchBucket); exit 69 when "
            + "the store cannot be used, 66 when the bucket does not exist. " + StorageCommands.settingsHelp,
        options: [.flag("json", help: "Print the settings and the outcome as JSON.")],
        positionals: [PositionalSpec("BUCKET", help: "s3://BUCKET to check (without it, the settings only).", optional: true)],
        examples: [(command: "lookaround storage check s3://imagery", comment: "can this machine read the bucket?")])

    struct Report: Encodable {
        var endpoint: String
        var region: String
        var addressingStyle: String
        var credentials: String?
        var bucket: String?
        var status: String?
        var error: String?
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let client = try ObjectStorage.shared.client()
        let configuration = client.configuration
        var report = Report(endpoint: configuration.endpoint, region: configuration.region,
                            addressingStyle: configuration.addressingStyle?.rawValue ?? "auto",
                            credentials: configuration.credentials?.description)
        var failure: StorageError?
        if let text = arguments.positionals.first {
            let (bucket, _) = try StorageCommands.s3(text, arguments: arguments)
            report.bucket = bucket
            report.addressingStyle = configuration.style(for: bucket).rawValue + (configuration.addressingStyle == nil ? " (auto)" : "")
            failure = ObjectStorage.shared.problem(withBucket: bucket, timeoutSeconds: 10)
            report.status = failure == nil ? "ok" : "failed"
            report.error = failure?.description
        }
        if arguments.flag("json") {
            try Console.json(report)
        } else {
            Console.out("endpoint     \(report.endpoint)")
            Console.out("region       \(report.region)")
            Console.out("addressing   \(report.addressingStyle)")
            Console.out("credentials  \(report.credentials ?? "none (looked in \(configuration.credentialSearch))")")
            if let bucket = report.bucket { Console.out("bucket       s3://\(bucket): \(failure == nil ? "ok" : "FAILED")") }
        }
        if let failure {
            Console.error("error: \(failure)")
            return .failed(failure.category)
        }
        return .ok
    }
}

enum StorageMakeBucketCommand: Command {
    static let spec = CommandSpec(
        name: "mb",
        abstract: "Create a bucket (one that exists already and is yours is fine).",
        discussion: StorageCommands.settingsHelp,
        options: [],
        positionals: [PositionalSpec("BUCKET", help: "s3://BUCKET")],
        examples: [(command: "lookaround storage mb s3://imagery", comment: "a bucket for the panoramas")])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        guard let text = arguments.positionals.first else { throw arguments.error("missing s3://BUCKET") }
        let (bucket, key) = try StorageCommands.s3(text, arguments: arguments)
        guard key.isEmpty else { throw arguments.error("'\(text)' names a key; a bucket is s3://BUCKET") }
        try ObjectStorage.shared.client().createBucket(bucket)
        Console.out("s3://\(bucket)")
        return .ok
    }
}

enum StorageCopyCommand: Command {
    static let spec = CommandSpec(
        name: "cp",
        abstract: "Copy files or objects between folders and s3://BUCKET/PREFIX (either way, or bucket to bucket).",
        discussion: """
            A file is copied to DESTINATION, or into it when DESTINATION ends with '/'. With --recursive, SOURCE is \
            a folder (or prefix) and everything under it is copied below DESTINATION, keeping relative paths, \
            several at once. Objects are written whole or not at all: one PUT, or a multipart upload in 8 MiB parts \
            for objects over 16 MiB that appears under its key only when complete (a copy killed half-way leaves \
            no object; 'storage rm --uploads' removes its parts). Local files are written to a temporary name and \
            renamed.
            """ + " " + StorageCommands.settingsHelp,
        options: [.flag("recursive", short: "r", help: "Copy a whole folder or prefix."),
                  CommonOptions.quiet],
        positionals: [PositionalSpec("SOURCE", help: "A file, folder, or s3:// location."),
                      PositionalSpec("DESTINATION", help: "A file, folder, or s3:// location.")],
        examples: [(command: "lookaround storage cp -r Panoramas/helsinki s3://imagery/helsinki", comment: "the shipped panoramas into a bucket"),
                   (command: "lookaround storage cp s3://imagery/helsinki/senaatintori-005.jpg .", comment: "one object to this folder")])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        guard arguments.positionals.count == 2 else { throw arguments.error("give SOURCE and DESTINATION") }
        let source = arguments.positionals[0], destination = arguments.positionals[1]
        for location in [source, destination] { _ = try StorageLocation(parsing: location) }
        let storage = ObjectStorage.shared
        var items: [(from: String, to: String, size: Int)] = []
        if arguments.flag("recursive") {
            for object in try storage.list(source) where !FilePath.name(of: object.relativePath).hasPrefix(".") {
                items.append((object.location, StorageLocation.joining(destination, object.relativePath), object.stamp.size))
            }
            guard !items.isEmpty else { throw StorageError.notFound(location: source) }
        } else {
            let stamp = try storage.stamp(source)
            var target = destination
            var isFolder: ObjCBool = false
            if destination.hasSuffix("/") || (!StorageLocation.isObjectStorage(destination)
                                              && FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder) && isFolder.boolValue) {
                target = StorageLocation.joining(destination, try StorageLocation(parsing: source).name)
            }
            items.append((source, target, stamp.size))
        }
        let copies = items
        let progress = ProgressDisplay(label: "storage cp", unit: "files", quiet: arguments.flag("quiet") || items.count == 1)
        let failures = Mutex<[(message: String, code: CommandOutcome)]>([])
        let done = Mutex(0)
        // Several at once (each mostly waits on the network); a large object is itself sent in parallel parts.
        ConcurrentRequests.forEach(copies.count, concurrency: 8) { k in
            let item = copies[k]
            do {
                if !StorageLocation.isObjectStorage(item.from) {
                    try storage.upload(file: item.from, to: item.to)
                } else {
                    try storage.write(try storage.read(item.from, caching: false), to: item.to)
                }
            } catch {
                let (code, message) = describe(error)
                failures.withLock { $0.append(("\(item.from): \(message)", code)) }
            }
            let count = done.withLock { n in n += 1; return n }
            progress.update(done: count, total: copies.count, item: FilePath.name(of: item.to))
        }
        let failed = failures.withLock { $0 }
        for failure in failed { Console.error("error: \(failure.message)") }
        if !arguments.flag("quiet") {
            let bytes = items.reduce(0) { $0 + $1.size }
            Console.out("copied \(items.count - failed.count) of \(items.count) (\(bytes) bytes) to \(destination)")
        }
        // The first failure's kind decides the exit code (a refused credential, a missing bucket …).
        if let first = failed.first { return first.code }
        return .ok
    }
}

enum StorageListCommand: Command {
    static let spec = CommandSpec(
        name: "ls",
        abstract: "List the objects (or files) under a location, with their sizes and ETags.",
        discussion: "Every object whose key starts with PREFIX/, following continuation tokens. With --uploads, the "
            + "incomplete multipart uploads instead (a killed copy's parts; they are no objects). " + StorageCommands.settingsHelp,
        options: [.flag("uploads", help: "List incomplete multipart uploads under the prefix."),
                  .flag("json", help: "One JSON object per line (JSON Lines): path, size, version.")],
        positionals: [PositionalSpec("LOCATION", help: "s3://BUCKET[/PREFIX] or a folder.")],
        examples: [(command: "lookaround storage ls s3://imagery/helsinki", comment: "what was copied")])

    struct Entry: Encodable { var path: String; var size: Int; var version: String }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        guard let location = arguments.positionals.first else { throw arguments.error("missing LOCATION") }
        if arguments.flag("uploads") {
            let (bucket, key) = try StorageCommands.s3(location, arguments: arguments)
            for upload in try ObjectStorage.shared.client().incompleteUploads(bucket: bucket, prefix: key) {
                let started = upload.initiated.map { ISO8601DateFormatter().string(from: $0) } ?? "?"
                Console.out("\(started)  s3://\(bucket)/\(upload.key)  upload \(upload.uploadID)")
            }
            return .ok
        }
        for object in try ObjectStorage.shared.list(location) {
            if arguments.flag("json") {
                try Console.out(Console.jsonLine(Entry(path: object.relativePath, size: object.stamp.size, version: object.stamp.version)))
            } else {
                Console.out(String(format: "%12d  ", object.stamp.size) + object.relativePath)
            }
        }
        return .ok
    }
}

enum StorageRemoveCommand: Command {
    static let spec = CommandSpec(
        name: "rm",
        abstract: "Remove an object or file, or everything under a prefix with --recursive.",
        discussion: "With --uploads, aborts the incomplete multipart uploads under the prefix instead (their parts are "
            + "deleted; no object is touched). " + StorageCommands.settingsHelp,
        options: [.flag("recursive", short: "r", help: "Remove everything under the location."),
                  .flag("uploads", help: "Abort incomplete multipart uploads under the prefix."),
                  CommonOptions.quiet],
        positionals: [PositionalSpec("LOCATION", help: "s3://BUCKET/KEY or a path.")],
        examples: [(command: "lookaround storage rm -r s3://imagery/old", comment: "a prefix and everything under it")])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        guard let location = arguments.positionals.first else { throw arguments.error("missing LOCATION") }
        let storage = ObjectStorage.shared
        if arguments.flag("uploads") {
            let (bucket, key) = try StorageCommands.s3(location, arguments: arguments)
            let client = try storage.client()
            let uploads = try client.incompleteUploads(bucket: bucket, prefix: key)
            for upload in uploads { try client.abortUpload(bucket: bucket, key: upload.key, uploadID: upload.uploadID) }
            if !arguments.flag("quiet") { Console.out("aborted \(uploads.count) incomplete uploads under \(location)") }
            return .ok
        }
        var targets = [location]
        if arguments.flag("recursive") { targets = try storage.list(location).map(\.location) }
        for target in targets { try storage.delete(target) }
        if !arguments.flag("quiet") { Console.out("removed \(targets.count)") }
        return .ok
    }
}
