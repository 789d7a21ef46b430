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
        let body = attributes.map { "\n   GPano:\($0.0)=\"\(XMLText.escaped($0.1))\"" }.joined()
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

    /// Reads the GPano fields from an XMP packet, whether written as attributes of `rdf:Description`
    /// or as child elements, under whatever prefix the packet binds to the GPano namespace.
    /// A packet that is not XML, or a field that does not parse, is a warning; the field stays `nil`.
    /// Works on bytes (no Foundation string search): a few microseconds per packet.
    static func parseXMP(_ slice: ArraySlice<UInt8>, warnings: inout [String]) -> PanoramaMetadata? {
        let text = Array(slice)
        guard text.contains(UInt8(ascii: "<")),
              text.firstIndex(of: Array("xmpmeta".utf8)) != nil || text.firstIndex(of: Array("<rdf:".utf8)) != nil else {
            warnings.append("XMP: the packet is not XMP/XML (no x:xmpmeta or rdf:RDF element); ignored")
            return nil
        }
        guard let prefix = Self.prefix(boundTo: gpanoNamespace, in: text) else { return nil }
        var found = false
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }
        func raw(_ name: String) -> String? {
            let qualified = prefix + Array(":\(name)".utf8)
            var from = 0
            while let at = text.firstIndex(of: qualified, from: from) {
                from = at + qualified.count
                var i = from
                // The name must end here (PoseHeadingDegrees is not PoseHeadingDegreesX).
                while i < text.count, isSpace(text[i]) { i += 1 }
                guard i < text.count else { break }
                if at > 0, text[at - 1] == UInt8(ascii: "<") {
                    // Element form: <prefix:Name>value</prefix:Name>
                    guard text[i] == UInt8(ascii: ">") else { continue }
                    let start = i + 1
                    guard let close = text.firstIndex(of: [UInt8(ascii: "<"), UInt8(ascii: "/")] + qualified, from: start)
                    else { continue }
                    found = true
                    return XMLText.unescaped(String(decoding: text[start..<close], as: UTF8.self)).trimmingWhitespace()
                }
                guard at > 0, isSpace(text[at - 1]), text[i] == UInt8(ascii: "=") else { continue }
                i += 1
                while i < text.count, isSpace(text[i]) { i += 1 }
                guard i < text.count, text[i] == UInt8(ascii: "\"") || text[i] == UInt8(ascii: "'") else { continue }
                let quote = text[i], start = i + 1
                guard let end = text[start...].firstIndex(of: quote) else { continue }
                found = true
                return XMLText.unescaped(String(decoding: text[start..<end], as: UTF8.self)).trimmingWhitespace()
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

    /// The prefix (as bytes) that an `xmlns:prefix="uri"` declaration binds to `uri`, if any.
    static func prefix(boundTo uri: String, in text: [UInt8]) -> [UInt8]? {
        for quote in ["\"", "'"] {
            guard let at = text.firstIndex(of: Array("=\(quote)\(uri)\(quote)".utf8)) else { continue }
            var end = at
            while end > 0, text[end - 1] == 0x20 { end -= 1 }
            var start = end
            while start > 0, text[start - 1] != UInt8(ascii: ":"), text[start - 1] > 0x20 { start -= 1 }
            guard start < end, start >= 6, text[start - 1] == UInt8(ascii: ":"),
                  Array(text[(start - 6)..<(start - 1)]) == Array("xmlns".utf8) else { return nil }
            return Array(text[start..<end])
        }
        return nil
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
