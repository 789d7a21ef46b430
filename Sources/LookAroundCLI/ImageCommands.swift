import ArgumentParsing
import Foundation
import Imaging
import Terminal

enum ImageCommands: CommandGroup {
    static let name = "image"
    static let abstract = "Image files: metadata, resizing, comparison, label previews."
    static var commands: [any Command.Type] {
        [ImageInfoCommand.self, ImageResizeCommand.self, ImageCompareCommand.self, ImageLabelCommand.self,
         ImageShowCommand.self]
    }

    /// The output format chosen from a file name's extension.
    static func outputFormat(for path: String, arguments: ParsedArguments) throws -> ImageFormat {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        default:
            throw arguments.error("cannot tell the format of '\(path)' from its extension; use .png, .jpg or .jpeg")
        }
    }

    /// Encodes `image` in the format of `path` and writes it atomically.
    static func write(_ image: RGB8Image, to path: String, quality: Int, metadata: ImageMetadata? = nil,
                      arguments: ParsedArguments) throws {
        let bytes: [UInt8]
        switch try outputFormat(for: path, arguments: arguments) {
        case .jpeg: bytes = try JPEGCodec.encode(image, quality: quality, metadata: metadata)
        case .png: bytes = try PNGCodec.encode(image)
        }
        try ImageFile.write(bytes, to: path)
    }
}

