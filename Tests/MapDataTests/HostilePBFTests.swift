import Foundation
import Testing
@testable import MapData

/// PBF blocks that claim gigabytes are refused from their headers, before libreadosm allocates what
/// they claim, with the format's limit named.
@Suite struct HostilePBFTests {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value, out: [UInt8] = []
        repeat {
            out.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return out
    }

    /// A BlobHeader (type "OSMData", `datasize`) with its 4-byte big-endian length in front.
    static func blockHeader(dataSize: UInt64) -> [UInt8] {
        let header = [0x0A, 7] + Array("OSMData".utf8) + [0x18] + varint(dataSize)
        let n = UInt32(header.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header
    }

    /// A real PBF (its OSMHeader block first, so the file is recognised) followed by `tail`.
    static func file(_ tail: [UInt8]) throws -> String {
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("zlib-dense.osm.pbf"))))
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("hostile.osm.pbf")
        try Data(good + tail).write(to: url)
        return url.path
    }

    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    static func refusal(_ tail: [UInt8]) throws -> MapDataError? {
        let path = try file(tail)
        let before = peakResidentBytes()
        defer { #expect(peakResidentBytes() - before < 64 << 20, "memory grew reading \(path)") }
        do {
            _ = try MapDataset(contentsOfFile: path)
            Issue.record("a hostile PBF was read")
            return nil
        } catch let error as MapDataError {
            return error
        }
    }

    @Test("a block claiming 2 GiB of data")
    func hugeBlock() throws {
        let error = try #require(try Self.refusal(Self.blockHeader(dataSize: 1 << 31) + [0x1A, 0x01, 0x00]))
        guard case .pbfBlockTooLarge(_, _, "block", 1 << 31, 32 << 20) = error else { Issue.record("\(error)"); return }
        #expect(error.description.contains("claims 2147483648 bytes, over the OSM PBF limit of 33554432 bytes"), "\(error)")
    }

    @Test("a block header claiming 2 GiB")
    func hugeBlockHeader() throws {
        let error = try #require(try Self.refusal([0x7F, 0xFF, 0xFF, 0xFF, 0x0A, 0x07]))
        guard case .pbfBlockTooLarge(_, _, "block header", 0x7FFF_FFFF, 65536) = error else { Issue.record("\(error)"); return }
    }

    @Test("a zlib block claiming 4 GiB uncompressed (a decompression bomb)")
    func hugeRawSize() throws {
        // Blob: raw_size (field 2) = 2^32 - 1, zlib_data (field 3) = 3 bytes.
        let blob = [0x10] + Self.varint(0xFFFF_FFFF) + [0x1A, 0x03, 0x78, 0x9C, 0x03]
        let error = try #require(try Self.refusal(Self.blockHeader(dataSize: UInt64(blob.count)) + blob))
        guard case .pbfBlockTooLarge(_, _, "uncompressed block", 0xFFFF_FFFF, 32 << 20) = error else { Issue.record("\(error)"); return }
        #expect(error.description.contains("hostile.osm.pbf"))
    }

    @Test("the shipped extract passes the check")
    func shippedExtract() throws {
        try OSMFileFormat.checkPBFBlockSizes(path: Fixtures.helsinkiPath)
    }

    /// crash-70029845…, found by FuzzOSM after 15,016 executions: a block header whose length-delimited
    /// field claims 2^64 - 1 bytes; `Int(UInt64)` trapped in ProtobufScan.varintField (reached from the
    /// block check and from the framing explanation after a failed read).
    static let fieldLengthPastIntMax = "AAAADQoJT1NNSGVhZGVyGEsQPxpHeJxT4vMvzg1OzkjNTdQdzSYzU+JySc0rTvXLT0kt1hIMzi8q0QupLEiNL8lIzYv3dGJpzS/kzs0szdU31DM01TMAAINCFAUAAAAdCgdb0ARMGYyYmhiIzMzMzMzMzMwfHy9fefwd/47Qsx4OAAAAhyN1jBFiUSwL+rdkMFO3bnZBdnZBnxpRGECV9aKZxAEAADFWCEdZ9MYwu6nYWYJe//+MlBgYGBgYndfQjY4Y"

    @Test("a protobuf field length past Int.max is an error, not a trap")
    func fieldLengthPastIntMax() throws {
        let bytes = try #require(Data(base64Encoded: Self.fieldLengthPastIntMax))
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("fuzz.osm.pbf")
        try bytes.write(to: url)
        #expect { _ = try MapDataset(contentsOfFile: url.path) } throws: { error in
            guard case MapDataError.readFailed(url.path, _, _) = error else { return false }
            return true
        }
        #expect(ProtobufScan.varintField(3, in: [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x18, 0x05]) == nil)
    }
}
