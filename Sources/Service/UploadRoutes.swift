import Catalog
import Foundation
import Storage

/// Panoramax's upload API under `/api`, as geovisio answers it, so `panoramax_cli upload` (PyPI
/// `panoramax-cli` 1.4) sends photos to `lookaround serve` unchanged with `--api-url` and `--token`:
/// the instance's configuration, the token's account, upload sets (create, read, their files, send a
/// file, complete), and the deletion of an uploaded collection.
///
/// Uploads need a token from `--upload-key-file` (`Authorization: Bearer TOKEN`, 401 without one; 403
/// for every upload route when the server has no such file); reading an upload set and its files follows
/// the read rules (open unless `--api-key-file`), as `panoramax_cli download --upload-set` sends no token. A picture is bounded (`--max-upload-bytes`,
/// 413), a JPEG (415), passes the checks `lookaround index` makes (400 naming what is wrong), is blurred
/// unless lookaround already blurred it (see ``UploadSettings/servesUnblurred``), and is kept once (the
/// same file again is 409, naming the picture it is). Completing a set ingests it in the background as
/// `lookaround index` would (``UploadSetStore``); the set reads `ready` once its pictures are in the
/// catalog, and they are in scenes, tiles, STAC and the web page from then on.
struct UploadRoutes: RouteFamily {
    let catalog: Catalog
    let settings: UploadSettings?
    let store: UploadSetStore?

    /// Room for the multipart envelope and the form fields around the picture, bytes.
    static let envelopeBytes = 64 << 10

    var routes: [Route] {
        let uploadBody = (settings?.maximumUploadBytes ?? UploadSettings.defaultMaximumUploadBytes) + Self.envelopeBytes
        return [
            Route(.get, PathPattern("/api/configuration"), label: "panoramax_configuration", errors: .stac, parameters: [],
                  .answer { configuration($0) }),
            Route(.get, PathPattern("/api/users/me"), label: "panoramax_user", access: .upload, errors: .stac, parameters: [],
                  .answer { try user($0) }),
            Route(.post, PathPattern("/api/upload_sets"), label: "panoramax_upload_set_create", access: .upload, errors: .stac,
                  parameters: [], .answer { try createSet($0) }),
            Route(.get, PathPattern("/api/upload_sets/{id}", accepts: { Self.setID($0, suffix: "") != nil }),
                  label: "panoramax_upload_set", errors: .stac, parameters: [], .answer { try showSet($0) }),
            Route(.get, PathPattern("/api/upload_sets/{id}/files", accepts: { Self.setID($0, suffix: "/files") != nil }),
                  label: "panoramax_upload_set_files", errors: .stac, parameters: [], .answer { try files($0) }),
            Route(.post, PathPattern("/api/upload_sets/{id}/files", accepts: { Self.setID($0, suffix: "/files") != nil }),
                  label: "panoramax_upload_file", access: .upload, errors: .stac, parameters: [], maximumBodyBytes: uploadBody,
                  .worker { try receive($0) }),
            Route(.post, PathPattern("/api/upload_sets/{id}/complete", accepts: { Self.setID($0, suffix: "/complete") != nil }),
                  label: "panoramax_upload_set_complete", access: .upload, errors: .stac, parameters: [], .answer { try complete($0) }),
            Route(.delete, PathPattern("/api/collections/{id}", accepts: { STACRoutes.CollectionPath($0)?.kind == .collection }),
                  label: "panoramax_collection_delete", access: .upload, errors: .stac, parameters: [], .worker { try deleteCollection($0) }),
        ]
    }

    /// The set id in `/api/upload_sets/ID` + `suffix`: one path segment.
    static func setID(_ path: String, suffix: String) -> String? {
        guard path.hasPrefix("/api/upload_sets/"), path.hasSuffix(suffix) else { return nil }
        let id = path.dropFirst("/api/upload_sets/".count).dropLast(suffix.count)
        return !id.isEmpty && !id.contains("/") ? String(id) : nil
    }

    /// The token of `Authorization: Bearer TOKEN`.
    static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    // MARK: Instance and account

