#!/usr/bin/env bash
# Builds the Debian package (`make deb`) from the same install tree as `make install`, with
# PREFIX=/usr and the systemd units and /etc/lookaround/serve.conf added.
#
#   scripts/make-deb.sh BINARY OUTPUT_DIR
#
# The binary must carry the Swift runtime inside it (swift build --static-swift-stdlib, as `make deb`
# builds it): Debian has no package of the Swift runtime, so a package depending on the toolchain's
# libswiftCore.so could not be installed on a machine without the toolchain. Depends: is computed by
# dpkg-shlibdeps from the shared libraries the binary links (libembree3-3, libpq5, libsixel1, ...).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:?usage: make-deb.sh BINARY OUTPUT_DIR}
out=${2:?usage: make-deb.sh BINARY OUTPUT_DIR}
fail() { echo "make-deb.sh: $*" >&2; exit 1; }
[ -x "$binary" ] || fail "$binary is not an executable: build it first (make deb does)"
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture; do
  command -v "$tool" >/dev/null || fail "$tool is missing: apt-get install dpkg-dev (make deps installs it)"
done
if ldd "$binary" | grep -q 'libswiftCore'; then
  fail "$binary links the Swift runtime dynamically (libswiftCore.so): build it with --static-swift-stdlib (make deb does)"
fi

version=$("$binary" --version | sed -n '1s/^lookaround //p')
[ -n "$version" ] || fail "could not read the version from '$binary --version'"
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"

SERVICE=1 SYSTEMD_UNIT_DIR=/lib/systemd/system SYSCONFDIR=/etc "$here/scripts/install.sh" install "$binary" /usr "$root" >/dev/null
# The package manager keeps the list; an installed manifest would only duplicate it.
rm "$root/usr/share/lookaround/install-manifest"

# Depends from the shared libraries the binary links. dpkg-shlibdeps wants a debian/control.
mkdir -p "$work/debian" "$root/DEBIAN"
printf 'Source: lookaround\n\nPackage: lookaround\nArchitecture: any\n' > "$work/debian/control"
(cd "$work" && dpkg-shlibdeps -O -e"root/usr/bin/lookaround" 2>"$work/shlibdeps.err") > "$work/substvars" \
  || { cat "$work/shlibdeps.err" >&2; fail "dpkg-shlibdeps failed"; }
depends=$(sed -n 's/^shlibs:Depends=//p' "$work/substvars")
[ -n "$depends" ] || fail "dpkg-shlibdeps found no dependencies"

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: lookaround
Version: $version
Architecture: $arch
Maintainer: lookaround developers <lookaround@localhost>
Installed-Size: $size
Depends: $depends, fonts-dejavu-core
Recommends: fonts-wqy-microhei
Section: graphics
Priority: optional
Description: street imagery and Look Around on one CPU
 Answers whether there is street imagery at a coordinate (command line, HTTP
 with a Google Street View compatible API), renders labelled perspective views
 out of 360-degree panoramas, plays walkthroughs in the terminal or as
 GIF/WebP/MP4 previews, draws map snapshots, and simulates street imagery by
 ray-tracing a city built from OpenStreetMap data. No GPU needed.
 .
 The systemd unit lookaround-serve.service (installed, not enabled) runs the
 HTTP service as a dynamic user in a sandbox; its options are in
 /etc/lookaround/serve.conf.
CONTROL
echo /etc/lookaround/serve.conf > "$root/DEBIAN/conffiles"
# Tell systemd about the units (not enabled, not started).
cat > "$root/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ] && [ -d /run/systemd/system ]; then systemctl --system daemon-reload >/dev/null || true; fi
exit 0
SCRIPT
cat > "$root/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then systemctl --system daemon-reload >/dev/null || true; fi
exit 0
SCRIPT
cat > "$root/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
  systemctl stop lookaround-serve.service lookaround-index.service >/dev/null 2>&1 || true
fi
exit 0
SCRIPT
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/postrm" "$root/DEBIAN/prerm"

mkdir -p "$out"
package="$out/lookaround_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$package" >/dev/null
echo "$package"
