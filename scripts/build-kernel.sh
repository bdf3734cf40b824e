#!/bin/bash
# build-kernel.sh - build a guest kernel: TREE (stock|patched|bisect) with a config VARIANT.
# The bisect tree carries only the first $SERIES_LIMIT patches of the series.
# Without a suffix the trees are Linux 6.1 with kernel-patches/series; TREE-BASE
# (stock-6.12, patched-6.12, bisect-6.12) is /usr/src/linux-source-BASE.tar.xz
# with kernel-patches/linux-BASE/series.
#
# usage: build-kernel.sh TREE VARIANT [MAKE TARGET...]   (default target: bzImage)
#        build-kernel.sh TREE VARIANT source   only extract (and patch) the tree
#
# Source trees live in build/kernel/src/TREE, pristine apart from the series;
# objects go to build/kernel/obj/TREE-VARIANT (make O=), so one patched tree
# serves every config variant. A tree is re-extracted only when the tarball
# changes; a changed series is reverse-applied and re-applied, so only the
# files the patches touch get rebuilt.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}/kernel
configs=$top/guest-image/config
verbose=${V:-0}

tree=${1:?usage: build-kernel.sh TREE VARIANT [TARGET...]}
variant=${2:?usage: build-kernel.sh TREE VARIANT [TARGET...]}
shift 2
targets=${*:-bzImage}

say() { echo "  $*" >&2; }
die() { echo "build-kernel: $*" >&2; exit 1; }

# kind: stock, patched or bisect; suffix: "" for 6.1, else -BASE
kind=${tree%%-*}
suffix=${tree#"$kind"}
base=${suffix#-}
base=${base:-6.1}
patches=$top/kernel-patches${suffix:+/linux-$base}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-$base.tar.xz}

case "$kind" in stock|patched|bisect) ;; *) die "unknown tree '$tree' (stock, patched or bisect)";; esac
[ -f "$patches/series" ] || die "unknown tree '$tree' (no $patches/series)"
[ -f "$configs/$variant.config" ] || die "unknown config variant '$variant' (no $configs/$variant.config)"
[ -f "$tarball" ] || die "$tarball not found: install linux-source-$base"

src=$build/src/$tree
obj=$build/obj/$tree-$variant
# the config fragments, in merge order: a 6.12 tree adds its own after the base
fragments=("$configs/base.config")
[ -z "$suffix" ] || [ ! -f "$configs/linux-$base/base.config" ] ||
	fragments+=("$configs/linux-$base/base.config")
fragments+=("$configs/$variant.config")
base_version=$(sed -n 's/^# base: *//p' "$patches/series")

# series_patches - the patch files named by the series, in order
series_patches() {
	if [ "$kind" = bisect ]; then
		grep -v -e '^#' -e '^[[:space:]]*$' "$patches/series" | head -n "${SERIES_LIMIT:?}" || true
		return
	fi
	grep -v -e '^#' -e '^[[:space:]]*$' "$patches/series" || true
}

# series_patches_all - every patch file the series names, whatever the limit
series_patches_all() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$patches/series" || true
}

# run - run a long command quietly into a log, or verbosely with V=1
run() {
	local log=$1
	shift
	if [ "$verbose" = 1 ]; then
		"$@"
	elif ! "$@" >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "failed: $* (full log: $log)"
	fi
}

check_version() {
	local v
	v=$(awk '/^VERSION =/{a=$3} /^PATCHLEVEL =/{b=$3} /^SUBLEVEL =/{c=$3} END{print a "." b "." c}' "$1/Makefile")
	[ "$v" = "$base_version" ] ||
		die "$tarball holds Linux $v but the series targets $base_version"
}

extract() {
	say "EXTRACT $tarball -> $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	# -m: fresh mtimes, so objects of an older tree in $obj are rebuilt.
	tar -C "$src.tmp" -m -xf "$tarball"
	check_version "$src.tmp/linux-source-$base"
	mv "$src.tmp/linux-source-$base" "$src"
	rmdir "$src.tmp"
	mkdir -p "$src/.tickstat"
	stat -c '%s %Y' "$tarball" >"$src/.tickstat/tarball"
}

apply_series() {
	local p applied=$src/.tickstat/applied
	rm -rf "$applied"
	mkdir -p "$applied"
	for p in $(series_patches); do
		say "PATCH $p"
		patch -d "$src" -p1 -s -N --no-backup-if-mismatch <"$patches/$p" ||
			die "$p does not apply to $base_version"
		cp "$patches/$p" "$applied/"
		echo "$p" >>"$applied/order"
	done
	touch "$applied/order"
}