    func configuration(_ request: HTTPRequest) -> HTTPResponse {
        let rules = SequenceRules()
        // `auth.enabled` is geovisio's OAuth login, which this server has not: panoramax_cli then sends its
        // --token (checked at /api/users/me), or uploads without one and is answered 401.
        let upload: [String: Any] = ["enabled": settings != nil, "max_file_bytes": settings?.maximumUploadBytes ?? 0,
                                     "blurs_on_arrival": settings.map { !$0.servesUnblurred || $0.blurring != nil } ?? false]
        let defaults: [String: Any] = ["split_distance": 100, "split_time": 60, "duplicate_distance": rules.duplicateMeters,
                                       "duplicate_rotation": rules.duplicateDegrees, "collaborative_metadata": false]
        let auth: [String: Any] = ["enabled": false, "user_profile": ["url": NSNull()] as [String: Any], "enforce_tos_acceptance": false,
                                   "registration_is_open": false]
        return Self.json([
            "name": ["label": "lookaround", "langs": ["en": "lookaround"]] as [String: Any],
            "description": ["label": "Street imagery served by lookaround serve", "langs": [:] as [String: String]] as [String: Any],
            "auth": auth,
            "license": ["id": "proprietary", "url": NSNull()] as [String: Any],
            "version": "lookaround",
            "pages": [] as [String],
            "upload": upload,
            "defaults": defaults,
        ])
    }

    /// The account a token stands for: `lookaround-` and the start of its SHA-256, named by its line
    /// in the key file.
    func account(_ request: HTTPRequest) -> (id: String, name: String) {
        let token = Self.bearerToken(request) ?? ""
        let id = "lookaround-" + String(Digest.hex(Digest.sha256(token)).prefix(12))
        let line = (settings?.keys.firstIndex(of: token)).map { $0 + 1 } ?? 0
        return (id, "upload key \(line)")
    }

    func user(_ request: HTTPRequest) throws -> HTTPResponse {
        let (id, name) = account(request)
        let base = STACDocuments(request: request).base
        return Self.json(["id": id, "name": name, "links": [["rel": "collection", "type": "application/json",
                                                               "href": "\(base)/users/\(id)/collection"]]])
    }

    // MARK: Upload sets

    func requireStore() throws -> (UploadSetStore, UploadSettings) {
        guard let store, let settings else {
            throw ServiceError.uploadRefused(status: 403, code: "uploads_disabled", message: "this server takes no uploads: "
                                             + "start lookaround serve with --upload-key-file FILE (one token a line)", parameter: nil)
        }
        return (store, settings)
    }

