import Foundation
import Imaging

/// The kitty graphics protocol (https://sw.kovidgoyal.net/kitty/graphics-protocol/): 24-bit RGB frames
/// sent as APC escape sequences, `ESC _ G <control> ; <base64 payload> ESC \`.
///
/// Every frame reuses one image id and one placement id (`a=T,i=…,p=…`), so each frame replaces the
/// last in the terminal and no images pile up. `q=2` silences the terminal's replies; `C=1` keeps the
/// cursor still, so a frame in the last row never scrolls.
///
/// - Direct transmission (`t=d`): the pixels in the escape codes, base64 in chunks of at most 4096
///   characters (`m=1` on all but the last), ~4/3 of the frame's size in bytes.
/// - Shared memory (`t=s`): the pixels in a POSIX shared-memory object that the terminal reads and
///   unlinks; only the object's name travels. Only for a terminal on this machine (not over ssh).
public struct KittyGraphicsEncoder: Sendable {
    /// How the pixels reach the terminal.
    public enum Transmission: String, Sendable { case direct, sharedMemory }

    /// The image id every frame reuses (1…2³²−1).
    public var imageID: UInt32
    /// The placement id every frame reuses.
    public var placementID: UInt32
    public var transmission: Transmission
    /// Largest base64 payload per escape sequence (the protocol's limit is 4096; a multiple of 4).
    static let maximumChunkCharacters = 4096

    /// Shared-memory objects created and maybe not yet read by the terminal (unlinked by `releaseSharedMemory`).
    private var sharedMemoryNames: [String] = []
    private var frameNumber = 0

    public init(imageID: UInt32 = 0x4C4B, placementID: UInt32 = 1, transmission: Transmission = .direct) {
        precondition(imageID != 0, "kitty image id 0 means 'no id'")
        self.imageID = imageID
        self.placementID = placementID
        self.transmission = transmission
    }

    /// The escape sequences that show `image` at the cursor, replacing the previous frame.
    /// - Parameters:
    ///   - columns, rows: the cells to scale the image into (nil: its own pixel size).
    public mutating func encode(_ image: RGB8Image, columns: Int? = nil, rows: Int? = nil) throws -> [UInt8] {
        var control = "a=T,f=24,s=\(image.width),v=\(image.height),i=\(imageID),p=\(placementID),q=2,C=1"
        if let columns { control += ",c=\(columns)" }
        if let rows { control += ",r=\(rows)" }
        switch transmission {
        case .direct:
            return Self.chunked(control: control, payload: image.components)
        case .sharedMemory:
            frameNumber += 1
            let name = "/lookaround-kitty-\(getpid())-\(frameNumber)"
            try Self.writeSharedMemory(name: name, bytes: image.components)
            // Frames two back have been read (the terminal reads in order) or never will be.
            while sharedMemoryNames.count >= 2 { shm_unlink(sharedMemoryNames.removeFirst()) }
            sharedMemoryNames.append(name)
            return Self.chunked(control: control + ",t=s,S=\(image.components.count)", payload: Array(name.utf8))
        }
    }

    /// Deletes the image and its data in the terminal (`a=d,d=I`): send when leaving.
    public var deleteSequence: [UInt8] { Array("\u{1B}_Ga=d,d=I,i=\(imageID),q=2\u{1B}\\".utf8) }

    /// Unlinks the shared-memory objects the terminal may not have read yet (call at exit).
    public mutating func releaseSharedMemory() {
        for name in sharedMemoryNames { shm_unlink(name) }
        sharedMemoryNames.removeAll()
    }

    /// `payload` in base64, split into APC sequences of at most `maximumChunkCharacters`; `control`
    /// goes on the first.
    static func chunked(control: String, payload: [UInt8]) -> [UInt8] {
        let encoded = Array(Data(payload).base64EncodedData())
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count + encoded.count / maximumChunkCharacters * 12 + control.utf8.count + 16)
        var start = 0
        repeat {
            let end = min(encoded.count, start + maximumChunkCharacters)
            out.append(contentsOf: [0x1B, 0x5F, 0x47])  // ESC _ G
            if start == 0 { out.append(contentsOf: control.utf8); out.append(0x2C) }
            out.append(contentsOf: [0x6D, 0x3D, end < encoded.count ? 0x31 : 0x30, 0x3B])  // m=1; / m=0;
            out.append(contentsOf: encoded[start..<end])
            out.append(contentsOf: [0x1B, 0x5C])
            start = end
        } while start < encoded.count
        return out
    }

    private static func writeSharedMemory(name: String, bytes: [UInt8]) throws {
        let fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0o600)
        guard fd >= 0 else { throw TerminalError.systemCall("shm_open(\(name))", errno: errno) }
        defer { close(fd) }
        guard ftruncate(fd, off_t(bytes.count)) == 0 else {
            let code = errno
            shm_unlink(name)
            throw TerminalError.systemCall("ftruncate(\(name))", errno: code)
        }
        guard let map = mmap(nil, bytes.count, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            let code = errno
            shm_unlink(name)
            throw TerminalError.systemCall("mmap(\(name))", errno: code)
        }
        bytes.withUnsafeBytes { map.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        munmap(map, bytes.count)
    }
}
