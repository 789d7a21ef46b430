#!/usr/bin/env bash
# The installation as users get it (`make test` runs this after the suite):
#   make install into a temporary DESTDIR; the installed program run from another folder with the
#   build folder moved away (--version, index, a snapshot, a map with the world layer, a manual page
#   through man, the bash completions loaded by bash); make uninstall leaves the tree empty;
#   make deb: dpkg -c lists what the install lists, dpkg-deb --info has the dependencies, and the
#   packaged units pass systemd-analyze verify and score "OK" or better in systemd-analyze security.
#
#   scripts/test-install.sh BINARY      (the --static-swift-stdlib build: make install-build)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d /tmp/lookaround-install-test.XXXXXX)
build_folder=$(dirname "$(dirname "$binary")")
moved="$build_folder.moved-by-test-install"
failures=0
restore() {
  [ -d "$moved" ] && mv "$moved" "$build_folder"
  rm -rf "$tmp"
}
trap restore EXIT
pass() { printf '  ok    %s\n' "$*"; }
skip() { printf '  skip  %s\n' "$*"; }
# The checks that need a tool say they were skipped, and why, when it is missing
# (scripts/install-test-tools.sh installs them).
have() { command -v "$1" >/dev/null 2>&1 || { skip "$2: $1 is not installed (apt-get install $3)"; return 1; }; }
fail() { printf '  FAIL  %s\n' "$*" >&2; failures=$((failures + 1)); }
check() {  # check DESCRIPTION COMMAND...: passes when the command exits 0
  local description=$1; shift
  if out=$("$@" 2>&1); then pass "$description"; else fail "$description: $(printf '%s' "$out" | tail -n 5)"; fi
}

echo "== make install (DESTDIR=$tmp/root, PREFIX=/usr/local)"
cd "$repo"
make --no-print-directory install INSTALL_BUILD="$build_folder" DESTDIR="$tmp/root" PREFIX=/usr/local >/dev/null \
  2> >(grep -v '^$' >&2) || { echo "make install failed" >&2; exit 1; }
prefix="$tmp/root/usr/local"
installed="$prefix/bin/lookaround"
manifest="$prefix/share/lookaround/install-manifest"
[ -x "$installed" ] && pass "bin/lookaround installed" || fail "bin/lookaround is missing"
[ -f "$manifest" ] && pass "install manifest ($(wc -l < "$manifest") files)" || fail "no install manifest"
for file in share/lookaround/world-basemap.bin share/lookaround/web/page/body.html share/lookaround/web/lookaround.js \
            share/lookaround/web/lookaround/look-around.js \
            share/lookaround/web/leaflet/leaflet.js share/man/man1/lookaround.1.gz share/man/man1/lookaround-serve.1.gz \
            share/bash-completion/completions/lookaround share/zsh/site-functions/_lookaround \
            share/fish/vendor_completions.d/lookaround.fish share/doc/lookaround/README.md share/doc/lookaround/LICENSE \
            share/lookaround/models/centerface.onnx share/lookaround/models/centerface.LICENSE.txt \
            share/lookaround/models/ch_PP-OCRv4_det_infer.onnx share/lookaround/models/ch_PP-OCRv4_det_infer.LICENSE.txt; do
  [ -s "$prefix/$file" ] && pass "$file" || fail "$file is missing or empty"
done
# Every file on disk is in the manifest and the other way round.
diff <(sed "s|^|$tmp/root|" "$manifest" | sort) <(find "$tmp/root" -type f | sort) >/dev/null \
  && pass "the manifest lists exactly the files on disk" || fail "the manifest and the files on disk differ"
# Lists are read whole before grep looks at them: with pipefail, 'producer | grep -q' fails whenever grep
# exits at its match before the producer has written everything (SIGPIPE), so such checks were flaky.
libraries=$(ldd "$installed")
if grep -q libswiftCore <<<"$libraries"; then fail "the installed program links the Swift runtime dynamically"
else pass "the installed program carries the Swift runtime (no libswiftCore.so)"; fi

echo "== the installed program, run from another folder, the build folder moved away"
mv "$build_folder" "$moved"
mkdir -p "$tmp/elsewhere"
cd "$tmp/elsewhere"
version=$("$installed" --version | head -n 1)
case "$version" in "lookaround "[0-9]*) pass "--version: $version" ;; *) fail "--version printed '$version'" ;; esac
osm="$repo/Panoramas/sources/helsinki-centre.osm.pbf"
check "index the shipped panoramas into a new catalog" \
  "$installed" index --catalog "$tmp/elsewhere/catalog.sqlite" --osm "$osm" "$repo/Panoramas/helsinki"
check "snapshot at Senaatintori" "$installed" snapshot --catalog "$tmp/elsewhere/catalog.sqlite" --lat 60.16952 --lon 24.95247 \
  --heading-degrees 180 --size 320x240 -o snapshot.png
