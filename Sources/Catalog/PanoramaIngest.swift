import Foundation
import Geodesy
import Imaging
import Storage
import Synchronization

/// Reads one panorama's metadata (JPEG headers, the sidecar, the names of its depth and label maps)
/// into a ``PanoramaRecord``, applying the fallbacks real cameras need. The image data is checked too
/// (a strict 1/8-scale decode; the maps' PNG chunks and CRCs), so damage past the headers is a failure.
///
/// - Heading: GPano `PoseHeadingDegrees`, else EXIF `GPSImgDirection`, else the sidecar's
///   `heading_degrees`, else ``defaultHeadingDegrees`` (0, north) with a warning.
/// - Capture time: EXIF `DateTimeOriginal` (read as UTC: EXIF 2.2 stores no zone), else the GPS time,
///   else the sidecar's `capture_time`, else the file's modification time, with a warning.
/// - Partial panoramas: GPano `FullPano*` and `CroppedArea*` give the full size and the image's place in it.
///   A JPEG without GPano is accepted as a full equirectangular panorama when it is 2:1 (with a warning).
/// - Source: the sidecar's `source`, else `simulated` when GPano `CaptureSoftware` or EXIF `Make` starts
///   with "lookaround", else `photo`.
enum PanoramaIngest {
    /// The heading assumed when a file records none, degrees.
    static let defaultHeadingDegrees = 0.0
    /// The warning of a panorama whose metadata gives no heading (until its sequence's travel replaces it).
    static let noHeadingWarning = "no heading (GPano PoseHeadingDegrees, EXIF GPSImgDirection or sidecar): "
        + "assumed \(Int(defaultHeadingDegrees))° (north)"

    /// One file's result. `cameraSerial` is EXIF BodySerialNumber (nil when the file has none, and for
    /// records reused from the previous catalog, which keep only what their sequence name says): the
    /// catalog does not store it; `CatalogBuilder` uses it to tell cameras of one model apart.
    enum Outcome: Sendable {
        case panorama(PanoramaRecord, explicitSequenceIndex: Int?, cameraSerial: String?)
        case failure(String)
        /// The object store could not be used (down, refusing the credentials): not this file's fault,
        /// so the index run stops rather than leave the file out of the catalog.
        case storageUnavailable(StorageError)
    }

