import Geodesy
import Imaging

/// A source of top-down imagery for the `imagery` and `hybrid` map types: the simulator's 3D city
/// rendered orthographically (`SimulatedOrthophoto`; tests also use a simple stand-in).
///
/// Conformers render the Web Mercator rectangle `rect` (north up, x east) into an RGB image of exactly
/// `size` pixels, pixel (i, j) covering rect.minX + (i + 0.5)·rect.width/size.width, likewise in y.
/// They must be safe to call from any thread.
public protocol OrthophotoProvider: Sendable {
    /// Renders `rect` (map points) top-down into an image of `size` pixels.
    /// - Throws: anything; the snapshotter reports it as ``MapSnapshotError/orthophotoFailed(detail:)``.
    func orthophoto(of rect: MapRect, size: PixelSize) throws -> RGB8Image
}