info=$("$installed" image info snapshot.png 2>&1 || true)
case "$info" in *320*240*) pass "the snapshot is a 320x240 image" ;; *) fail "image info of the snapshot: $info" ;; esac
# Beyond the extract the map draws the world layer: the basemap must come from share/lookaround.
check "map reaching beyond the extract (the world layer from share/lookaround)" \
  "$installed" map --osm "$osm" --center 60.169,24.948 --span-meters 8000 --size 320x240 -o map.png
[ -s map.png ] && pass "map.png written" || fail "map.png is missing"
# The privacy models come from share/lookaround/models: SGBlur's fixture (../shared/data/blur) has one face to blur.
fixture="$repo/../shared/data/blur/flat_urban_with_face_and_sign_small.jpg"
if [ -f "$fixture" ]; then
  blurred=$("$installed" blur "$fixture" -o blurred --json 2>&1 || true)
  case "$blurred" in *'"class" : "face"'*) pass "blur finds the fixture's face with the models from share/lookaround/models" ;;
    *) fail "blur with the installed models: $(printf '%s' "$blurred" | tail -n 3)" ;; esac
else
  skip "blur with the installed models: no $fixture"
fi
# The web viewer's page comes from share/lookaround/web (the build folder is moved away).
if have curl "the web viewer's page" curl; then
  "$installed" serve --catalog "$tmp/elsewhere/catalog.sqlite" --listen 127.0.0.1:0 > serve.out 2> serve.err &
  serve_pid=$!
  for _ in $(seq 1 100); do grep -q '^listening on' serve.out 2>/dev/null && break; sleep 0.1; done
  address=$(sed -n 's/^listening on //p' serve.out | head -n 1)
  page=$(curl -s --max-time 10 "$address/" || true)
  script_status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$address/lookaround.js" || true)
  kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null || true
  case "$page" in *'<script type="module" src="/first-view.js"'*) pass "serve answers / with the web viewer from share/lookaround/web" ;;
    *) fail "serve's / from the installed program: $(printf '%s' "$page" | head -c 200) $(head -c 300 serve.err)" ;; esac
  [ "$script_status" = 200 ] && pass "serve answers /lookaround.js" || fail "/lookaround.js answered $script_status"
fi
if have man "manual pages" man-db; then
  page=$(MANPATH="$prefix/share/man" man -w lookaround-snapshot 2>&1 || true)
  [ "$page" = "$prefix/share/man/man1/lookaround-snapshot.1.gz" ] && pass "man finds lookaround-snapshot in the tree" \
    || fail "man -w lookaround-snapshot gave '$page'"
  text=$(MANWIDTH=100 man -l "$prefix/share/man/man1/lookaround-snapshot.1.gz" 2>/dev/null | col -b || true)
  case "$text" in *"--heading-degrees"*) pass "man -l renders the snapshot page with its options" ;;
    *) fail "man -l of lookaround-snapshot.1.gz: $(printf '%s' "$text" | head -n 3)" ;; esac
fi
completion=$(bash --norc --noprofile -c '
  source "$1"
  complete -p lookaround || exit 1
  COMP_WORDS=(lookaround sna); COMP_CWORD=1; COMP_LINE="lookaround sna"; COMP_POINT=${#COMP_LINE}
  _lookaround lookaround sna lookaround
  printf "%s\n" "${COMPREPLY[@]}"' _ "$prefix/share/bash-completion/completions/lookaround" 2>&1 || true)
case "$completion" in *"complete -F _lookaround lookaround"*snapshot*) pass "bash loads the completions; 'lookaround sna<TAB>' offers snapshot" ;;
  *) fail "bash completions: $completion" ;; esac
have zsh "zsh completions" zsh && { zsh -f -c "fpath=($prefix/share/zsh/site-functions \$fpath); autoload -Uz compinit; compinit -u -D; (( \${+_comps[lookaround]} ))" \
  && pass "zsh finds _lookaround on its fpath" || fail "zsh does not register _lookaround"; }
have fish "fish completions" fish && { offered=$(fish --no-config -c "source $prefix/share/fish/vendor_completions.d/lookaround.fish; complete -C 'lookaround sna'" 2>/dev/null || true)
  grep -q '^snapshot' <<<"$offered" && pass "fish completes 'lookaround sna' to snapshot" || fail "fish completions"; }
cd "$repo"
mv "$moved" "$build_folder"

echo "== make uninstall"
make --no-print-directory uninstall DESTDIR="$tmp/root" PREFIX=/usr/local >/dev/null
left=$(find "$tmp/root" -mindepth 1 2>/dev/null | head -n 5)
[ -z "$left" ] && pass "the tree is empty" || fail "left behind: $left"
[ ! -e "$tmp/root" ] || rmdir "$tmp/root" 2>/dev/null || true

