#!/bin/bash
# build-kmod.sh TREE - build the conformance suite's test module
# (tests/kmod/tick_test.c) against TREE, into build/kmod/TREE/tick_test.ko:
# stock or patched (the kernels built here), or one of Debian's own images
# (debian-6.1, ...: against its linux-headers-* packages, which
# scripts/debian-kernel.py downloads and extracts into build/, never
# installs).  The module is only ever loaded in the guest.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$1
out=$top/build/kmod/$tree
case "$tree" in
debian-*)
	kdir=$("$top/scripts/debian-kernel.py" --headers "$tree")/headers/build
	obj=
	# a module's BTF needs the image's vmlinux, which the packages do not
	# carry; 6.12's kbuild would still run pahole for it, which Debian
	# installs only with dwarves
	nobtf=CONFIG_DEBUG_INFO_BTF_MODULES=
	;;
*)
	kdir=$top/build/kernel/src/$tree
	obj=$top/build/kernel/obj/$tree-nohz_full
	nobtf=
	# Module.symvers and the module linker script come with the modules
	# target; run it every time (a no-op when up to date), since a config
	# change alters the exported symbols.
	"$top/scripts/build-kernel.sh" "$tree" nohz_full modules
	;;
esac
mkdir -p "$out"
for f in tick_test.c Kbuild; do
	cmp -s "$top/tests/kmod/$f" "$out/$f" || cp "$top/tests/kmod/$f" "$out/$f"
done
echo "  KMOD $out/tick_test.ko"
# Debian's headers build BTF only with the image's vmlinux, which the
# packages do not carry: kbuild says it skips it, which is expected here.
log=$out/build.log
status=0
make -s -C "$kdir" ${obj:+O="$obj"} M="$out" $nobtf modules >"$log" 2>&1 || status=$?
grep -v '^Skipping BTF generation for .* due to unavailability of vmlinux$' "$log" >&2 || true
[ "$status" = 0 ] || { echo "build-kmod: make failed ($status) for $tree" >&2; exit 1; }