    func createSet(_ request: HTTPRequest) throws -> HTTPResponse {
        let (store, _) = try requireStore()
        let body: [String: Any]
        if request.body.isEmpty {
            body = [:]
        } else {
            guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] else {
                throw ServiceError.invalidParameter(parameter: "body", message: "the body is not a JSON object; send "
                                                    + "{\"title\": \"…\"} with the upload set's settings")
            }
            body = object
        }
        func number(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
            guard let value = body[key], !(value is NSNull) else { return nil }
            guard let number = (value as? NSNumber)?.doubleValue ?? (value as? String).flatMap(Double.init), number.isFinite,
                  range.contains(number) else {
                throw ServiceError.invalidParameter(parameter: key, message: "\(key) '\(value)' is not a number in "
                                                    + "\(Self.format(range.lowerBound))…\(Self.format(range.upperBound))")
            }
            return number
        }
        func flag(_ key: String) -> Bool { (body[key] as? Bool) ?? ((body[key] as? String) == "true") }
        let title = (body["title"] as? String).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        guard !title.isEmpty, title.count <= 300 else {
            throw ServiceError.invalidParameter(parameter: "title", message: "title '\(title.prefix(40))' must be 1…300 characters; "
                                                + "name the upload set (panoramax_cli sends the folder's path)")
        }
        let sort = (body["sort_method"] as? String)?.replacingOccurrences(of: "-", with: "_") ?? "time_asc"
        guard sort == "time_asc" else {
            throw ServiceError.invalidParameter(parameter: "sort_method", message: "sort_method '\(sort)' is not supported: this "
                                                + "server orders every sequence by capture time (time-asc)")
        }
        let splitDistance = try number("split_distance", in: 0...100_000), splitTime = try number("split_time", in: 0...86_400 * 365)
        let duplicateDistance = try number("duplicate_distance", in: 0...100), duplicateRotation = try number("duplicate_rotation", in: 0...180)
        let estimated = try number("estimated_nb_files", in: 0...1_000_000).map { Int($0) }
        let defaults = SequenceRules()
        var rules = SequenceRules(splitSeconds: splitTime ?? 60, splitMeters: splitDistance ?? 100,
                                  duplicateMeters: duplicateDistance ?? defaults.duplicateMeters,
                                  duplicateDegrees: duplicateRotation ?? defaults.duplicateDegrees)
        if flag("no_split") { (rules.splitSeconds, rules.splitMeters) = (nil, nil) }
        // panoramax_cli removes near-duplicates itself and says so: the server then leaves them all.
        if flag("no_deduplication") { rules.duplicateMeters = 0 }
        let set = UploadSetStore.UploadSet(id: UUID().uuidString.lowercased(), title: title, createdAt: Self.now(),
                                           accountID: account(request).id, estimatedFiles: estimated, sortMethod: sort, rules: rules)
        try store.create(set)
        return Self.json(document(set, request: request))
    }

    func uploadSet(_ request: HTTPRequest, suffix: String) throws -> (UploadSetStore, UploadSettings, UploadSetStore.UploadSet) {
        let (store, settings) = try requireStore()
        let id = Self.setID(request.path, suffix: suffix) ?? ""
        guard let set = store.set(id) else { throw ServiceError.unknownResource(kind: "upload set", id: id) }
        return (store, settings, set)
    }

    func showSet(_ request: HTTPRequest) throws -> HTTPResponse {
        let (_, _, set) = try uploadSet(request, suffix: "")
        return Self.json(document(set, request: request))
    }

    func files(_ request: HTTPRequest) throws -> HTTPResponse {
        let (_, _, set) = try uploadSet(request, suffix: "/files")
        return Self.json(["upload_set_id": set.id,
                          "files": set.files.filter { $0.status != "deleted" }.map { fileDocument($0, set: set, request: request) }])
    }

    func complete(_ request: HTTPRequest) throws -> HTTPResponse {
        let (store, _, set) = try uploadSet(request, suffix: "/complete")
        return Self.json(document(try store.complete(set.id), request: request))
    }

    /// `POST /api/upload_sets/{id}/files`: the picture in the form field `file`, checked, blurred, kept.
    func receive(_ request: HTTPRequest) throws -> HTTPResponse {
        let (store, settings, set) = try uploadSet(request, suffix: "/files")
        guard !set.completed else {
            throw ServiceError.uploadRefused(status: 409, code: "upload_set_completed", message: "upload set \(set.id) is completed; "
                                             + "send further pictures in a new upload set", parameter: nil)
        }
        let form = try MultipartFormData(body: request.body, contentType: request.headers["content-type"])
        guard let part = form.part("file") else {
            throw ServiceError.invalidParameter(parameter: "file", message: "no form field 'file': send the picture as the "
                                                + "multipart/form-data field 'file'")
        }
        let size = part.range.count
        guard size <= settings.maximumUploadBytes else {
            throw ServiceError.uploadRefused(status: 413, code: "file_too_large", message: "the picture is \(size) bytes, over this "
                                             + "server's limit of \(settings.maximumUploadBytes) bytes (--max-upload-bytes)", parameter: "file")
        }
        let bytes = request.body[part.range]
        let name = (part.fileName ?? "picture.jpg").split(separator: "/").last.map(String.init) ?? "picture.jpg"
        guard bytes.count >= 3, bytes[bytes.startIndex] == 0xFF, bytes[bytes.startIndex + 1] == 0xD8, bytes[bytes.startIndex + 2] == 0xFF else {
            let kind = part.contentType.map { " (sent as \($0))" } ?? ""
            throw ServiceError.uploadRefused(status: 415, code: "unsupported_media_type", message: "'\(name)'\(kind) is not a JPEG "
                                             + "(it does not start with FF D8 FF); this server takes 360° and flat photos as JPEG only",
                                             parameter: "file")
        }
        if let override = form.parts.first(where: { $0.name.hasPrefix("override_") }) {
            throw ServiceError.invalidParameter(parameter: override.name, message: "\(override.name) is not supported: this server "
                                                + "reads a picture's position, time and direction from its EXIF and XMP only")
        }
        let isBlurred = form.text("isBlurred", in: request.body)?.lowercased() == "true"
        let md5 = UploadSetStore.md5(bytes)
        guard store.reserve(md5) else {
            let message = store.picture(withMD5: md5).map { "'\(name)' is already uploaded as picture \($0.file.pictureID) (upload set "
                + "\($0.set)); the same file twice is one picture" } ?? "'\(name)' is arriving now in another request; the same file "
                + "twice is one picture"
            throw ServiceError.uploadRefused(status: 409, code: "duplicate_file", message: message, parameter: "file")
        }
        defer { store.release(md5) }
        let pictureID = UUID().uuidString.lowercased()
        let temporary = store.incoming + "/" + pictureID + ".jpg"
        do { try UploadSetStore.writeAtomically(Data(bytes), to: temporary) } catch {
            throw ServiceError.internalError(detail: "cannot write \(temporary): \(error)")
        }
        var kept = false
        defer { if !kept { unlink(temporary) } }
        if let problem = CatalogBuilder.problem(withPhotoAt: temporary) {
            throw ServiceError.uploadRefused(status: 400, code: "invalid_picture", message: "'\(name)' cannot be indexed: \(problem)",
                                             parameter: "file")
        }
        var faces = 0, plates = 0
        let alreadyBlurred = settings.blurring?.isBlurred(temporary) ?? false
        if !alreadyBlurred && !(settings.servesUnblurred && (isBlurred || settings.blurring == nil)) {
            guard let blurring = settings.blurring else {
                throw ServiceError.uploadRefused(status: 503, code: "blurring_unavailable", message: "this server blurs every upload "
                                                 + "and cannot now", parameter: nil)
            }
            do {
                (faces, plates) = try blurring.blurInPlace(temporary)
            } catch {
                throw ServiceError.uploadRefused(status: 503, code: "blurring_unavailable", message: "'\(name)' could not be blurred "
                                                 + "(faces and licence plates), and this server publishes no unblurred photo: \(error)",
                                                 parameter: nil)
            }
        }
        let file = UploadSetStore.UploadedFile(pictureID: pictureID, fileName: name, md5: md5, size: bytes.count, insertedAt: Self.now(),
                                               blurredFaces: faces, blurredPlates: plates)
        try store.add(file, from: temporary, to: set.id)
        kept = true
        var response = Self.json(fileDocument(file, set: set, request: request), status: 202)
        response.headers.append(("Location", "\(STACDocuments(request: request).base)/upload_sets/\(set.id)/files"))
        return response
    }

    /// `DELETE /api/collections/{id}`: an uploaded sequence's pictures leave the catalog and the disk.
    func deleteCollection(_ request: HTTPRequest) throws -> HTTPResponse {
        let (store, _) = try requireStore()
        guard let path = STACRoutes.CollectionPath(request.path) else { throw ServiceError.notFound(path: request.path) }
        guard try catalog.sequence(named: path.collection) != nil else {
            throw ServiceError.unknownResource(kind: "collection", id: path.collection)
        }
        var records: [PanoramaRecord] = []
        var search = PanoramaSearch(sequences: [path.collection], limit: 10_000, after: -1, order: .sequenceIndex)
        while true {
            let page = try catalog.searchPanoramas(search)
            records += page.records
            guard let next = page.next else { break }
            search.after = next
        }
        guard !records.isEmpty, records.allSatisfy({ store.holds($0.imagePath) }) else {
            throw ServiceError.uploadRefused(status: 403, code: "not_uploaded", message: "collection '\(path.collection)' was not "
                                             + "uploaded: only uploaded collections can be deleted here (the others come from the folders "
                                             + "'lookaround index' reads)", parameter: nil)
        }
        try store.delete(pictureIDs: Set(records.map(\.id)))
        return HTTPResponse(status: 204, contentType: "application/json", body: [])
    }

    // MARK: Documents

    /// An upload set as geovisio writes it.
    func document(_ set: UploadSetStore.UploadSet, request: HTTPRequest) -> [String: Any] {
        let base = STACDocuments(request: request).base
        let live = set.files.filter { $0.status != "deleted" }
        let ingesting = set.state == "ingesting" || set.state == "queued"
        let ready = set.completed && set.state == "ingested"
        func count(_ status: String) -> Int { live.filter { $0.status == status }.count }
        let waiting = count("not_processed")
        let status: [String: Int] = ["prepared": count("prepared"), "broken": count("broken"), "rejected": count("rejected"),
                                     "preparing": ingesting ? waiting : 0, "not_processed": ingesting ? 0 : waiting]
        // The sequences its pictures are in now.
        var collections: [String: Int] = [:]
        for file in live where file.status == "prepared" {
            if let record = try? catalog.panorama(id: file.pictureID) { collections[record.sequenceName, default: 0] += 1 }
        }
        var document: [String: Any] = [
            "id": set.id, "title": set.title, "created_at": set.createdAt, "account_id": set.accountID,
            "completed": set.completed, "dispatched": ready, "ready": ready, "sort_method": set.sortMethod,
            "visibility": "anyone", "nb_items": live.count, "items_status": status,
            "associated_collections": collections.keys.sorted().map { name -> [String: Any] in
                ["id": name, "title": name, "nb_items": collections[name] ?? 0, "ready": true,
                 "items_status": ["prepared": collections[name] ?? 0, "preparing": 0, "broken": 0, "not_processed": 0],
                 "links": [["rel": "self", "type": "application/json", "href": STACDocuments(request: request).collectionURL(name)]]]
            },
            "links": [["rel": "self", "type": "application/json", "href": "\(base)/upload_sets/\(set.id)"],
                      ["rel": "files", "type": "application/json", "href": "\(base)/upload_sets/\(set.id)/files"]],
        ]
        document["estimated_nb_files"] = set.estimatedFiles ?? NSNull()
        document["split_distance"] = set.rules.splitMeters ?? NSNull()
        document["split_time"] = set.rules.splitSeconds ?? NSNull()
        document["duplicate_distance"] = set.rules.duplicateMeters
        document["duplicate_rotation"] = set.rules.duplicateDegrees
        return document
    }

    /// A file of a set as geovisio writes it (`rejected` only for the ones the index refused or left out).
    func fileDocument(_ file: UploadSetStore.UploadedFile, set: UploadSetStore.UploadSet, request: HTTPRequest) -> [String: Any] {
        let base = STACDocuments(request: request).base
        var document: [String: Any] = [
            "picture_id": file.pictureID, "file_name": file.fileName, "content_md5": file.md5, "size": file.size,
            "inserted_at": file.insertedAt, "upload_set_id": set.id, "file_type": "picture", "status": file.status,
            "blurred": ["faces": file.blurredFaces, "plates": file.blurredPlates],
            "links": [["rel": "parent", "type": "application/json", "href": "\(base)/upload_sets/\(set.id)"]],
        ]
        if file.status == "broken" || file.status == "rejected" {
            document["rejected"] = ["reason": file.status == "broken" ? "invalid_metadata" : "capture_duplicate",
                                    "severity": file.status == "broken" ? "error" : "info", "message": file.message ?? ""]
        }
        return document
    }

    static func json(_ object: [String: Any], status: Int = 200) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return .json(Array(data), status: status)
    }

    static func now() -> String { Catalog.iso8601String(Date()) }

    static func format(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
}