unapply_series() {
	local p applied=$src/.tickstat/applied
	[ -f "$applied/order" ] || return 1
	for p in $(tac "$applied/order"); do
		patch -d "$src" -p1 -R -s --no-backup-if-mismatch <"$applied/$p" >/dev/null || return 1
	done
}

series_changed() {
	local p applied=$src/.tickstat/applied
	[ -f "$applied/order" ] || return 0
	[ "$(series_patches)" = "$(cat "$applied/order")" ] || return 0
	for p in $(series_patches); do
		cmp -s "$patches/$p" "$applied/$p" || return 0
	done
	return 1
}

# patched_files PATCH... - the files the patches change, one per line
patched_files() {
	sed -n 's|^+++ [^/]*/\([^[:space:]]*\).*|\1|p' "$@" | sort -u
}

# keep_times - around a re-application: a file whose content ends up as it
# was keeps its old mtime, so make rebuilds only what really changed (the
# bisect test walks the series prefix by prefix; an edited patch changes
# only its own files)
keep_times_save() {
	local f keep=$src/.tickstat/keep
	rm -rf "$keep"
	mkdir -p "$keep"
	patched_files "$src/.tickstat/applied/"*.patch $(series_patches | sed "s|^|$patches/|") \
		>"$keep/list" 2>/dev/null || true
	while read -r f; do
		[ -f "$src/$f" ] || continue
		mkdir -p "$keep/$(dirname "$f")"
		cp -p "$src/$f" "$keep/$f"
	done <"$keep/list"
}

keep_times_restore() {
	local f keep=$src/.tickstat/keep
	[ -f "$keep/list" ] || return 0
	while read -r f; do
		if [ -f "$keep/$f" ] && cmp -s "$keep/$f" "$src/$f"; then
			touch -r "$keep/$f" "$src/$f"
		fi
	done <"$keep/list"
	rm -rf "$keep"
}

# tree_is_current DIR - DIR holds an extraction of the current tarball
tree_is_current() {
	[ -f "$1/.tickstat/tarball" ] &&
		[ "$(stat -c '%s %Y' "$tarball")" = "$(cat "$1/.tickstat/tarball")" ]
}

# Objects built once serve again (docs/check-time.md).  The bisect tree
# starts as a copy of the patched tree and its nohz_full objects: walking
# the series back to a prefix then touches only the files the later patches
# change, and make rebuilds only what depends on them, where a fresh
# extraction rebuilt everything for the first prefix.  Another config
# variant of a tree starts from the objects of the variant it differs from
# least (seed_of): make rebuilds the objects whose CONFIG_ symbols differ
# and keeps the host tools, objtool and the rest.
seed_bisect() {
	local seed_src=$build/src/patched$suffix seed_obj=$build/obj/patched$suffix-$variant
	[ "$kind" = bisect ] && ! tree_is_current "$src" && tree_is_current "$seed_src" &&
		[ -f "$seed_src/.tickstat/applied/order" ] &&
		[ -f "$seed_obj/.config" ] || return 0
	say "LINK $seed_src -> $src"
	rm -rf "$src"
	# hard links: 1.5 GB of sources are only read, except the files the
	# series changes (patch and keep_times write them) and the tree's own
	# records, which get copies of their own
	cp -al "$seed_src" "$src"
	rm -rf "$src/.tickstat"
	cp -a "$seed_src/.tickstat" "$src/.tickstat"
	patched_files "$seed_src/.tickstat/applied/"*.patch $(series_patches_all | sed "s|^|$patches/|") |
		while read -r f; do
			[ ! -f "$seed_src/$f" ] || cp -p --remove-destination "$seed_src/$f" "$src/$f"
		done
	say "COPY $seed_obj -> $obj"
	"$top/scripts/copy-kernel-objs.sh" "$seed_obj" "$obj" "$seed_src" "$src"
}

# seed_of VARIANT - the variant whose objects VARIANT starts from.
# hz_periodic differs from nohz_idle in NO_HZ_COMMON and TICK_ONESHOT (about
# 40 objects record them): from a copy of nohz_idle it costs about 100 s of
# CPU, where from nohz_full it was a whole build (task_struct has NO_HZ_FULL
# fields, so nearly every object depends on that symbol).  The Makefile
# builds nohz_idle first.  Without that seed, nohz_full's objects serve.
seed_of() {
	if [ "$1" = hz_periodic ] && [ -f "$build/obj/$tree-nohz_idle/.config" ]; then
		echo nohz_idle
	else
		echo nohz_full
	fi
}