enum ImageInfoCommand: Command {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Format, size and panorama metadata (EXIF GPS, GPano XMP) of image files.",
        discussion: "Reads headers only, not pixels. Metadata problems are reported as warnings; an unreadable "
            + "file is an error (exit 65, or 66 when it does not exist) and the others are still reported.",
        options: [.flag("json", help: "Print one JSON object per file, one per line (JSON Lines).")],
        positionals: [PositionalSpec("FILE", help: "JPEG or PNG files.", variadic: true)],
        examples: [(command: "lookaround image info Panoramas/helsinki/*.jpg", comment: "where and when each panorama was taken")])

    struct Info: Encodable {
        var file: String
        var format: String
        var width: Int
        var height: Int
        var detail: [String: String]
        var latitude: Double?
        var longitude: Double?
        var altitudeMeters: Double?
        var imageDirectionDegrees: Double?
        var dateTimeOriginal: String?
        var gpsTimestamp: String?
        var camera: String?
        var panorama: Panorama?
        /// The heading the catalog would use from this file's metadata (README, "Heading policy").
        var heading: CaptureHeading?
        var warnings: [String]
    }

    struct Panorama: Encodable {
        var projectionType: String?
        var poseHeadingDegrees: Double?
        var posePitchDegrees: Double?
        var poseRollDegrees: Double?
        var fullPanoWidthPixels: Int?
        var fullPanoHeightPixels: Int?
        var croppedAreaImageWidthPixels: Int?
        var croppedAreaImageHeightPixels: Int?
        var croppedAreaLeftPixels: Int?
        var croppedAreaTopPixels: Int?
    }

    static func info(of path: String) throws -> Info {
        let data = try ImageFile.read(path)
        let format = try ImageDecoder.format(of: data, file: path)
        let size = try ImageDecoder.size(of: data, file: path)
        var info = Info(file: path, format: format.rawValue, width: size.width, height: size.height, detail: [:],
                        warnings: [])
        switch format {
        case .jpeg:
            let header = try JPEGCodec.readHeader(data, file: path)
            info.detail["subsampling"] = header.subsampling?.rawValue ?? "unknown"
            info.detail["color_space"] = header.colorSpace.rawValue
            let read = try ImageMetadata.read(fromJPEG: data, file: path)
            info.warnings = read.warnings
            let m = read.metadata
            info.latitude = m.latitudeDegrees
            info.longitude = m.longitudeDegrees
            info.altitudeMeters = m.altitudeMeters
            info.imageDirectionDegrees = m.imageDirectionDegrees
            info.dateTimeOriginal = m.dateTimeOriginal
            info.gpsTimestamp = m.gpsTimestamp.map { ISO8601DateFormatter().string(from: $0) }
            let camera = [m.make, m.model].compactMap { $0 }.joined(separator: " ")
            info.camera = camera.isEmpty ? nil : camera
            if let p = m.panorama {
                info.panorama = Panorama(
                    projectionType: p.projectionType, poseHeadingDegrees: p.poseHeadingDegrees,
                    posePitchDegrees: p.posePitchDegrees, poseRollDegrees: p.poseRollDegrees,
                    fullPanoWidthPixels: p.fullPanoWidthPixels, fullPanoHeightPixels: p.fullPanoHeightPixels,
                    croppedAreaImageWidthPixels: p.croppedAreaImageWidthPixels,
                    croppedAreaImageHeightPixels: p.croppedAreaImageHeightPixels,
                    croppedAreaLeftPixels: p.croppedAreaLeftPixels, croppedAreaTopPixels: p.croppedAreaTopPixels)
            }
            info.heading = CaptureHeading(m)
        case .png:
            let header = try PNGCodec.readHeader(data, file: path)
            info.detail["bit_depth"] = String(header.bitDepth)
            info.detail["color_type"] = String(header.colorType)
            info.detail["interlaced"] = header.isInterlaced ? "yes" : "no"
        }
        return info
    }

    static func printHuman(_ info: Info) {
        var lines = ["\(info.file): \(info.format.uppercased()) \(info.width)×\(info.height)"
                     + info.detail.sorted { $0.key < $1.key }.map { ", \($0.key.replacingOccurrences(of: "_", with: " ")) \($0.value)" }.joined()]
        if let lat = info.latitude, let lon = info.longitude {
            var position = "  position      \(fixed(lat, 7)), \(fixed(lon, 7))"
            if let altitude = info.altitudeMeters { position += ", altitude \(fixed(altitude, 2)) m" }
            lines.append(position)
        }
        if let direction = info.imageDirectionDegrees { lines.append("  direction     \(fixed(direction, 2))° (true north)") }
        if let heading = info.heading {
            let used = heading.degrees.map { "\(fixed($0, 2))° from \(heading.source ?? "")" }
                ?? "none in the metadata (a sidecar's, the direction of travel in a sequence, or north)"
            lines.append("  heading       " + ([used] + heading.notes).joined(separator: "; "))
        }
        if let date = info.dateTimeOriginal { lines.append("  taken         \(date)") }
        if let gps = info.gpsTimestamp { lines.append("  GPS time      \(gps)") }
        if let camera = info.camera { lines.append("  camera        \(camera)") }
        if let p = info.panorama {
            var text = "  panorama      \(p.projectionType ?? "unknown projection")"
            if let w = p.fullPanoWidthPixels, let h = p.fullPanoHeightPixels { text += ", full \(w)×\(h)" }
            if let w = p.croppedAreaImageWidthPixels, let h = p.croppedAreaImageHeightPixels,
               w != p.fullPanoWidthPixels || h != p.fullPanoHeightPixels {
                text += ", cropped \(w)×\(h) at (\(p.croppedAreaLeftPixels ?? 0), \(p.croppedAreaTopPixels ?? 0))"
            }
            lines.append(text)
            let pose = [("heading", p.poseHeadingDegrees), ("pitch", p.posePitchDegrees), ("roll", p.poseRollDegrees)]
                .compactMap { name, value in value.map { "\(name) \(fixed($0, 2))°" } }
            if !pose.isEmpty { lines.append("  pose          \(pose.joined(separator: ", "))") }
        }
        for warning in info.warnings { lines.append("  warning: \(warning)") }
        Console.out(lines.joined(separator: "\n"))
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        var worst = CommandOutcome.ok
        for path in arguments.positionals {
            do {
                let info = try info(of: path)
                if arguments.flag("json") {
                    Console.out(try Console.jsonLine(info))
                } else {
                    printHuman(info)
                }
            } catch {
                let (code, message) = describe(error)
                Console.error("error: \(message)")
                if worst == .ok || code == .failed(.badData) { worst = code }
            }
        }
        return worst
    }
}

