import Imaging
import Testing

@Suite struct FilePathTests {
    @Test(arguments: [
        ("a", "", "a"), ("a.png", "", "a.png"), ("out/a.png", "out", "a.png"), ("/a", "/", "a"), ("/", "/", "/"),
        ("out/frames/", "out", "frames"), ("a//b", "a", "b"), ("./x", ".", "x"), ("-", "", "-"),
    ])
    func splitsLikeDirnameAndBasename(path: String, directory: String, name: String) {
        #expect(FilePath.directory(of: path) == directory, "\(path)")
        #expect(FilePath.name(of: path) == name, "\(path)")
    }

    @Test func joins() {
        #expect(FilePath.joining("", "a") == "a" && FilePath.joining("/", "a") == "/a" && FilePath.joining("out", "a") == "out/a")
    }
}
