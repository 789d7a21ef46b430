#!/usr/bin/env bash
# Builds every DocC catalogue (Sources/<Module>/<Module>.docc) into .build/docs/<Module>.doccarchive,
# with the module's symbols, when the toolchain has docc; says so and exits 0 when it has not.
# The symbol graphs come from `swift package dump-symbol-graph`, run under the shared build lock.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
docc=${DOCC:-}
if [[ -z $docc ]]; then
  if command -v docc >/dev/null; then docc=$(command -v docc)
  elif [[ -x $(dirname "$(readlink -f "$(command -v "$swift")")")/docc ]]; then
    docc=$(dirname "$(readlink -f "$(command -v "$swift")")")/docc
  fi
fi
if [[ -z $docc ]]; then
  echo "make docs: this toolchain has no docc (looked on PATH and beside $swift); nothing built" >&2
  exit 0
fi
out=.build/docs
flock /tmp/lookaround-build.lock "$swift" package dump-symbol-graph --skip-synthesized-members >/dev/null
graphs=$(ls -d .build/*/symbolgraph | head -n 1)
mkdir -p "$out"
for catalog in Sources/*/*.docc; do
  module=$(basename "$(dirname "$catalog")")
  own=$out/symbolgraphs/$module
  rm -rf "$own" "$out/$module.doccarchive"
  mkdir -p "$own"
  cp "$graphs/$module.symbols.json" "$own/"
  cp "$graphs/$module"@*.symbols.json "$own/" 2>/dev/null || true
  "$docc" convert "$catalog" --additional-symbol-graph-dir "$own" \
    --fallback-display-name "$module" --fallback-bundle-identifier "lookaround.$module" \
    --transform-for-static-hosting --output-path "$out/$module.doccarchive" >"$out/$module.log" 2>&1 \
    || { cat "$out/$module.log" >&2; exit 1; }
  warnings=$(grep -c "warning:" "$out/$module.log" || true)
  echo "docs: $out/$module.doccarchive ($warnings warnings, in $out/$module.log)"
done
echo "docs: serve one with 'python3 -m http.server -d $out/Catalog.doccarchive 8000' and open" \
     "http://localhost:8000/documentation/catalog"