enum ImageResizeCommand: Command {
    static let spec = CommandSpec(
        name: "resize",
        abstract: "Resize an image with a chosen filter; JPEG panorama metadata is carried over.",
        discussion: "Shrinking widens the filter by the scale factor, so large images rendered small do not "
            + "alias. GPano pixel sizes are scaled with the image; EXIF GPS, direction and time are kept.",
        options: [
            .value("output", short: "o", valueName: "FILE", help: "Output file; .png, .jpg or .jpeg.", required: true),
            .value("size", valueName: "WxH", help: "Output size in pixels, each side 1…65535."),
            .value("scale", valueName: "FACTOR", help: "Scale both sides by this factor (0.001…16) instead of --size."),
            .value("filter", valueName: "FILTER", help: "Reconstruction filter.", defaultValue: "lanczos3",
                   allowedValues: ResamplingFilter.allCases.map(\.rawValue)),
            .value("quality", valueName: "1-100", help: "JPEG quality.", defaultValue: "90"),
            .flag("json", help: "Print what was written as JSON; see README, 'JSON output'."),
        ],
        positionals: [PositionalSpec("INPUT", help: "A JPEG or PNG file.", completion: .file)],
        examples: [(command: "lookaround image resize pano.jpg --size 2048x1024 -o small.jpg",
                    comment: "halve an 8K panorama, keeping its metadata")])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let input = arguments.positionals[0]
        let output = try arguments.requiredString("output")
        let quality = try arguments.int("quality", in: 1...100) ?? 90
        _ = try ImageCommands.outputFormat(for: output, arguments: arguments)
        let filter = ResamplingFilter(rawValue: arguments.string("filter") ?? "lanczos3") ?? .lanczos3
        // Validate every option before touching the input.
        enum Target { case size(PixelSize), scale(Double) }
        let target: Target
        if let text = arguments.string("size") {
            if arguments.has("scale") { throw arguments.error("give either --size or --scale, not both") }
            do { target = .size(try PixelSize(parsing: text)) } catch { throw arguments.error("--size: \(error)") }
        } else if let factor = try arguments.double("scale", in: 0.001...16) {
            target = .scale(factor)
        } else {
            throw arguments.error("give --size WxH or --scale FACTOR")
        }
        let data = try ImageFile.read(input)
        let image = try ImageDecoder.decodeRGB(data, file: input)
        let size: PixelSize
        switch target {
        case .size(let requested):
            size = requested
        case .scale(let factor):
            size = PixelSize(width: max(1, Int((Double(image.width) * factor).rounded())),
                             height: max(1, Int((Double(image.height) * factor).rounded())))
            guard size.width <= 65_535, size.height <= 65_535 else {
                throw arguments.error("--scale \(factor) makes \(size), over 65535 pixels a side")
            }
        }
        let resized = try Resampler.resize(image, to: size, filter: filter)
        var metadata: ImageMetadata?
        if ImageFormat.detect(data) == .jpeg {
            var m = try ImageMetadata.read(fromJPEG: data, file: input).metadata
            if m.imageWidth != nil { m.imageWidth = size.width; m.imageHeight = size.height }
            if var p = m.panorama {
                let sx = Double(size.width) / Double(image.width), sy = Double(size.height) / Double(image.height)
                func scaled(_ v: Int?, _ s: Double) -> Int? { v.map { Int((Double($0) * s).rounded()) } }
                p.fullPanoWidthPixels = scaled(p.fullPanoWidthPixels, sx)
                p.fullPanoHeightPixels = scaled(p.fullPanoHeightPixels, sy)
                p.croppedAreaImageWidthPixels = scaled(p.croppedAreaImageWidthPixels, sx)
                p.croppedAreaImageHeightPixels = scaled(p.croppedAreaImageHeightPixels, sy)
                p.croppedAreaLeftPixels = scaled(p.croppedAreaLeftPixels, sx)
                p.croppedAreaTopPixels = scaled(p.croppedAreaTopPixels, sy)
                m.panorama = p
            }
            metadata = m
        }
        try ImageCommands.write(resized, to: output, quality: quality, metadata: metadata, arguments: arguments)
        if arguments.flag("json") {
            struct Resized: Encodable { var output: String; var width, height, sourceWidth, sourceHeight: Int; var filter: String }
            try Console.json(Resized(output: output, width: resized.width, height: resized.height, sourceWidth: image.width,
                                     sourceHeight: image.height, filter: filter.rawValue))
        } else {
            Console.out("\(output): \(size) (\(filter.rawValue) from \(image.width)×\(image.height))")
        }
        return .ok
    }
}

