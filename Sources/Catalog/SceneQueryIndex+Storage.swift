import Foundation

extension SceneQueryIndex {
    /// Format of the stored blob: "LAQI", format version (UInt32), count (UInt32), then the five arrays
    /// in sorted order, little-endian: latitudes (Int32), longitudes (Int32), rows (UInt32),
    /// capture minutes (Int32), flags (UInt8). The hash tables are rebuilt when loading (≈ 20 ms per
    /// million panoramas), so the blob stays 17 bytes per panorama.
    static let storageMagic: [UInt8] = Array("LAQI".utf8)
    static let storageVersion: UInt32 = 1

    /// The blob stored in the catalog's `query_index` table.
    func serialized() -> [UInt8] {
        var bytes = Self.storageMagic
        bytes.reserveCapacity(12 + count * 17)
        func append<T: FixedWidthInteger>(_ values: [T]) {
            values.withUnsafeBufferPointer { buffer in
                for value in buffer { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
            }
        }
        append([Self.storageVersion, UInt32(count)])
        append(latitudesE7)
        append(longitudesE7)
        append(rows)
        append(captureMinutes)
        bytes.append(contentsOf: flags)
        return bytes
    }

    /// Reads a blob written by `serialized()`.
    /// - Throws: `CatalogError.corruptIndex` when the blob is not one, is of another version, or is truncated.
    init(serialized blob: UnsafeRawBufferPointer, path: String) throws(CatalogError) {
        guard blob.count >= 12, Array(blob[0..<4]) == Self.storageMagic else {
            throw .corruptIndex(path: path, detail: "the stored index does not start with LAQI")
        }
        let version = blob.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian
        guard version == Self.storageVersion else {
            throw .corruptIndex(path: path, detail: "index format \(version), this tool reads \(Self.storageVersion)")
        }
        let n = Int(blob.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian)
        guard blob.count == 12 + n * 17 else {
            throw .corruptIndex(path: path, detail: "\(blob.count) bytes for \(n) panoramas, expected \(12 + n * 17)")
        }
        func read<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> [T] {
            [T](unsafeUninitializedCapacity: n) { buffer, initialized in
                let source = UnsafeRawBufferPointer(rebasing: blob[offset..<(offset + n * MemoryLayout<T>.size)])
                _ = source.copyBytes(to: UnsafeMutableRawBufferPointer(buffer))
                for i in 0..<n { buffer[i] = T(littleEndian: buffer[i]) }
                initialized = n
            }
        }
        let latitudes = read(Int32.self, at: 12), longitudes = read(Int32.self, at: 12 + 4 * n)
        // The cell table packs each point as an offset inside its cell: a position off the globe has no cell.
        if let i = latitudes.firstIndex(where: { abs($0) > 900_000_000 }) {
            throw .corruptIndex(path: path, detail: "panorama \(i) has latitude × 1e7 \(latitudes[i]), outside ±900000000")
        }
        if let i = longitudes.firstIndex(where: { abs($0) > 1_800_000_000 }) {
            throw .corruptIndex(path: path, detail: "panorama \(i) has longitude × 1e7 \(longitudes[i]), outside ±1800000000")
        }
        self.init(sortedLatitudes: latitudes, longitudes: longitudes,
                  rows: read(UInt32.self, at: 12 + 8 * n), captureMinutes: read(Int32.self, at: 12 + 12 * n),
                  flags: read(UInt8.self, at: 12 + 16 * n))
    }
}
