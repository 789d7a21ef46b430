import Video

/// The FFmpeg filter graph users run to read a GoPro MAX `.360` (Jusas/gopromax-conversion-tools'
/// `360.avfilter`, GoPro's description in gopro/gpmf-parser #108), for any layout: each side face is its
/// kept columns, the two seam copies blended with `geq` (copy 2's weight (X+1)/(overlap+1)) and scaled
/// back to the seam's width, and its other kept columns; the faces stacked into the 3x2 cube; `v360=eac:e`.
/// The peer of the benchmarks and an independent reader for the tests.
public enum GoProMaxRecipe {
    /// The graph from the two video streams of input 0 to `[out]`, an equirectangular `width × height`.
    /// `blend`: false takes the first copy alone (stretched), without `geq`: the cheaper variant.
    /// `rgb`: end in RGB converted with the strips' BT.709 matrix (FFmpeg's automatic conversion would take BT.601).
    /// `exactFaces`: FFmpeg's `eac` insets its faces by 2 pixels (YouTube's padding), which the recipe users run
    /// ignores (a 0.15 % error at the cube's edges); true pads each row so that v360 reads the camera's faces as they are.
    public static func filterGraph(_ layout: GoProMaxLayout, width: Int, height: Int, blend: Bool = true, interpolation: String = "line",
                                   rgb: Bool = false, exactFaces: Bool = false) -> String {
        let f = layout.faceSize, side = layout.sideWidth, kept = layout.keptWidth, overlap = layout.overlap, seam = layout.seamWidth
        var graph = ""
        for (stream, row) in [(0, "A"), (1, "B")] {
            graph += "[0:v:\(stream)]format=yuvj420p,split=7" + (0..<7).map { "[\(row)\($0)]" }.joined() + ";"
            var faces: [String] = []
            for (k, x0) in [0, side + f].enumerated() {
                let p = "\(row)s\(k)"
                graph += "[\(row)\(3 * k)]crop=\(kept):\(f):\(x0):0[\(p)l];"
                if blend {
                    func expression(_ b: Int) -> String {
                        "if(between(X\\,0\\,\(b - 1))\\,p(X+\(b)\\,Y)*(X+1)/\(b + 1)+p(X\\,Y)*(\(b)-X)/\(b + 1)\\,p(X\\,Y))"
                    }
                    graph += "[\(row)\(3 * k + 1)]crop=\(2 * overlap):\(f):\(x0 + kept):0,geq=lum='\(expression(overlap))':cb='\(expression(overlap / 2))':cr='\(expression(overlap / 2))',"
                        + "crop=\(overlap):\(f):0:0,scale=\(seam):\(f)[\(p)s];"
                } else {
                    graph += "[\(row)\(3 * k + 1)]crop=\(overlap):\(f):\(x0 + kept):0,scale=\(seam):\(f)[\(p)s];"
                }
                graph += "[\(row)\(3 * k + 2)]crop=\(kept):\(f):\(x0 + kept + 2 * overlap):0[\(p)r];"
                graph += "[\(p)l][\(p)s][\(p)r]hstack=3[\(p)];"
                faces.append(p)
            }
            graph += "[\(row)6]crop=\(f):\(f):\(side):0[\(row)c];"
            graph += "[\(faces[0])][\(row)c][\(faces[1])]hstack=3"
                + (exactFaces ? ",pad=\(3 * f + 4):\(f + 4):2:2,fillborders=left=2:right=2:top=2:bottom=2:mode=smear" : "") + "[\(row)];"
        }
        graph += "[A][B]vstack,v360=eac:e:w=\(width):h=\(height):interp=\(interpolation)"
            + (rgb ? ",scale=in_color_matrix=bt709:in_range=full,format=rgb24" : "") + "[out]"
        return graph
    }
}
