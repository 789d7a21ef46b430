#!/usr/bin/env python3
"""Reads an animated GIF or WebP with Pillow (or an MP4/WebM with ffprobe) and prints JSON:
frames, width, height, loop, durations_ms (per frame). With --psnr-against FOLDER (frame-00000.png …),
also the PSNR of each decoded frame against the PNG frames, and their mean.

Exit 3 with the reason when the tool it needs is not installed (the test is then reported skipped)."""
import json, math, os, shutil, subprocess, sys

def pillow():
    try:
        from PIL import Image
        return Image
    except ImportError:
        print("Pillow is not installed (pip install Pillow)", file=sys.stderr)
        sys.exit(3)

def psnr(a, b):
    try:
        import numpy
        d = numpy.asarray(a, dtype=numpy.float64) - numpy.asarray(b, dtype=numpy.float64)
        mse = float((d * d).mean())
        return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)
    except ImportError:
        pass
    ab, bb = a.tobytes(), b.tobytes()
    se = sum((x - y) * (x - y) for x, y in zip(ab, bb))
    mse = se / len(ab)
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)

def main():
    path = sys.argv[1]
    reference = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--psnr-against" else None
    ext = os.path.splitext(path)[1].lower()
    if ext in (".mp4", ".webm"):
        if shutil.which("ffprobe") is None:
            print("ffprobe is not installed (apt-get install ffmpeg)", file=sys.stderr)
            sys.exit(3)
        out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                              "stream=codec_name,width,height,nb_read_frames,avg_frame_rate", "-of", "json", path],
                             capture_output=True, text=True, check=True)
        stream = json.loads(out.stdout)["streams"][0]
        num, den = stream["avg_frame_rate"].split("/")
        print(json.dumps({"codec": stream["codec_name"], "width": stream["width"], "height": stream["height"],
                          "frames": int(stream["nb_read_frames"]), "fps": float(num) / float(den)}))
        return
    Image = pillow()
    im = Image.open(path)
    durations, psnrs = [], []
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        im.load()  # WebP frames carry their duration only once loaded
        durations.append(im.info.get("duration", 0))
        if reference:
            frame = im.convert("RGB")
            ref = Image.open(os.path.join(reference, "frame-%05d.png" % i)).convert("RGB")
            psnrs.append(psnr(frame, ref))
    result = {"format": im.format, "frames": getattr(im, "n_frames", 1), "width": im.size[0], "height": im.size[1],
              "loop": im.info.get("loop"), "durations_ms": durations}
    if reference:
        result["psnr"] = psnrs
        result["mean_psnr"] = sum(psnrs) / len(psnrs)
    print(json.dumps(result))

main()