echo "== make deb"
deb=$(make --no-print-directory deb INSTALL_BUILD="$build_folder" OUT="$tmp/deb" | tail -n 1)
if [ -f "$deb" ]; then pass "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"; else fail "make deb gave no package: $deb"; exit 1; fi
# The package holds what an install with PREFIX=/usr (and the service files) holds.
SERVICE=1 SYSTEMD_UNIT_DIR=/lib/systemd/system SYSCONFDIR=/etc scripts/install.sh install "$binary" /usr "$tmp/usr-root" >/dev/null
expected=$(grep -v '/share/lookaround/install-manifest$' "$tmp/usr-root/usr/share/lookaround/install-manifest" | sort)
listed=$(dpkg -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./|/|' | sort)
[ "$expected" = "$listed" ] && pass "dpkg -c lists the $(printf '%s\n' "$listed" | wc -l) files the install lists" \
  || fail "dpkg -c and the install differ: $(diff <(printf '%s\n' "$expected") <(printf '%s\n' "$listed") | head -n 6)"
depends=$(dpkg-deb --field "$deb" Depends)
for library in libembree3-3 libsixel1 libpq5 libturbojpeg0 libsqlite3-0 libc6; do
  case "$depends" in *"$library"*) ;; *) fail "Depends lacks $library: $depends" ;; esac
done
case "$depends" in *swift*) fail "Depends names a Swift package: $depends" ;; *) pass "Depends: $depends" ;; esac
[ "$(dpkg-deb --field "$deb" Version)" = "${version#lookaround }" ] && pass "Version matches --version" || fail "Version differs from --version"
control=$(dpkg-deb --ctrl-tarfile "$deb" | tar -tf -)
grep -q conffiles <<<"$control" && pass "serve.conf is a conffile" || fail "no conffiles"

echo "== the packaged units"
dpkg-deb -x "$deb" "$tmp/extracted"
for unit in lookaround-serve.service lookaround-index.service; do
  # The unit names /usr/bin/lookaround; verify checks that it exists, so point it at the extracted copy.
  sed "s|/usr/bin/lookaround|$tmp/extracted/usr/bin/lookaround|g" "$tmp/extracted/lib/systemd/system/$unit" > "$tmp/$unit"
done
if have systemd-analyze "the units' checks" systemd; then
  check "systemd-analyze verify (the man pages of Documentation= from the package)" \
    env MANPATH="$tmp/extracted/usr/share/man" systemd-analyze verify "$tmp/lookaround-serve.service" "$tmp/lookaround-index.service"
  for unit in lookaround-serve.service lookaround-index.service; do
    level=$(systemd-analyze security --offline=true "$tmp/$unit" 2>&1 | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]* [A-Z]*\).*/\1/p')
    case "$level" in *" SAFE"|*" OK") pass "systemd-analyze security $unit: $level" ;; *) fail "systemd-analyze security $unit: '${level:-no score}'" ;; esac
  done
fi
grep -q '^ExecStart=/usr/bin/lookaround serve --config /etc/lookaround/serve.conf$' "$tmp/extracted/lib/systemd/system/lookaround-serve.service" \
  && pass "the unit runs serve with /etc/lookaround/serve.conf" || fail "ExecStart of lookaround-serve.service"
# The packaged configuration is one serve reads: every option of --help in it, and a serve that
# starts from it (the catalog and port changed on the command line, which wins) and answers.
conf="$tmp/extracted/etc/lookaround/serve.conf"
for option in $("$binary" serve --help | sed -n 's/^ *--\([a-z-]*\).*/\1/p' | grep -v -e '^help$' -e '^config$' -e '^print-config$'); do
  grep -q "^#\? \?$option =" "$conf" || fail "serve.conf lacks $option"
done
pass "serve.conf documents every serve option"
"$binary" index --catalog "$tmp/catalog.sqlite" --osm "$osm" "$repo/Panoramas/helsinki" >/dev/null 2>&1
"$binary" serve --config "$conf" --listen 127.0.0.1:0 --catalog "$tmp/catalog.sqlite" > "$tmp/serve.out" 2> "$tmp/serve.err" &
serve=$!
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/serve.out" | head -n 1)
  [ -n "$port" ] && break
  sleep 0.1
done
if [ -z "$port" ]; then
  fail "serve --config serve.conf did not start: $(tail -n 3 "$tmp/serve.err")"
elif have curl "asking the service" curl; then
  curl -fsS --max-time 5 "http://127.0.0.1:$port/v1/health" >/dev/null && pass "serve --config serve.conf answers /v1/health" \
    || fail "serve --config serve.conf did not answer: $(tail -n 3 "$tmp/serve.err")"
fi
kill -TERM "$serve" 2>/dev/null; wait "$serve" 2>/dev/null && pass "SIGTERM stops it with exit 0" || fail "serve did not exit 0 on SIGTERM"
grep -q 'GET /v1/health' "$tmp/serve.out" && pass "the access log goes to stdout (the journal)" || fail "no access log on stdout"

if [ "$failures" -gt 0 ]; then echo "test-install: $failures failed" >&2; exit 1; fi
echo "test-install: all passed"
