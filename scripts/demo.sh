#!/usr/bin/env bash
# The main job on the shipped data, as far as the product goes today (README: "What make demo does").
# Usage: scripts/demo.sh PATH/TO/lookaround OUTPUT_DIR
set -euo pipefail
lookaround=$1
out=${2:-out}
mkdir -p "$out"
step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

senaatintori=60.16952,24.95247
station=60.17130,24.94145

step "Geodesic distance and bearing: Senaatintori → railway station (WGS84, Karney)" \
  "$lookaround" geo distance --from "$senaatintori" --to "$station"
step "The map tile holding Senaatintori at zoom 17" \
  "$lookaround" geo tile --at "$senaatintori" --zoom 17
step "A street label as the views will draw it (DejaVu Sans, CJK fallback, halo)" \
  "$lookaround" image label "Senaatintori · Senatstorget · 赫尔辛基大教堂" -o "$out/label.png"
step "Its size and format" "$lookaround" image info "$out/label.png"
printf '\nWrote %s/label.png\n' "$out"
