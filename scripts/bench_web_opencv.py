#!/usr/bin/env python3
"""OpenCV peer of `Benchmarks web`'s frame figure: a WxH view of a panorama JPEG at quality Q, one core.

    bench_web_opencv.py PANO.jpg W H FOV QUALITY FRAMES

The panorama is decoded once (cv2.imread, not timed). For FRAMES cameras (a new heading each, 6.1 degrees
apart, pitch varying as in ours) it times cv2.remap (INTER_LINEAR, BORDER_WRAP) with maps computed
beforehand (so the peer's per-camera map computation is left out: favourable to it) plus cv2.imencode JPEG
at QUALITY (wall median per frame, and the process's CPU time per frame over them all); and separately how long numpy takes to compute one camera's maps. No labels. Prints one JSON
line of medians in milliseconds. Same conventions as scripts/bench_opencv_remap.py.
"""
import json
import math
import os
import statistics
import sys
import time

try:
    import numpy as np
    import cv2
except ImportError as error:
    print(f"OpenCV is not installed ({error}); pip install opencv-python-headless", file=sys.stderr)
    sys.exit(3)
arguments = sys.argv[1:]


# The maps of scripts/bench_opencv_remap.py (same conventions as Reprojection), from that script itself.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_opencv_remap import maps  # noqa: E402

cv2.setNumThreads(1)

path, width, height, fov, quality, frames = arguments[0], int(arguments[1]), int(arguments[2]), float(arguments[3]), int(arguments[4]), int(arguments[5])
pano = cv2.imread(path, cv2.IMREAD_COLOR)
cameras = [(f * 6.1 % 360, 20 * math.sin(f * 0.4)) for f in range(frames)]
t = time.perf_counter()
maps = [maps(pano.shape[1], width, height, fov, heading, pitch) for heading, pitch in cameras]
maps_ms = (time.perf_counter() - t) * 1000 / frames
remap, encode, sizes = [], [], []
cpu_start = None
for rounds in range(2):
    if rounds:
        cpu_start = time.process_time()
    for mx, my in maps:
        t0 = time.perf_counter()
        view = cv2.remap(pano, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
        t1 = time.perf_counter()
        ok, data = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, quality])
        t2 = time.perf_counter()
        if rounds:
            remap.append((t1 - t0) * 1000)
            encode.append((t2 - t1) * 1000)
            sizes.append(len(data))
frame_cpu_ms = (time.process_time() - cpu_start) * 1000 / frames
total = [a + b for a, b in zip(remap, encode)]
print(json.dumps({"remap_ms": statistics.median(remap), "encode_ms": statistics.median(encode),
                  "frame_ms": statistics.median(total), "frame_cpu_ms": frame_cpu_ms, "maps_ms": maps_ms, "jpeg_bytes": statistics.median(sizes),
                  "opencv": cv2.__version__}))
