#!/bin/bash
# build-deb.sh - build the tools' Debian packages (tickstat, tickplot) into OUTDIR.
#
# usage: build-deb.sh OUTDIR
#
# dpkg-buildpackage writes its packages next to the source tree, so it runs
# on a copy of this tree (without build/ and .git) in OUTDIR/src. Prints the
# .deb files it made, one a line.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: build-deb.sh OUTDIR}
version=$(make -s --no-print-directory -C "$top/tools/tickstat" version)
src=$out/src/tickstat-$version

die() { echo "build-deb: $*" >&2; exit 1; }

command -v dpkg-buildpackage >/dev/null || die "dpkg-buildpackage not found: install dpkg-dev"
rm -rf "$out/src"
rm -f "$out"/src/*.deb "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
mkdir -p "$src"
tar -C "$top" --exclude=./build --exclude=./.git --exclude=__pycache__ -cf - . | tar -C "$src" -xf -
echo "  DPKG-BUILDPACKAGE $src" >&2
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	die "dpkg-buildpackage failed (full log: $out/build.log)"
fi
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out/"
rm -rf "$out/src"
ls "$out"/*.deb