    /// The size and modification time of a file (the incremental-update signature).
    static func signature(_ path: String, naming: CatalogNamingConvention) -> (size: Int64, modified: Double)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        var modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        var sidecarInfo = stat()
        if stat(naming.stem(ofImage: path) + naming.sidecarSuffix, &sidecarInfo) == 0 {
            modified = max(modified, Double(sidecarInfo.st_mtim.tv_sec) + Double(sidecarInfo.st_mtim.tv_nsec) / 1e9)
        }
        return (Int64(info.st_size), modified)
    }

    /// Whether a file or object exists (for depth and label maps; an object costs a HEAD).
    static func exists(_ path: String) -> Bool {
        if StorageLocation.isObjectStorage(path) { return (try? ObjectStorage.shared.exists(path)) ?? false }
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The headers of a JPEG file or object (for a record whose file is not read again).
    static func metadata(of path: String) -> ImageMetadataReadResult? {
        guard StorageLocation.isObjectStorage(path) else { return try? ImageMetadata.read(fromJPEGFile: path) }
        guard let head = try? ObjectStorage.shared.read(path, range: 0..<(256 << 10), caching: false) else { return nil }
        return try? ImageMetadata.read(fromJPEG: head, file: path)
    }

    /// The `sequence_index` of each sidecar (nil where it has none or cannot be read), read concurrently.
    static func sequenceIndexes(ofSidecars paths: [String]) -> [Int?] {
        let found = Mutex([Int?](repeating: nil, count: paths.count))
        ConcurrentRequests.forEach(paths.count) { k in
            let path = paths[k]
            let index: Int?
            if StorageLocation.isObjectStorage(path) {
                index = (try? ObjectStorage.shared.read(path, caching: false)).flatMap { try? PanoramaSidecar.parse($0, path: path).sequenceIndex }
            } else {
                index = try? PanoramaSidecar.read(path).sequenceIndex
            }
            found.withLock { $0[k] = index }
        }
        return found.withLock { $0 }
    }

    /// What a listing of object storage says of the files of an index run: each object's stamp (size,
    /// ETag, Last-Modified) by location. Existence is answered from it (no request per file), and the
    /// incremental check compares sizes and ETags.
    struct ObjectListing: Sendable {
        var stamps: [String: ObjectStamp]

        func exists(_ location: String) -> Bool { stamps[location] != nil }

        /// What an incremental index compares besides the size: the image's ETag, and its sidecar's after
        /// `;sidecar=` when it has one (a changed sidecar changes the record, as its newer modification
        /// time does for a local file).
        func signature(of location: String, naming: CatalogNamingConvention) -> String? {
            guard let image = stamps[location] else { return nil }
            let sidecar = stamps[naming.stem(ofImage: location) + naming.sidecarSuffix]
            return image.version + (sidecar.map { ";sidecar=\($0.version)" } ?? "")
        }

        /// The later of the image's and its sidecar's Last-Modified, seconds since 1970 (0 when unknown).
        func modified(of location: String, naming: CatalogNamingConvention) -> Double {
            let times = [stamps[location], stamps[naming.stem(ofImage: location) + naming.sidecarSuffix]]
                .compactMap { $0?.modified?.timeIntervalSince1970 }
            return times.max() ?? 0
        }
    }

    /// Reads `path`; `id` is the path-derived id, `folder` the folder name used for sequences. With a
    /// `listing`, `path` is an object in S3 (``readObject(_:id:folder:naming:listing:)``).
    static func read(path: String, id: String, folder: String, naming: CatalogNamingConvention,
                     listing: ObjectListing? = nil) -> Outcome {
        if let listing { return readObject(path, id: id, folder: folder, naming: naming, listing: listing) }
        guard let signature = signature(path, naming: naming) else { return .failure("cannot be read (no such file?)") }
        let result: ImageMetadataReadResult
        do {
            result = try ImageMetadata.read(fromJPEGFile: path)
        } catch {
            return .failure("not a readable JPEG: \(error)")
        }
        let stem = naming.stem(ofImage: path)
        let sidecarPath = stem + naming.sidecarSuffix
        var sidecar: PanoramaSidecar?
        if exists(sidecarPath) {
            do { sidecar = try PanoramaSidecar.read(sidecarPath) } catch let problem as PanoramaSidecar.Problem {
                return .failure(problem.message)
            } catch { return .failure("sidecar \(sidecarPath): \(error)") }
        }
        let depthPath = stem + naming.depthSuffix, labelsPath = stem + naming.labelsSuffix
        return record(path: path, id: id, folder: folder, naming: naming, result: result, sidecar: sidecar, sidecarPath: sidecarPath,
                      size: signature.size, modified: signature.modified, etag: nil,
                      depthPath: exists(depthPath) ? depthPath : nil, labelsPath: exists(labelsPath) ? labelsPath : nil,
                      checkImage: {
                          // Headers alone do not show damage further in: the scan is decoded (at 1/8 scale, strict), so a
                          // truncated or corrupt file is reported now, not rendered later as a grey view.
                          do {
                              _ = try JPEGCodec.decodeRGB(try ImageFile.read(path), file: nil,
                                                          options: JPEGDecodeOptions(scale: .eighth, strict: true))
                              return nil
                          } catch {
                              return "damaged image data: \(error)"
                          }
                      },
                      checkMap: { map in
                          do { try PNGCodec.verifyChunks(try ImageFile.read(map)); return nil } catch { return "\(error)" }
                      })
    }

    /// How many bytes of an object are read first for its headers (EXIF, GPano XMP, the frame header);
    /// four times more each time the headers run past them.
    static let objectHeaderBytes = 64 << 10

    /// Reads an object in S3: only its headers, by ranged `GET`s (``objectHeaderBytes``, more while the
    /// metadata runs longer), and its sidecar when the listing has one. Depth and label maps are found
    /// in the listing, not read. The image data past the headers is not read either: damage there shows
    /// at its first view (or `index --tiles`, which reads the whole object).
    static func readObject(_ location: String, id: String, folder: String, naming: CatalogNamingConvention,
                           listing: ObjectListing) -> Outcome {
        guard let stamp = listing.stamps[location] else { return .failure("not in the listing of its folder") }
        let storage = ObjectStorage.shared
        var result: ImageMetadataReadResult
        var length = min(stamp.size, objectHeaderBytes)
        do {
            while true {
                let head = try storage.read(location, range: 0..<length, caching: false)
                result = try ImageMetadata.read(fromJPEG: head, file: location)
                let endedEarly = result.warnings.contains { $0.contains("past the end") || $0.contains("before the first scan") }
                    || (result.pixelSize == nil && result.warnings.contains { $0.contains("no scan") })
                guard endedEarly, head.count < stamp.size else { break }
                length = min(stamp.size, length * 4)
            }
        } catch let error as StorageError {
            return error.isUnavailable ? .storageUnavailable(error) : .failure("cannot be read: \(error)")
        } catch {
            return .failure("not a readable JPEG: \(error)")
        }
        let stem = naming.stem(ofImage: location)
        let sidecarPath = stem + naming.sidecarSuffix
        var sidecar: PanoramaSidecar?
        if listing.exists(sidecarPath) {
            do { sidecar = try PanoramaSidecar.parse(try storage.read(sidecarPath, caching: false), path: sidecarPath) }
            catch let error as StorageError where error.isUnavailable { return .storageUnavailable(error) }
            catch let problem as PanoramaSidecar.Problem { return .failure(problem.message) }
            catch { return .failure("sidecar \(sidecarPath): \(error)") }
        }
        let depthPath = stem + naming.depthSuffix, labelsPath = stem + naming.labelsSuffix
        return record(path: location, id: id, folder: folder, naming: naming, result: result, sidecar: sidecar, sidecarPath: sidecarPath,
                      size: Int64(stamp.size), modified: listing.modified(of: location, naming: naming),
                      etag: listing.signature(of: location, naming: naming),
                      depthPath: listing.exists(depthPath) ? depthPath : nil, labelsPath: listing.exists(labelsPath) ? labelsPath : nil,
                      checkImage: { nil }, checkMap: { _ in nil })
    }

    /// The record of an image from its headers and sidecar, with the fallbacks real cameras need.
    /// `checkImage` reports damaged image data (nil when it decodes), `checkMap` a damaged depth or label map.
    private static func record(path: String, id: String, folder: String, naming: CatalogNamingConvention,
                               result: ImageMetadataReadResult, sidecar: PanoramaSidecar?, sidecarPath: String,
                               size fileSize: Int64, modified: Double, etag: String?, depthPath: String?, labelsPath: String?,
                               checkImage: () -> String?, checkMap: (String) -> String?) -> Outcome {
        let metadata = result.metadata
        var warnings = result.warnings

        guard let size = result.pixelSize else {
            return .failure("no frame header (SOF) before the first scan: the JPEG is damaged"
                            + (warnings.isEmpty ? "" : " (\(warnings.joined(separator: "; ")))"))
        }
        // Absurd sizes are refused before anything is allocated for them.
        guard size.width * size.height <= defaultPixelBudget else {
            return .failure("image is \(size.width)×\(size.height) = \(size.width * size.height) pixels, over the budget of "
                            + "\(defaultPixelBudget) pixels (256 Mpx)")
        }
        if let damage = checkImage() { return .failure(damage) }
        guard let latitude = metadata.latitudeDegrees ?? sidecar?.latitude,
              let longitude = metadata.longitudeDegrees ?? sidecar?.longitude else {
            return .failure("no position: no EXIF GPS and no sidecar \(FilePath.name(of: sidecarPath)) "
                            + "with latitude and longitude")
        }
        let coordinate: GeoCoordinate
        do {
            coordinate = try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
        } catch {
            return .failure("bad position: \(error)")
        }

        // Projection and crop.
        let pano = metadata.panorama
        if let projection = pano?.projectionType, projection.lowercased() != "equirectangular" {
            return .failure("GPano ProjectionType '\(projection)' is not supported; only equirectangular panoramas are indexed")
        }
        var fullWidth = pano?.fullPanoWidthPixels ?? size.width
        var fullHeight = pano?.fullPanoHeightPixels ?? size.height
        if pano == nil || pano?.fullPanoWidthPixels == nil {
            guard size.width == 2 * size.height else {
                return .failure("no GPano metadata and \(size.width)×\(size.height) is not 2:1; "
                                + "write GPano FullPano*/CroppedArea* or a sidecar for partial panoramas")
            }
            if pano == nil && sidecar == nil { warnings.append("no GPano XMP: assumed a full equirectangular panorama") }
            fullWidth = size.width
            fullHeight = size.height
        }
        var croppedLeft = pano?.croppedAreaLeftPixels ?? 0, croppedTop = pano?.croppedAreaTopPixels ?? 0
        if let pano, pano.fullPanoWidthPixels != nil {
            // A downscaled export whose GPano was not rewritten (a phone's 8704×4352 photosphere saved at
            // 1024×512): the GPano sizes describe another image. Scaled by the real size's ratio when the
            // aspect agrees; refused when it cannot be reconciled (rendered as is, every view was black).
            let declaredWidth = pano.croppedAreaImageWidthPixels ?? fullWidth
            let declaredHeight = pano.croppedAreaImageHeightPixels ?? fullHeight
            if declaredWidth != size.width || declaredHeight != size.height {
                guard declaredWidth > 0, declaredHeight > 0 else {
                    return .failure("GPano CroppedAreaImage \(declaredWidth)×\(declaredHeight) is empty; rewrite or remove the GPano fields")
                }
                let scaleX = Double(size.width) / Double(declaredWidth), scaleY = Double(size.height) / Double(declaredHeight)
                // Rounding a side to whole pixels moves the ratio by up to a pixel's worth.
                let tolerance = 1.0 / Double(min(size.width, size.height)) + 0.002
                guard abs(scaleX - scaleY) <= tolerance * max(scaleX, scaleY) else {
                    return .failure("GPano describes a \(declaredWidth)×\(declaredHeight) image but the file is "
                                    + "\(size.width)×\(size.height), of another aspect: it cannot be a scaled copy; rewrite the GPano "
                                    + "FullPano*/CroppedArea* fields (exiftool -XMP-GPano:…) or remove them")
                }
                let scale = scaleX
                let scaledWidth = max(size.width, Int((Double(fullWidth) * scale).rounded()))
                fullWidth = scaledWidth
                fullHeight = max(size.height, Int((Double(fullHeight) * scale).rounded()))
                croppedLeft = Int((Double(croppedLeft) * scale).rounded())
                croppedTop = min(fullHeight - size.height, Int((Double(croppedTop) * scale).rounded()))
                warnings.append("GPano describes a \(declaredWidth)×\(declaredHeight) image but the file is \(size.width)×\(size.height) "
                                + "(a copy scaled by \(String(format: "%.4g", scale))): its FullPano and CroppedArea values were scaled "
                                + "to match (full \(fullWidth)×\(fullHeight), crop at (\(croppedLeft), \(croppedTop)))")
            }
        }
        if croppedLeft + size.width > fullWidth * 2 || croppedTop + size.height > fullHeight {
            warnings.append("cropped area \(size.width)×\(size.height) at (\(croppedLeft), \(croppedTop)) "
                            + "lies outside the full panorama \(fullWidth)×\(fullHeight)")
        }

        // Heading.
        // The metadata's by the one policy (CaptureHeading); then a sidecar's; then the direction of travel
        // (CatalogBuilder, once sequences are known) or north.
        var heading: Double, headingSource: String
        let tagged = CaptureHeading(metadata)
        warnings += tagged.notes
        if let h = tagged.degrees, let source = tagged.source {
            (heading, headingSource) = (h, source)
        } else if let h = sidecar?.headingDegrees {
            (heading, headingSource) = (h, "sidecar")
        } else {
            (heading, headingSource) = (defaultHeadingDegrees, "default")
            warnings.append(noHeadingWarning)
        }
        guard heading.isFinite else { return .failure("heading \(heading) is not a number") }
        heading = Angle.normalizedHeadingDegrees(heading)

        // Capture time.
        var captureTime: Date, timeSource: String
        if let date = metadata.dateTimeOriginalDate {
            (captureTime, timeSource) = (date, "DateTimeOriginal")
        } else if let date = metadata.gpsTimestamp {
            (captureTime, timeSource) = (date, "GPSTimeStamp")
        } else if let date = sidecar?.parsedCaptureTime {
            (captureTime, timeSource) = (date, "sidecar")
        } else {
            (captureTime, timeSource) = (Date(timeIntervalSince1970: modified), "file time")
            warnings.append("no capture time (EXIF DateTimeOriginal, GPS time or sidecar): used the file's modification time")
        }
        if sidecar?.captureTime != nil && sidecar?.parsedCaptureTime == nil {
            warnings.append("sidecar capture_time '\(sidecar?.captureTime ?? "")' is not ISO 8601; ignored")
        }

        let software = (pano?.captureSoftware ?? "") + "|" + (metadata.make ?? "")
        let source = sidecar?.source
            ?? (software.lowercased().hasPrefix("lookaround") || (metadata.make ?? "").lowercased().hasPrefix("lookaround")
                ? .simulated : .photo)
        for (kind, map) in [("depth map", depthPath), ("label map", labelsPath)] {
            if let map, let damage = checkMap(map) { return .failure("\(kind) \(map) is damaged: \(damage)") }
        }
        let record = PanoramaRecord(
            id: sidecar?.id ?? id, coordinate: coordinate, captureTime: captureTime, headingDegrees: heading,
            imageWidth: size.width, imageHeight: size.height, imagePath: path,
            groundElevationMeters: sidecar?.groundElevationMeters, cameraHeightMeters: sidecar?.cameraHeightMeters,
            altitudeMeters: metadata.altitudeMeters ?? sidecar?.altitudeMeters,
            captureTimeSource: timeSource, headingSource: headingSource,
            pitchDegrees: pano?.posePitchDegrees ?? sidecar?.pitchDegrees ?? 0,
            rollDegrees: pano?.poseRollDegrees ?? sidecar?.rollDegrees ?? 0,
            fullWidth: fullWidth, fullHeight: fullHeight, croppedLeft: croppedLeft, croppedTop: croppedTop,
            depthPath: depthPath, labelsPath: labelsPath,
            sidecarPath: sidecar == nil ? nil : sidecarPath, source: source, make: metadata.make, model: metadata.model,
            sequenceName: sidecar?.sequenceId ?? AutomaticSequenceName.base(folder: folder, make: metadata.make, model: metadata.model),
            sequenceIndex: 0, fileSize: fileSize, fileModificationTime: modified, fileEntityTag: etag, warnings: warnings)
        return .panorama(record, explicitSequenceIndex: sidecar?.sequenceIndex, cameraSerial: metadata.bodySerialNumber)
    }
}

extension CatalogBuilder {
    /// What `lookaround index` would say of the photo at `path` (its metadata read, its image data
    /// checked at 1/8 scale): nil when it would be indexed, else the reason it would be listed as failed.
    /// The upload API runs it on each picture before keeping it.
    public static func problem(withPhotoAt path: String, naming: CatalogNamingConvention = .standard) -> String? {
        switch PanoramaIngest.read(path: path, id: "upload", folder: "upload", naming: naming) {
        case .panorama: nil
        case .failure(let reason): reason
        case .storageUnavailable(let error): "\(error)"
        }
    }
}
