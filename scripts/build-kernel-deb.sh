#!/bin/bash
# build-kernel-deb.sh - the patched kernel as Debian packages (linux-image and
# linux-headers), made by the kernel's own bindeb-pkg.
#
# usage: build-kernel-deb.sh guest|debian [FLAVOUR]
#
# guest:  the guest's nohz_full config. bindeb-pkg stamps its own build number
#         into the image and so relinks it; that must not change the bzImage
#         the guest tests boot (build/kernel/obj/patched-nohz_full), and a
#         second full build would cost minutes, so it packages a copy of those
#         objects: only the link and the packaging run again.
# debian: Debian's own config for FLAVOUR (package linux-config-6.1; default
#         cloud-amd64), so the result can replace a Debian kernel. Debug info
#         is turned off (Debian's needs pahole and doubles the build); the
#         release gets "-tickstat-FLAVOUR". A full build: hours on 2 cores.
#
# Needs the patched source tree (make kernel-patched). The packages land in
# build/kernel-deb/KCONFIG/; its obj/ holds the objects.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
src=$build/kernel/src/patched
kconfig=${1:?usage: build-kernel-deb.sh guest|debian [FLAVOUR]}
flavour=${2:-cloud-amd64}
verbose=${V:-0}

say() { echo "  $*" >&2; }
die() { echo "build-kernel-deb: $*" >&2; exit 1; }

[ -f "$src/.tickstat/applied/order" ] || die "no patched tree in $src: run make kernel-patched"

# The guest's packages are made on every make check: gzip, not xz, which
# took 32 s of CPU more there (KDEB_COMPRESS chooses).
case "$kconfig" in
guest) out=$build/kernel-deb/guest; export KDEB_COMPRESS=${KDEB_COMPRESS:-gzip};;
debian) out=$build/kernel-deb/debian-$flavour;;
*) die "unknown KCONFIG '$kconfig' (guest or debian)";;
esac
# Debian's config for the flavour (rt-amd64 is the rt featureset's amd64)
case "$flavour" in
rt-*) debian_config=/usr/src/linux-config-6.1/config.amd64_rt_${flavour#rt-}.xz;;
*) debian_config=/usr/src/linux-config-6.1/config.amd64_none_$flavour.xz;;
esac
[ "$kconfig" != debian ] || [ -f "$debian_config" ] ||
	die "$debian_config not found: install linux-config-6.1 (flavours: amd64, cloud-amd64, rt-amd64)"
obj=$out/obj

configure_guest() {
	local guest=$build/kernel/obj/patched-nohz_full
	[ -f "$guest/arch/x86/boot/bzImage" ] || die "no guest kernel in $guest: run make kernel-patched"
	"$top/scripts/copy-kernel-objs.sh" "$guest" "$obj"
}

configure_debian() {
	mkdir -p "$obj"
	xz -dc "$debian_config" >"$obj/.config.new"
	"$src/scripts/config" --file "$obj/.config.new" \
		--set-str LOCALVERSION "-tickstat-$flavour" \
		--disable DEBUG_INFO --enable DEBUG_INFO_NONE \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT --disable DEBUG_INFO_BTF
	# Keep the objects of an earlier run when the config is the same.
	if [ -f "$obj/.config.debian" ] && cmp -s "$obj/.config.new" "$obj/.config.debian"; then
		rm "$obj/.config.new"
	else
		mv "$obj/.config.new" "$obj/.config.debian"
		cp "$obj/.config.debian" "$obj/.config"
	fi
	# syncconfig writes include/config/auto.conf, which kernelrelease reads
	make -C "$src" O="$obj" olddefconfig syncconfig >"$obj/config.log" 2>&1 ||
		die "configuring failed: $obj/config.log"
	grep -qx 'CONFIG_NO_HZ_FULL=y' "$obj/.config" || die "$debian_config has no CONFIG_NO_HZ_FULL=y"
}

guest_image=$build/kernel/obj/patched-nohz_full/arch/x86/boot/bzImage
guest_sum=$(sha256sum "$guest_image" 2>/dev/null || true)
mkdir -p "$out"
rm -f "$out"/*.deb "$out"/*.buildinfo "$out"/*.changes
"configure_$kconfig"
release=$(make -s -C "$src" O="$obj" kernelrelease)
say "BINDEB-PKG $kconfig $release"
log=$out/bindeb-pkg.log
# KDEB_PKGVERSION: a fixed version, not the build counter of the objects;
# the packages' maintainer is the tools' one.
DEBEMAIL=$(sed -n 's/^Maintainer: //p' "$top/debian/control")
export DEBEMAIL
set -- make -C "$src" O="$obj" -j"$(nproc)" KDEB_PKGVERSION="$release-1" bindeb-pkg
if [ "$verbose" = 1 ]; then
	"$@"
elif ! "$@" >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	die "bindeb-pkg failed (full log: $log)"
fi
# linux-libc-dev holds the userspace API headers: installing it would
# replace Debian's own, which every userspace build uses. Not ours to ship.
rm -f "$out"/linux-libc-dev_*.deb
[ "$(sha256sum "$guest_image" 2>/dev/null || true)" = "$guest_sum" ] ||
	die "packaging changed the guest tests' kernel $guest_image"
ls "$out"/linux-image-*.deb "$out"/linux-headers-*.deb
