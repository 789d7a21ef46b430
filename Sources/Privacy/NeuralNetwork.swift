import COpenCVDNN
import Foundation

/// A float32 tensor a network returned: its shape (N, C, H, W) and values, row-major.
struct Tensor: Sendable {
    var shape: [Int]
    var values: [Float]
    var channels: Int { shape[1] }
    var height: Int { shape[2] }
    var width: Int { shape[3] }
    /// The value at channel `c`, row `y`, column `x` of the first image.
    @inline(__always) subscript(c c: Int, y y: Int, x x: Int) -> Float { values[(c * height + y) * width + x] }
}

/// An ONNX network run by OpenCV's DNN module on the CPU (through the COpenCVDNN shim). OpenCV's `Net`
/// is not safe for concurrent use, so each call borrows a `Net` no other call holds: calls on several
/// threads run at once, each on its own `Net` (``PrivacyDetector`` runs one call per core with OpenCV's
/// own threads set to one, see ``NeuralNetwork/setThreads(_:)``).
///
/// One OpenCV `Net` per input shape: OpenCV 4.6 returns wrong outputs when a `Net` that has run on one
/// input size is run on another (CenterFace on a 137×137 view after a 2960×176 band found 61 "faces"
/// in the sky, none with a fresh `Net`), so a `Net` is loaded for each shape (and each concurrent call
/// on it) and is only ever run on that shape; the idle `Net`s of the most recently used
/// ``cachedShapes`` shapes are kept (callers keep their shapes few: equal tiles, fixed bands).
///
/// `@unchecked Sendable`: the pool of idle `Net`s is read and written under `lock` only; a `Net` taken
/// from it is used by one call at a time (it is out of the pool until that call returns it); the model
/// bytes are `let`.
final class NeuralNetwork: @unchecked Sendable {
    private let model: [UInt8]
    private let fuseLayers: Bool
    private let lock = NSLock()
    /// Idle `Net`s by input shape, the most recently used shape last.
    private var idle: [(shape: [Int], nets: [OpaquePointer])] = []
    /// The model's file name, for messages.
    let name: String
    /// How many input shapes keep their `Net`.
    static let cachedShapes = 8

    /// Loads `path`. `fuseLayers: false` turns OpenCV's layer fusion off (see the shim's header);
    /// `patchingClip` rewrites ONNX `Clip` nodes whose bounds are inputs (opset ≥ 11) into the attribute
    /// form OpenCV 4.6 reads (the bounds are constants in the models we ship).
    init(path: String, fuseLayers: Bool = true, patchingClip: Bool = false) throws(PrivacyError) {
        name = (path as NSString).lastPathComponent
        guard var bytes = FileManager.default.contents(atPath: path).map([UInt8].init) else {
            throw .modelFailed(model: name, detail: "\(path) cannot be read")
        }
        if patchingClip {
            do { bytes = try ONNXClipRewriter.rewrite(bytes) } catch {
                throw .modelFailed(model: name, detail: "\(error)")
            }
        }
        model = bytes
        self.fuseLayers = fuseLayers
        // Read once now, so a model OpenCV cannot read is an error at start, not at the first photo.
        lk_dnn_free(try load())
    }

    deinit { for entry in idle { entry.nets.forEach { lk_dnn_free($0) } } }

    private func load() throws(PrivacyError) -> OpaquePointer {
        var message = [CChar](repeating: 0, count: 1024)
        let loaded = model.withUnsafeBufferPointer { buffer in
            lk_dnn_load_onnx(buffer.baseAddress, buffer.count, fuseLayers ? 1 : 0, &message, message.count)
        }
        guard let loaded else { throw .modelFailed(model: name, detail: text(message)) }
        return loaded
    }

    /// A `Net` for `shape` that no other call holds: an idle one, or a new one (loaded outside the lock).
    private func borrow(_ shape: [Int]) throws(PrivacyError) -> OpaquePointer {
        lock.lock()
        if let index = idle.firstIndex(where: { $0.shape == shape }), let net = idle[index].nets.popLast() {
            lock.unlock()
            return net
        }
        lock.unlock()
        return try load()
    }

    /// Puts `net` (run on `shape` only) back among the idle ones; frees the idle `Net`s of the shapes
    /// beyond the ``cachedShapes`` most recently used.
    private func giveBack(_ net: OpaquePointer, shape: [Int]) {
        lock.lock()
        var entry = idle.firstIndex(where: { $0.shape == shape }).map { idle.remove(at: $0) } ?? (shape: shape, nets: [])
        entry.nets.append(net)
        idle.append(entry)
        let evicted = idle.count > Self.cachedShapes ? idle.removeFirst().nets : []
        lock.unlock()
        evicted.forEach { lk_dnn_free($0) }
    }