enum ImageCompareCommand: Command {
    static let spec = CommandSpec(
        name: "compare",
        abstract: "How close two images of the same size are: PSNR, SSIM, mean and largest difference.",
        discussion: "PSNR is over the R, G, B values (dB; 'inf' when identical); SSIM is Wang et al. 2004 on "
            + "Rec. 601 luma (1 = identical). --diff writes a picture with differing pixels in red.",
        options: [
            .value("diff", valueName: "FILE", help: "Write a diff image (PNG) here."),
            .flag("json", help: "Print JSON."),
        ],
        positionals: [PositionalSpec("A", help: "An image.", completion: .file),
                      PositionalSpec("B", help: "An image of the same size.", completion: .file)],
        examples: [(command: "lookaround image compare render.png reference.png --diff diff.png",
                    comment: "quality of a render against a reference")])

    struct Result: Encodable {
        var psnrDecibels: Double?
        var ssim: Double
        var meanAbsoluteDifference: Double
        var maximumAbsoluteDifference: Int
        var identical: Bool
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let a = try ImageDecoder.readRGB(path: arguments.positionals[0])
        let b = try ImageDecoder.readRGB(path: arguments.positionals[1])
        guard a.width == b.width, a.height == b.height else {
            Console.error("error: the images differ in size (\(a.size) and \(b.size)); compare images of the same "
                          + "size, or resize one first with 'lookaround image resize'")
            return .failed(.badData)
        }
        let psnr = ImageMetrics.psnr(a, b)
        let result = Result(psnrDecibels: psnr.isFinite ? psnr : nil, ssim: ImageMetrics.ssim(a, b),
                            meanAbsoluteDifference: ImageMetrics.meanAbsoluteDifference(a, b),
                            maximumAbsoluteDifference: ImageMetrics.maximumAbsoluteDifference(a, b),
                            identical: psnr == .infinity)
        if let diffPath = arguments.string("diff") {
            try ImageFile.write(PNGCodec.encode(ImageMetrics.diffImage(a, b)), to: diffPath)
        }
        if arguments.flag("json") {
            try Console.json(result)
        } else {
            Console.out("PSNR      \(result.psnrDecibels.map { fixed($0, 2) + " dB" } ?? "inf (identical)")")
            Console.out("SSIM      \(fixed(result.ssim, 5))")
            Console.out("mean diff \(fixed(result.meanAbsoluteDifference, 3)) levels, largest \(result.maximumAbsoluteDifference)")
        }
        return .ok
    }
}

enum ImageLabelCommand: Command {
    static let spec = CommandSpec(
        name: "label",
        abstract: "Render a text label (as map and street-view labels are drawn) to a PNG, to check fonts.",
        discussion: "Latin text uses DejaVu Sans; characters it lacks (Chinese, Japanese, Korean) fall back to "
            + "WenQuanYi Micro Hei, glyph by glyph. The image is sized to the text plus a margin.",
        options: [
            .value("output", short: "o", valueName: "FILE", help: "Output PNG.", required: true),
            .value("pixel-size", valueName: "PIXELS", help: "Font size in pixels (1…512).", defaultValue: "32"),
            .flag("bold", help: "Bold weight."),
            .value("halo-pixels", valueName: "PIXELS", help: "Halo width around the glyphs (0…32).", defaultValue: "3"),
            .value("color", valueName: "#RRGGBB", help: "Text colour.", defaultValue: "#1d2b4f"),
            .value("halo-color", valueName: "#RRGGBB", help: "Halo colour.", defaultValue: "#ffffff"),
            .value("background", valueName: "#RRGGBB|none", help: "Background colour, or none for transparent.",
                   defaultValue: "#8fa3b8"),
            .flag("json", help: "Print what was written as JSON; see README, 'JSON output'."),
        ],
        positionals: [PositionalSpec("TEXT", help: "The label text (UTF-8).")],
        examples: [(command: "lookaround image label '赫尔辛基大教堂 · Pääposti' -o label.png", comment: "mixed scripts")])

