#!/usr/bin/env bash
# Mapnik as the benchmark peer of `Benchmarks map` (never a runtime or test dependency).
#
#   scripts/mapnik-peer.sh OSM_PBF WIDTH HEIGHT RUNS OUT_DIR
#
# Converts the extract to GeoJSON layers with osmium (cached in OUT_DIR), renders it with Debian's
# python3-mapnik at WIDTH x HEIGHT over the extract's bounding box, and prints one JSON line with the
# median render and PNG-encode times. Installs python3-mapnik, mapnik-utils and osmium-tool with apt when
# they are missing and we are root (or have password-less sudo); otherwise exits 3 saying how to install.
# Uses /usr/bin/python3: a pyenv python3 on PATH cannot import Debian's mapnik.
set -euo pipefail
pbf=$1; width=$2; height=$3; runs=$4; out=$5
py=/usr/bin/python3
here=$(dirname "$(readlink -f "$0")")
have() { "$py" -c "import mapnik" 2>/dev/null && command -v osmium >/dev/null; }
if ! have; then
  apt_install="apt-get install -y --no-install-recommends python3-mapnik mapnik-utils osmium-tool"
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive $apt_install >/dev/null 2>&1 || true
  elif sudo -n true 2>/dev/null; then
    sudo DEBIAN_FRONTEND=noninteractive $apt_install >/dev/null 2>&1 || true
  fi
  if ! have; then
    echo "mapnik peer missing: install it with: sudo $apt_install" >&2
    exit 3
  fi
fi
mkdir -p "$out"
# GeoJSON layers: the same features the Swift renderer draws.
if [ ! -s "$out/places.geojson" ] || [ "$pbf" -nt "$out/places.geojson" ]; then
  osmium tags-filter "$pbf" w/highway -o "$out/hw.pbf" -O
  osmium export "$out/hw.pbf" --geometry-types=linestring -o "$out/roads.geojson" -O
  osmium tags-filter "$pbf" w/railway=tram,rail,light_rail -o "$out/rail.pbf" -O
  osmium export "$out/rail.pbf" --geometry-types=linestring -o "$out/rails.geojson" -O
  osmium tags-filter "$pbf" wr/building -o "$out/bld.pbf" -O
  osmium export "$out/bld.pbf" --geometry-types=polygon -o "$out/buildings.geojson" -O
  osmium tags-filter "$pbf" wr/natural=water,wood,scrub,grassland wr/water wr/leisure=park,garden \
    wr/landuse=grass,meadow,village_green,forest,recreation_ground,basin wr/place=square -o "$out/areas.pbf" -O
  osmium export "$out/areas.pbf" --geometry-types=polygon -o "$out/areas.geojson" -O
  osmium tags-filter "$pbf" n/amenity n/shop n/tourism n/historic n/leisure -o "$out/poi.pbf" -O
  osmium export "$out/poi.pbf" --geometry-types=point -o "$out/places.geojson" -O
fi
bbox=$(osmium fileinfo -e -g data.bbox "$pbf" | tr -d '()' | tr ',' ' ')
cd "$out"
exec "$py" "$here/mapnik_peer.py" "$width" "$height" "$runs" $bbox
