#!/bin/bash
# build-kmod.sh TREE - build the conformance suite's test module
# (tests/kmod/tick_test.c) against TREE (stock or patched), into
# build/kmod/TREE/tick_test.ko.  The module is only ever loaded in the guest.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$1
obj=$top/build/kernel/obj/$tree-nohz_full
out=$top/build/kmod/$tree
# Module.symvers and the module linker script come with the modules target;
# run it every time (a no-op when up to date), since a config change alters
# the exported symbols.
"$top/scripts/build-kernel.sh" "$tree" nohz_full modules
mkdir -p "$out"
for f in tick_test.c Kbuild; do
	cmp -s "$top/tests/kmod/$f" "$out/$f" || cp "$top/tests/kmod/$f" "$out/$f"
done
echo "  KMOD $out/tick_test.ko"
make -s -C "$top/build/kernel/src/$tree" O="$obj" M="$out" modules
