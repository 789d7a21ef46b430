import Foundation
import Geodesy
import Imaging

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

    /// Whether a file exists (for depth and label maps).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Reads `path`; `id` is the path-derived id, `folder` the folder name used for sequences.
    static func read(path: String, id: String, folder: String, naming: CatalogNamingConvention) -> Outcome {
        guard let signature = signature(path, naming: naming) else { return .failure("cannot be read (no such file?)") }
        let result: ImageMetadataReadResult
        do {
            result = try ImageMetadata.read(fromJPEGFile: path)
        } catch {
            return .failure("not a readable JPEG: \(error)")
        }
        let metadata = result.metadata
        let stem = naming.stem(ofImage: path)
        let sidecarPath = stem + naming.sidecarSuffix
        var sidecar: PanoramaSidecar?
        if exists(sidecarPath) {
            do { sidecar = try PanoramaSidecar.read(sidecarPath) } catch let problem as PanoramaSidecar.Problem {
                return .failure(problem.message)
            } catch { return .failure("sidecar \(sidecarPath): \(error)") }
        }
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
        // Headers alone do not show damage further in: the scan is decoded (at 1/8 scale, strict), so a
        // truncated or corrupt file is reported now, not rendered later as a grey view.
        do {
            _ = try JPEGCodec.decodeRGB(try ImageFile.read(path), file: nil,
                                        options: JPEGDecodeOptions(scale: .eighth, strict: true))
        } catch {
            return .failure("damaged image data: \(error)")
        }
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
            (captureTime, timeSource) = (Date(timeIntervalSince1970: signature.modified), "file time")
            warnings.append("no capture time (EXIF DateTimeOriginal, GPS time or sidecar): used the file's modification time")
        }
        if sidecar?.captureTime != nil && sidecar?.parsedCaptureTime == nil {
            warnings.append("sidecar capture_time '\(sidecar?.captureTime ?? "")' is not ISO 8601; ignored")
        }

        let software = (pano?.captureSoftware ?? "") + "|" + (metadata.make ?? "")
        let source = sidecar?.source
            ?? (software.lowercased().hasPrefix("lookaround") || (metadata.make ?? "").lowercased().hasPrefix("lookaround")
                ? .simulated : .photo)
        let depthPath = stem + naming.depthSuffix, labelsPath = stem + naming.labelsSuffix
        for (kind, map) in [("depth map", depthPath), ("label map", labelsPath)] where exists(map) {
            do { try PNGCodec.verifyChunks(try ImageFile.read(map)) } catch {
                return .failure("\(kind) \(map) is damaged: \(error)")
            }
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
            depthPath: exists(depthPath) ? depthPath : nil, labelsPath: exists(labelsPath) ? labelsPath : nil,
            sidecarPath: sidecar == nil ? nil : sidecarPath, source: source, make: metadata.make, model: metadata.model,
            sequenceName: sidecar?.sequenceId ?? AutomaticSequenceName.base(folder: folder, make: metadata.make, model: metadata.model),
            sequenceIndex: 0, fileSize: signature.size, fileModificationTime: signature.modified, warnings: warnings)
        return .panorama(record, explicitSequenceIndex: sidecar?.sequenceIndex, cameraSerial: metadata.bodySerialNumber)
    }
}