# A variant's object tree that holds some directories only (config-matrix
# compiles kernel/time and kernel/sched of each variant) is seeded again
# for a whole kernel: its other objects are still the seed's of that time,
# and hz_periodic copied from such a nohz_idle would rebuild nearly all of
# itself instead of about 40 objects.
seed_variant() {
	local seed_obj
	seed_obj=$build/obj/$tree-$(seed_of "$variant")
	[ "$kind" != bisect ] && [ "$variant" != nohz_full ] && [ -f "$seed_obj/.config" ] ||
		return 0
	if [ -f "$obj/.config" ]; then
		[ "$targets" = bzImage ] && [ ! -f "$obj/vmlinux" ] && [ -f "$seed_obj/vmlinux" ] ||
			return 0
	fi
	say "COPY $seed_obj -> $obj"
	"$top/scripts/copy-kernel-objs.sh" "$seed_obj" "$obj"
}

prepare_source() {
	seed_bisect
	if ! tree_is_current "$src"; then
		extract
		[ "$kind" != stock ] && apply_series
		return 0
	fi
	[ "$kind" != stock ] || return 0
	series_changed || return 0
	say "SERIES changed: re-applying"
	keep_times_save
	if ! unapply_series; then
		say "SERIES could not be reversed cleanly: re-extracting"
		rm -rf "$src/.tickstat/keep"
		extract
	fi
	apply_series
	keep_times_restore
}

# config_key - what the configuration is made from: the fragments, the
# tarball and the Kconfig files the applied patches change (the rest of the
# Kconfig tree comes with the tarball)
config_key() {
	local f
	{
		# the way configure works: a tree configured another way before
		# is configured again
		echo "configure: a scratch O= directory"
		cat "${fragments[@]}" "$src/.tickstat/tarball"
		if [ -d "$src/.tickstat/applied" ]; then
			patched_files "$src/.tickstat/applied/"*.patch 2>/dev/null |
				grep -E '(^|/)Kconfig' | while read -r f; do
					echo "$f"
					cat "$src/$f" 2>/dev/null
				done
		fi
	} | sha256sum | cut -d' ' -f1
}

# configure - tinyconfig + base + variant; .config is replaced only when it
# changes.  Skipped when what it is made from has not changed since the last
# time (about 25 s of CPU each: every kmod, kernel-deb and bisect step runs
# this script).  The config is made in a scratch object directory with no
# .config: tinyconfig merges tiny.config with O='s .config, not with
# KCONFIG_CONFIG, so in the object directory a second configure started from
# the first one's config (and got tiny.config's SLOB and UNWINDER_GUESS,
# which a first configure does not), and it rewrote include/config there.
configure() {
	local scratch=$build/kconfig/$tree-$variant key
	local tmp=$scratch/config
	key=$(config_key)
	[ -f "$obj/.config" ] && [ "$key" = "$(cat "$obj/.tickstat-config-key" 2>/dev/null)" ] &&
		return 0
	rm -f "$obj/.tickstat-config-key"
	rm -rf "$scratch"
	mkdir -p "$obj" "$scratch"
	run "$obj/config-tiny.log" make -C "$src" O="$scratch" KCONFIG_CONFIG="$tmp" tinyconfig
	run "$obj/config-merge.log" env KCONFIG_CONFIG="$tmp" \
		"$src/scripts/kconfig/merge_config.sh" -m -O "$scratch" "$tmp" "${fragments[@]}"
	run "$obj/config-old.log" make -C "$src" O="$scratch" KCONFIG_CONFIG="$tmp" olddefconfig
	if ! cmp -s "$tmp" "$obj/.config"; then
		say "CONFIG $tree-$variant"
		mv "$tmp" "$obj/.config"
	fi
	rm -rf "$scratch"
	check_fragment
	echo "$key" >"$obj/.tickstat-config-key"
}

# check_fragment - every option the fragments set (the later fragment's
# setting winning) must survive olddefconfig
check_fragment() {
	local line opt missing=""
	declare -A want
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) want[${line%%=*}]=$line;;
		"# CONFIG_"*" is not set") opt=${line#\# }; want[${opt%% *}]=$line;;
		esac
	done < <(cat "${fragments[@]}")
	for opt in "${!want[@]}"; do
		line=${want[$opt]}
		case "$line" in
		CONFIG_*) grep -qx "$line" "$obj/.config" || missing="$missing $line";;
		*) ! grep -q "^$opt=" "$obj/.config" || missing="$missing !$opt";;
		esac
	done
	[ -z "$missing" ] || die "config $tree-$variant lacks:$missing"
}

mkdir -p "$build"
prepare_source
[ "$targets" != source ] || exit 0
seed_variant
configure
say "BUILD $tree-$variant $targets"
# shellcheck disable=SC2086
run "$obj/build.log" make -C "$src" O="$obj" -j"$(nproc)" $targets
