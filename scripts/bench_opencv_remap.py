#!/usr/bin/env python3
"""Peer for `Benchmarks reprojection`: OpenCV's remap, one core.

remap PANO.rgb PANO_WIDTH OUT_W OUT_H FOV_DEG FRAMES
    Precomputes float32 maps once (same pinhole/equirectangular conventions as Reprojection: pixel
    centres at +0.5, horizontal edge-to-edge FOV, centre column = heading 0), then times FRAMES calls
    of cv2.remap (INTER_LINEAR, BORDER_WRAP) and prints the median milliseconds per frame.
snapshot PANO.jpg OUT_W OUT_H FOV_DEG OUT.jpg RUNS
    Times decode (cv2.imread, full size) + maps + remap + JPEG encode (quality 85) end to end and
    prints the median milliseconds.
Exit 3 when numpy or cv2 is missing.
"""
import sys
import time

try:
    import numpy as np
    import cv2
except ImportError as error:  # pragma: no cover
    print(f"OpenCV is not installed ({error}); pip install opencv-python-headless", file=sys.stderr)
    sys.exit(3)

cv2.setNumThreads(1)


def maps(pano_w, out_w, out_h, fov_deg, heading_deg=30.0, pitch_deg=10.0):
    f = out_w / 2 / np.tan(np.radians(fov_deg) / 2)
    x = (np.arange(out_w, dtype=np.float64) + 0.5 - out_w / 2) / f
    y = (out_h / 2 - (np.arange(out_h, dtype=np.float64) + 0.5)) / f
    a, b = np.meshgrid(x, y)
    h, p = np.radians(heading_deg), np.radians(pitch_deg)
    # Panorama frame (forward, right, up) components of forward + a·right + b·up, heading relative to the pose.
    fwd = np.array([np.cos(p) * np.cos(h), np.cos(p) * np.sin(h), np.sin(p)])
    right = np.array([-np.sin(h), np.cos(h), 0.0])
    up = np.array([-np.sin(p) * np.cos(h), -np.sin(p) * np.sin(h), np.cos(p)])
    d = fwd[None, None, :] + a[..., None] * right + b[..., None] * up
    lon = np.arctan2(d[..., 1], d[..., 0])
    lat = np.arctan2(d[..., 2], np.hypot(d[..., 0], d[..., 1]))
    px = pano_w / (2 * np.pi)
    mx = (lon * px + pano_w / 2 - 0.5) % pano_w
    my = (np.pi / 2 - lat) * px - 0.5
    return mx.astype(np.float32), my.astype(np.float32)


def median_ms(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)[len(times) // 2]


def main():
    if sys.argv[1] == "remap":
        path, pano_w, out_w, out_h, fov, frames = sys.argv[2:8]
        pano_w, out_w, out_h, frames = int(pano_w), int(out_w), int(out_h), int(frames)
        pano = np.fromfile(path, dtype=np.uint8).reshape(pano_w // 2, pano_w, 3)
        mx, my = maps(pano_w, out_w, out_h, float(fov))
        out = np.empty((out_h, out_w, 3), np.uint8)
        ms = median_ms(lambda: cv2.remap(pano, mx, my, cv2.INTER_LINEAR, dst=out, borderMode=cv2.BORDER_WRAP), frames)
        print(f"{ms:.3f}")
    elif sys.argv[1] == "snapshot":
        path, out_w, out_h, fov, out_path, runs = sys.argv[2:8]
        out_w, out_h, runs = int(out_w), int(out_h), int(runs)

        def snapshot():
            pano = cv2.imread(path, cv2.IMREAD_COLOR)
            mx, my = maps(pano.shape[1], out_w, out_h, float(fov))
            view = cv2.remap(pano, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
            ok, data = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, 85])
            with open(out_path, "wb") as f:
                f.write(data.tobytes())

        print(f"{median_ms(snapshot, runs):.3f}")
    else:
        print("usage: bench_opencv_remap.py remap|snapshot …", file=sys.stderr)
        sys.exit(64)


if __name__ == "__main__":
    main()
