#!/usr/bin/env python3
"""Peer for the Reprojection tests: py360convert's e2p on a raw RGB panorama.

Usage: py360convert_e2p.py PANO.rgb PANO_WIDTH H_FOV_DEG V_FOV_DEG U_DEG V_DEG OUT_WIDTH OUT_HEIGHT MODE OUT.rgb
PANO.rgb: PANO_WIDTH x PANO_WIDTH/2 RGB24, rows from the top. Writes OUT_WIDTH x OUT_HEIGHT RGB24.
The caller maps its conventions to py360convert's (see Sources/Reprojection/Reprojection.docc).
Exit 3 when numpy or py360convert is missing (the test reports itself skipped with this message).
"""
import sys

try:
    import numpy as np
    import py360convert
except ImportError as error:  # pragma: no cover
    print(f"py360convert is not installed ({error}); pip install py360convert", file=sys.stderr)
    sys.exit(3)

src, width, hfov, vfov, u_deg, v_deg, out_w, out_h, mode, dst = sys.argv[1:11]
width = int(width)
pano = np.fromfile(src, dtype=np.uint8).reshape(width // 2, width, 3)
view = py360convert.e2p(pano, fov_deg=(float(hfov), float(vfov)), u_deg=float(u_deg), v_deg=float(v_deg),
                        out_hw=(int(out_h), int(out_w)), in_rot_deg=0, mode=mode)
np.ascontiguousarray(view.astype(np.uint8)).tofile(dst)