    /// OpenCV's version ("4.6.0").
    static var openCVVersion: String { String(decoding: Array(String(cString: lk_dnn_opencv_version()).utf8), as: UTF8.self) }

    /// Sets the threads OpenCV uses inside one call (process-wide; 0 = its default, all cores).
    static func setThreads(_ threads: Int) { lk_dnn_set_threads(Int32(threads)) }

    /// Runs the network on `input` (1 × channels × height × width, NCHW) and returns the named outputs
    /// (nil: the single unconnected output).
    func forward(_ input: [Float], channels: Int, height: Int, width: Int, outputs names: [String]?) throws(PrivacyError) -> [Tensor] {
        precondition(input.count == channels * height * width, "input of \(input.count) floats for \(channels)×\(height)×\(width)")
        let count = names?.count ?? 1
        var pointers = [UnsafeMutablePointer<Float>?](repeating: nil, count: count)
        var shapes = [Int32](repeating: 0, count: 4 * count)
        var message = [CChar](repeating: 0, count: 1024)
        let shape = [channels, height, width]
        let net = try borrow(shape)
        defer { giveBack(net, shape: shape) }
        let status: Int32 = input.withUnsafeBufferPointer { source in
            withCStrings(names ?? []) { cNames in
                lk_dnn_forward(net, source.baseAddress, Int32(channels), Int32(height), Int32(width), Int32(count),
                               names == nil ? nil : cNames, &pointers, &shapes, &message, message.count)
            }
        }
        guard status == 0 else { throw .modelFailed(model: name, detail: text(message)) }
        var tensors: [Tensor] = []
        for i in 0..<count {
            let shape = (0..<4).map { Int(shapes[4 * i + $0]) }
            let total = shape.reduce(1, *)
            let values = Array(UnsafeBufferPointer(start: pointers[i], count: total))
            lk_dnn_free_output(pointers[i])
            tensors.append(Tensor(shape: shape, values: values))
        }
        return tensors
    }
}

/// Calls `body` with a C array of C strings for `strings`, valid during the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Rewrites ONNX `Clip` nodes that take their bounds as inputs (opset 11 and later, as paddle2onnx
/// writes them) into the opset-6 form with `min`/`max` attributes, which is the only one OpenCV 4.6's
/// importer reads ("parseClip: node_proto.input_size() == 1"). The bounds must be scalar constants
/// (`Constant` nodes or initializers). Only the graph's node list is re-encoded; every other byte of the
/// model is kept. Protobuf wire format: field number << 3 | wire type, varints, length-delimited bytes.
enum ONNXClipRewriter {
    struct Malformed: Error, CustomStringConvertible {
        var detail: String
        var description: String { "the ONNX file is malformed: \(detail)" }
    }

    /// One field of a message: its number, wire type and byte range (the whole field, and its payload).
    struct Field {
        var number: Int
        var wireType: Int
        var whole: Range<Int>
        var payload: Range<Int>
    }

    static func varint(_ bytes: [UInt8], _ i: inout Int) throws -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard i < bytes.count, shift < 64 else { throw Malformed(detail: "a varint runs past its message") }
            let byte = bytes[i]
            i += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    static func fields(_ bytes: [UInt8], in range: Range<Int>) throws -> [Field] {
        var out: [Field] = []
        var i = range.lowerBound
        while i < range.upperBound {
            let start = i
            let key = try varint(bytes, &i)
            let number = Int(key >> 3), wire = Int(key & 7)
            let payloadStart: Int, end: Int
            switch wire {
            case 0: _ = try varint(bytes, &i); payloadStart = start; end = i
            case 1: payloadStart = i; end = i + 8
            case 2:
                let length = Int(try varint(bytes, &i))
                payloadStart = i; end = i + length
            case 5: payloadStart = i; end = i + 4
            default: throw Malformed(detail: "wire type \(wire) at byte \(start)")
            }
            guard end <= range.upperBound, end >= payloadStart else { throw Malformed(detail: "a field at byte \(start) runs past its message") }
            out.append(Field(number: number, wireType: wire, whole: start..<end, payload: payloadStart..<end))
            i = end
        }
        return out
    }

    static func string(_ bytes: [UInt8], _ field: Field) -> String { String(decoding: bytes[field.payload], as: UTF8.self) }

    static func encodeVarint(_ value: UInt64) -> [UInt8] {
        var v = value, out: [UInt8] = []
        repeat {
            var byte = UInt8(v & 0x7F)
            v >>= 7
            if v != 0 { byte |= 0x80 }
            out.append(byte)
        } while v != 0
        return out
    }

