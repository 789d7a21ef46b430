/// The identifier that starts an XMP APP1 payload (with its terminating NUL).
let xmpIdentifier: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
/// The GPano namespace URI.
let gpanoNamespace = "http://ns.google.com/photos/1.0/panorama/"

extension ImageMetadata {
    /// The XMP packet with the GPano fields as attributes of one `rdf:Description`, or `nil` when
    /// `panorama` is `nil`.
    public func xmpPacket() throws -> String? {
        guard let p = panorama else { return nil }
        try p.validate()
        var attributes: [(String, String)] = []
        func add(_ name: String, _ value: String?) { if let value { attributes.append((name, value)) } }
        add("ProjectionType", p.projectionType)
        add("UsePanoramaViewer", p.usePanoramaViewer.map { $0 ? "True" : "False" })
        add("PoseHeadingDegrees", p.poseHeadingDegrees.map { "\($0)" })
        add("PosePitchDegrees", p.posePitchDegrees.map { "\($0)" })
        add("PoseRollDegrees", p.poseRollDegrees.map { "\($0)" })
        add("FullPanoWidthPixels", p.fullPanoWidthPixels.map { "\($0)" })
        add("FullPanoHeightPixels", p.fullPanoHeightPixels.map { "\($0)" })
        add("CroppedAreaImageWidthPixels", p.croppedAreaImageWidthPixels.map { "\($0)" })
        add("CroppedAreaImageHeightPixels", p.croppedAreaImageHeightPixels.map { "\($0)" })
        add("CroppedAreaLeftPixels", p.croppedAreaLeftPixels.map { "\($0)" })
        add("CroppedAreaTopPixels", p.croppedAreaTopPixels.map { "\($0)" })
        add("CaptureSoftware", p.captureSoftware)
        let body = attributes.map { "\n   GPano:\($0.0)=\"\(Self.escapeXML($0.1))\"" }.joined()
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
               xmlns:GPano="\(gpanoNamespace)"\(body)/>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
    }

    static func escapeXML(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }

    static func unescapeXML(_ s: Substring) -> String {
        guard s.contains("&") else { return String(s) }
        return String(s).replacingAll("&lt;", "<").replacingAll("&gt;", ">").replacingAll("&quot;", "\"")
            .replacingAll("&apos;", "'").replacingAll("&amp;", "&")
    }

    /// Reads the GPano fields from an XMP packet, whether written as attributes of `rdf:Description`
    /// or as child elements, under whatever prefix the packet binds to the GPano namespace.
    /// A packet that is not XML, or a field that does not parse, is a warning; the field stays `nil`.
    static func parseXMP(_ bytes: ArraySlice<UInt8>, warnings: inout [String]) -> PanoramaMetadata? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("<"), text.contains("xmpmeta") || text.contains("rdf:RDF") || text.contains("<rdf:") else {
            warnings.append("XMP: the packet is not XMP/XML (no x:xmpmeta or rdf:RDF element); ignored")
            return nil
        }
        guard let prefix = Self.prefix(boundTo: gpanoNamespace, in: text) else { return nil }
        var found = false
        func raw(_ name: String) -> String? {
            let qualified = prefix + ":" + name
            // Attribute form: prefix:Name="value" (or single quotes).
            var searchStart = text.startIndex
            while let range = text.range(of: qualified, range: searchStart..<text.endIndex) {
                searchStart = range.upperBound
                var i = range.upperBound
                while i < text.endIndex, text[i] == " " || text[i] == "\n" || text[i] == "\t" || text[i] == "\r" {
                    i = text.index(after: i)
                }
                guard i < text.endIndex else { break }
                if range.lowerBound > text.startIndex, text[text.index(before: range.lowerBound)] == "<" {
                    // Element form: <prefix:Name>value</prefix:Name>
                    guard text[i] == ">" else { continue }
                    let valueStart = text.index(after: i)
                    guard let close = text.range(of: "</" + qualified, range: valueStart..<text.endIndex) else { continue }
                    found = true
                    return unescapeXML(text[valueStart..<close.lowerBound]).trimmingWhitespace()
                }
                guard text[i] == "=" else { continue }
                i = text.index(after: i)
                while i < text.endIndex, text[i] == " " { i = text.index(after: i) }
                guard i < text.endIndex, text[i] == "\"" || text[i] == "'" else { continue }
                let quote = text[i]
                let valueStart = text.index(after: i)
                guard let end = text[valueStart...].firstIndex(of: quote) else { continue }
                found = true
                return unescapeXML(text[valueStart..<end]).trimmingWhitespace()
            }
            return nil
        }
        func double(_ name: String) -> Double? {
            guard let s = raw(name) else { return nil }
            guard let v = Double(s), v.isFinite else {
                warnings.append("XMP: GPano:\(name) '\(s)' is not a number; ignored")
                return nil
            }
            return v
        }
        func int(_ name: String) -> Int? {
            guard let s = raw(name) else { return nil }
            if let v = Int(s) { return v }
            if let v = Double(s), v.isFinite, v == v.rounded(), abs(v) < 1e15 { return Int(v) }
            warnings.append("XMP: GPano:\(name) '\(s)' is not an integer; ignored")
            return nil
        }
        func bool(_ name: String) -> Bool? {
            guard let s = raw(name) else { return nil }
            switch s.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default:
                warnings.append("XMP: GPano:\(name) '\(s)' is not True/False; ignored")
                return nil
            }
        }
        let p = PanoramaMetadata(
            projectionType: raw("ProjectionType"), usePanoramaViewer: bool("UsePanoramaViewer"),
            poseHeadingDegrees: double("PoseHeadingDegrees"), posePitchDegrees: double("PosePitchDegrees"),
            poseRollDegrees: double("PoseRollDegrees"), fullPanoWidthPixels: int("FullPanoWidthPixels"),
            fullPanoHeightPixels: int("FullPanoHeightPixels"),
            croppedAreaImageWidthPixels: int("CroppedAreaImageWidthPixels"),
            croppedAreaImageHeightPixels: int("CroppedAreaImageHeightPixels"),
            croppedAreaLeftPixels: int("CroppedAreaLeftPixels"), croppedAreaTopPixels: int("CroppedAreaTopPixels"),
            captureSoftware: raw("CaptureSoftware"))
        return found ? p : nil
    }

    /// The prefix an `xmlns:prefix="uri"` declaration binds to `uri`, if any.
    static func prefix(boundTo uri: String, in text: String) -> String? {
        for quote in ["\"", "'"] {
            guard let range = text.range(of: "=" + quote + uri + quote) else { continue }
            var i = range.lowerBound
            while i > text.startIndex, text[text.index(before: i)] == " " { i = text.index(before: i) }
            var start = i
            while start > text.startIndex, text[text.index(before: start)] != ":",
                  !text[text.index(before: start)].isWhitespace {
                start = text.index(before: start)
            }
            let prefix = String(text[start..<i])
            guard !prefix.isEmpty, start > text.startIndex else { return nil }
            let colon = text.index(before: start)
            guard text[colon] == ":", text[..<colon].hasSuffix("xmlns") else { return nil }
            return prefix
        }
        return nil
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
