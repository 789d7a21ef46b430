#!/usr/bin/env bash
# The main job on the shipped data (README: "What make demo does").
# Usage: scripts/demo.sh PATH/TO/lookaround OUTPUT_DIR
set -euo pipefail
lookaround=$1
out=${2:-out}
mkdir -p "$out"
columns=${COLUMNS:-100}
step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

senaatintori_lat=60.16952
senaatintori_lon=24.95247

step "Index the shipped panoramas and the places of the OSM extract (incremental: unchanged files are skipped)" \
  "$lookaround" index
step "Is there street imagery at Senaatintori?" \
  "$lookaround" scene --lat "$senaatintori_lat" --lon "$senaatintori_lon"
step "Places named like Stockmann, nearest to Senaatintori first" \
  "$lookaround" search Stockmann --near "$senaatintori_lat,$senaatintori_lon" --limit 3
if "$lookaround" snapshot --help >/dev/null 2>&1; then
  step "A labelled street-level view of Senaatintori, looking south" \
    "$lookaround" snapshot --lat "$senaatintori_lat" --lon "$senaatintori_lon" --heading-degrees 180 \
      --size 960x540 -o "$out/senaatintori.png"
  "$lookaround" image show "$out/senaatintori.png" --columns "$columns"
  step "Aleksanterinkatu, looking west along the street (shop labels on their signs)" \
    "$lookaround" snapshot --scene aleksanterinkatu-030 --heading-degrees 250 --size 960x540 \
      -o "$out/aleksanterinkatu.png"
  "$lookaround" image show "$out/aleksanterinkatu.png" --columns "$columns"
else
  panorama=$("$lookaround" scene --lat "$senaatintori_lat" --lon "$senaatintori_lon" --json \
    | sed -n 's/.*"image_path" *: *"\([^"]*\)".*/\1/p' | head -n 1)
  step "The panorama that answers (2048×1024, ray-traced from the OSM data)" \
    "$lookaround" image show "$panorama" --columns "$columns"
fi
step "A map of the area: simulated aerial imagery with roads and labels, street-imagery coverage, a pin" \
  "$lookaround" map --center 60.1690,24.9480 --span-meters 900 --size 800x600 --type hybrid --coverage \
    --pin "$senaatintori_lat,$senaatintori_lon,Senaatintori" -o "$out/helsinki-map.png"
"$lookaround" image show "$out/helsinki-map.png" --columns "$columns"
walk=(--from Senaatintori --to Stockmann --speed-mps 8 --size 480x270 --title "Senaatintori → Stockmann")
step "The walk from Senaatintori to Stockmann as an animated GIF (depth-warped moves, map inset)" \
  "$lookaround" walk "${walk[@]}" --fps 10 -o "$out/walk-senaatintori-stockmann.gif"
step "The same walk as an animated WebP" \
  "$lookaround" walk "${walk[@]}" --fps 10 -o "$out/walk-senaatintori-stockmann.webp"
if command -v ffmpeg >/dev/null; then
  step "The same walk as MP4 (H.264, through ffmpeg)" \
    "$lookaround" walk "${walk[@]}" --fps 15 -o "$out/walk-senaatintori-stockmann.mp4"
fi
printf '\nWrote %s\n' "$(ls "$out"/*.png "$out"/walk-* | tr '\n' ' ')"

# The interactive half: a few seconds of looking around by itself, when there is a terminal to do it in.
if [ -t 0 ] && [ -t 1 ]; then
  printf '\n==> A look around Aleksanterinkatu in the terminal (it turns by itself for 6 s)\n'
  sleep 1
  "$lookaround" view --scene aleksanterinkatu-030 --heading-degrees 200 --spin-seconds 6 || true
  printf '\n==> The first seconds of the walk to Stockmann, played in the terminal\n'
  sleep 1
  "$lookaround" walk --from Senaatintori --to Stockmann --speed-mps 4 --first-seconds 8 --play --quiet || true
else
  printf '\n==> (no terminal here: the scripted look-around with lookaround view is skipped)\n'
fi
cat <<TEXT

Look around yourself:  $lookaround view --near Senaatintori
  arrows or h/j/k/l look, +/- zoom, w or Enter walks along the street, m shows a map, ? lists the keys, q quits.
Watch a walk:          $lookaround walk --from Senaatintori --to Stockmann --play
TEXT
printf '\n==> In a browser (no WebGL needed): %s serve, then open http://127.0.0.1:8080/\n' "$lookaround"
printf '    (click a blue street for a Look Around preview; http://127.0.0.1:8080/@60.16948,24.95240,3a,75y,85.8h,90t?pano=senaatintori-005 opens a view)\n'