    static func lengthDelimited(_ number: Int, _ payload: [UInt8]) -> [UInt8] {
        encodeVarint(UInt64(number << 3 | 2)) + encodeVarint(UInt64(payload.count)) + payload
    }

    /// A float attribute (AttributeProto: name = 1, f = 2, type = 20 with FLOAT = 1).
    static func floatAttribute(_ name: String, _ value: Float) -> [UInt8] {
        var payload = lengthDelimited(1, Array(name.utf8))
        payload += encodeVarint(UInt64(2 << 3 | 5)) + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
        payload += encodeVarint(UInt64(20 << 3 | 0)) + encodeVarint(1)
        return lengthDelimited(5, payload)
    }

    /// The scalar float in a TensorProto (float_data = 4 or raw_data = 9, data_type FLOAT), if it is one.
    static func scalar(_ bytes: [UInt8], tensor range: Range<Int>) throws -> Float? {
        for field in try fields(bytes, in: range) {
            if field.number == 9 && field.payload.count == 4 || field.number == 4 && field.wireType == 5 {
                let b = bytes[field.payload]
                return Float(bitPattern: UInt32(b[b.startIndex]) | UInt32(b[b.startIndex + 1]) << 8
                             | UInt32(b[b.startIndex + 2]) << 16 | UInt32(b[b.startIndex + 3]) << 24)
            }
            if field.number == 4 && field.wireType == 2 && field.payload.count == 4 {
                let b = bytes[field.payload]
                return Float(bitPattern: UInt32(b[b.startIndex]) | UInt32(b[b.startIndex + 1]) << 8
                             | UInt32(b[b.startIndex + 2]) << 16 | UInt32(b[b.startIndex + 3]) << 24)
            }
        }
        return nil
    }

    /// The model with its `Clip` nodes rewritten; the model unchanged when it has none to rewrite.
    static func rewrite(_ model: [UInt8]) throws -> [UInt8] {
        let top = try fields(model, in: 0..<model.count)
        guard let graphField = top.first(where: { $0.number == 7 && $0.wireType == 2 }) else { throw Malformed(detail: "no graph") }
        let graph = try fields(model, in: graphField.payload)
        // Scalar constants by name: initializers (5: TensorProto with name = 8) and Constant nodes.
        var constants: [String: Float] = [:]
        for field in graph where field.number == 5 {
            let tensor = try fields(model, in: field.payload)
            if let nameField = tensor.first(where: { $0.number == 8 }), let value = try scalar(model, tensor: field.payload) {
                constants[string(model, nameField)] = value
            }
        }
        var nodes: [(field: Field, parts: [Field])] = []
        for field in graph where field.number == 1 {
            let parts = try fields(model, in: field.payload)
            nodes.append((field, parts))
            guard parts.first(where: { $0.number == 4 }).map({ string(model, $0) }) == "Constant",
                  let output = parts.first(where: { $0.number == 2 }) else { continue }
            for attribute in parts where attribute.number == 5 {
                let inner = try fields(model, in: attribute.payload)
                if let tensor = inner.first(where: { $0.number == 5 }), let value = try scalar(model, tensor: tensor.payload) {
                    constants[string(model, output)] = value
                }
            }
        }
        var replacements: [Range<Int>: [UInt8]] = [:]
        for (field, parts) in nodes where parts.first(where: { $0.number == 4 }).map({ string(model, $0) }) == "Clip" {
            let inputs = parts.filter { $0.number == 1 }
            guard inputs.count > 1 else { continue }
            var payload: [UInt8] = []
            for part in parts where !(part.number == 1 && part.whole != inputs[0].whole) { payload += model[part.whole] }
            for (k, attribute) in ["min", "max"].enumerated() where k + 1 < inputs.count && !inputs[k + 1].payload.isEmpty {
                let name = string(model, inputs[k + 1])
                guard let value = constants[name] else { throw Malformed(detail: "Clip bound \(name) is not a scalar constant") }
                payload += floatAttribute(attribute, value)
            }
            replacements[field.whole] = lengthDelimited(1, payload)
        }
        guard !replacements.isEmpty else { return model }
        var newGraph: [UInt8] = []
        for field in graph { newGraph += replacements[field.whole] ?? Array(model[field.whole]) }
        var out: [UInt8] = []
        for field in top {
            out += field.whole == graphField.whole ? lengthDelimited(7, newGraph) : Array(model[field.whole])
        }
        return out
    }
}

/// The text of a NUL-terminated C buffer.
func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
