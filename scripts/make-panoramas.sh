#!/usr/bin/env bash
# Regenerates Panoramas/helsinki/ (the shipped simulated street imagery) from the committed OSM extract.
# Deterministic: the same code and extract give the same bytes. Renders into a fresh folder and swaps it in,
# so an interrupted run leaves the old set intact. Holds the shared build lock while rendering (2 cores, minutes).
# Usage: scripts/make-panoramas.sh [path/to/lookaround]
set -euo pipefail
cd "$(dirname "$0")/.."
lookaround=${1:-.build/release/lookaround}
out=Panoramas/helsinki
tmp=Panoramas/.helsinki.new
rm -rf "$tmp"
start=$(date +%s)
flock /tmp/lookaround-build.lock "$lookaround" simulate \
    --osm Panoramas/sources/helsinki-centre.osm.pbf --out "$tmp" \
    --streets "Senaatintori,Aleksanterinkatu,Pohjoisesplanadi,Eteläesplanadi,Mannerheimintie" \
    --bbox 60.1660,24.9390,60.1705,24.9540 \
    --spacing-meters 12 --size 2048x1024 --depth-size 512x256 --samples 4 --quality 80 \
    --time 2026-06-15T09:00:00Z --seed 1 --whole-model
rm -rf "$out"
mv "$tmp" "$out"
echo "make-panoramas: $(ls "$out"/*.jpg | wc -l) captures, $(du -sh "$out" | cut -f1) in $(( $(date +%s) - start )) s"