    static func parseColor(_ arguments: ParsedArguments, _ name: String) throws -> RGBAColor? {
        guard let text = arguments.string(name) else { return nil }
        if text == "none" { return nil }
        let hex = text.hasPrefix("#") ? text : "#" + text
        guard hex.count == 7, let color = RGBAColor(hex: hex) else {
            throw arguments.error("--\(name) '\(text)' is not a colour; write #RRGGBB, for example #1d2b4f")
        }
        return color
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let text = arguments.positionals[0]
        guard !text.isEmpty else { throw arguments.error("TEXT is empty") }
        let output = try arguments.requiredString("output")
        let pixelSize = try arguments.double("pixel-size", in: TextStyle.pixelSizeRange) ?? 32
        let halo = try arguments.double("halo-pixels", in: 0...TextStyle.maximumHaloWidth) ?? 3
        let color = try parseColor(arguments, "color") ?? .black
        let haloColor = try parseColor(arguments, "halo-color") ?? .white
        let background = try parseColor(arguments, "background")
        let renderer = TextRenderer(fonts: try FontLibrary(paths: .debian))
        let style = TextStyle(pixelSize: pixelSize, weight: arguments.flag("bold") ? .bold : .regular, color: color,
                              halo: halo > 0 ? TextStyle.Halo(width: halo, color: haloColor) : nil)
        let metrics = try renderer.measure(text, style: style)
        let margin = Int((halo + pixelSize * 0.25).rounded(.up))
        let width = Int(metrics.advanceWidth.rounded(.up)) + 2 * margin
        let height = Int(metrics.lineHeight.rounded(.up)) + 2 * margin
        guard width * height <= 64_000_000 else {
            throw arguments.error("the label would be \(width)×\(height) pixels; use a shorter text or a smaller --pixel-size")
        }
        var canvas = Canvas(width: width, height: height, background: background ?? .clear)
        _ = try renderer.draw(text, at: PixelPoint(Double(margin), Double(margin) + metrics.ascent), style: style,
                              on: &canvas)
        try ImageFile.write(PNGCodec.encode(canvas.image), to: output)
        if arguments.flag("json") {
            struct Label: Encodable { var output: String; var width, height: Int; var advanceWidthPixels: Double }
            try Console.json(Label(output: output, width: width, height: height, advanceWidthPixels: metrics.advanceWidth))
        } else {
            Console.out("\(output): \(width)×\(height), \(fixed(metrics.advanceWidth, 1)) px wide")
        }
        return .ok
    }
}

enum ImageShowCommand: Command {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show an image in the terminal (24-bit colour, two pixels per character cell).",
        discussion: "Needs a terminal with truecolor (most do: check that COLORTERM is truecolor or 24bit). "
            + "The image is area-filtered to the width; rows follow from its aspect.",
        options: [.value("columns", valueName: "N", help: "Width in characters (1…1000); default the terminal's "
                         + "width from $COLUMNS, else 80.")],
        positionals: [PositionalSpec("FILE", help: "A JPEG or PNG file.")],
        examples: [(command: "lookaround image show Panoramas/helsinki/senaatintori-003.jpg --columns 120",
                    comment: "a panorama at a glance")])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let fallback = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "").flatMap { (1...1000).contains($0) ? $0 : nil } ?? 80
        let columns = try arguments.int("columns", in: 1...1000) ?? fallback
        let image = try ImageDecoder.readRGB(path: arguments.positionals[0])
        Console.outBytes(Array(try TerminalImage.render(image, columns: columns).utf8))
        return .ok
    }
}
