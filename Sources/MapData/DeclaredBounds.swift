import CDeflate
import Foundation

/// The box an extract says it covers: the `<bounds>` element of OSM XML (or osmosis' `<bound box>`),
/// the `bbox` of a PBF file's `HeaderBlock`. Extract tools write it (osmium extract, Osmosis, Geofabrik,
/// BBBike, the API's map call); the nodes of an extract made with complete ways or whole relations
/// reach well beyond it, so the box around the nodes says little about where the data is complete.
enum DeclaredBounds {
    /// The declared box of the OSM file at `path`, or nil when it declares none (or it cannot be read).
    static func read(path: String, format: OSMFileFormat) -> OSMBoundingBox? {
        switch format {
        case .xml: return xml(path: path)
        case .pbf: return pbf(path: path)
        default: return nil
        }
    }

    /// A box that is a box: finite, latitudes in −90…90, longitudes in −180…180, south < north, west < east.
    static func valid(_ box: OSMBoundingBox) -> OSMBoundingBox? {
        let values = [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude]
        guard values.allSatisfy(\.isFinite), (-90...90).contains(box.minLatitude), (-90...90).contains(box.maxLatitude),
              (-180...180).contains(box.minLongitude), (-180...180).contains(box.maxLongitude),
              box.minLatitude < box.maxLatitude, box.minLongitude < box.maxLongitude else { return nil }
        return box
    }

    /// `<bounds minlat=… minlon=… maxlat=… maxlon=…/>` or `<bound box="s,w,n,e" …/>` among the first
    /// 64 KiB (it comes before the first node).
    static func xml(path: String) -> OSMBoundingBox? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 64 * 1024) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        func attribute(_ name: String, in element: Substring) -> Double? {
            for quote in ["\"", "'"] {
                guard let start = element.range(of: " \(name)=\(quote)") ?? element.range(of: "\t\(name)=\(quote)")
                        ?? element.range(of: "\n\(name)=\(quote)") else { continue }
                let rest = element[start.upperBound...]
                guard let end = rest.firstIndex(of: Character(quote)) else { return nil }
                return Double(rest[..<end].trimmingCharacters(in: .whitespaces))
            }
            return nil
        }
        func element(_ name: String) -> Substring? {
            guard let start = text.range(of: "<\(name)") else { return nil }
            let after = text[start.upperBound...]
            guard let first = after.first, first == " " || first == "\t" || first == "\n" || first == "\r",
                  let end = after.firstIndex(of: ">") else { return nil }
            return after[..<end]
        }
        if let bounds = element("bounds"), let s = attribute("minlat", in: bounds), let w = attribute("minlon", in: bounds),
           let n = attribute("maxlat", in: bounds), let e = attribute("maxlon", in: bounds) {
            return valid(OSMBoundingBox(minLatitude: s, minLongitude: w, maxLatitude: n, maxLongitude: e))
        }
        if let bound = element("bound"), let box = bound.range(of: "box=\"") {
            let rest = bound[box.upperBound...]
            let values = rest.prefix { $0 != "\"" }.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if values.count == 4 {
                return valid(OSMBoundingBox(minLatitude: values[0], minLongitude: values[1], maxLatitude: values[2], maxLongitude: values[3]))
            }
        }
        return nil
    }

    /// The `HeaderBBox` (left, right, top, bottom in nanodegrees) of the first block, an `OSMHeader`.
    static func pbf(path: String) -> OSMBoundingBox? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let lengthBytes = try? handle.read(upToCount: 4), lengthBytes.count == 4 else { return nil }
        let headerLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        guard headerLength > 0, headerLength < 64 * 1024,
              let header = try? handle.read(upToCount: headerLength), header.count == headerLength,
              let type = ProtobufScan.bytesField(1, in: [UInt8](header)), Array(type) == Array("OSMHeader".utf8),
              let dataSize = ProtobufScan.varintField(3, in: [UInt8](header)), dataSize > 0, dataSize <= 32 * 1024 * 1024,
              let blobData = try? handle.read(upToCount: Int(dataSize)), blobData.count == Int(dataSize) else { return nil }
        let blob = [UInt8](blobData)
        var block: [UInt8]
        if let raw = ProtobufScan.bytesField(1, in: blob) {
            block = Array(raw)
        } else if let compressed = ProtobufScan.bytesField(3, in: blob), let size = ProtobufScan.varintField(2, in: blob),
                  size > 0, size <= 32 * 1024 * 1024 {
            block = [UInt8](repeating: 0, count: Int(size))
            guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
            defer { libdeflate_free_decompressor(decompressor) }
            var produced = 0
            let input = Array(compressed)
            let result = input.withUnsafeBytes { source in
                block.withUnsafeMutableBytes { target in
                    libdeflate_zlib_decompress(decompressor, source.baseAddress, source.count, target.baseAddress, target.count, &produced)
                }
            }
            guard result == LIBDEFLATE_SUCCESS else { return nil }
            block.removeLast(block.count - produced)
        } else {
            return nil
        }
        guard let bbox = ProtobufScan.bytesField(1, in: block).map(Array.init),
              let left = ProtobufScan.signedField(1, in: bbox), let right = ProtobufScan.signedField(2, in: bbox),
              let top = ProtobufScan.signedField(3, in: bbox), let bottom = ProtobufScan.signedField(4, in: bbox) else { return nil }
        return valid(OSMBoundingBox(minLatitude: Double(bottom) / 1e9, minLongitude: Double(left) / 1e9,
                                    maxLatitude: Double(top) / 1e9, maxLongitude: Double(right) / 1e9))
    }
}
