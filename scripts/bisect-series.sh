#!/bin/bash
# bisect-series.sh - each prefix of a series builds (bisectable): the tree
# with the first N patches compiles the objects the series touches and
# those that include its headers (kernel/time, kernel/sched, kernel/rcu,
# kernel/events), for every N.  The whole series is the full guest kernel.
#
# usage: bisect-series.sh [BASE]   (6.1, the default: kernel-patches/series;
#                                   6.12: kernel-patches/linux-6.12/series)
#
# The walk goes down from the whole series: the bisect tree starts as a
# copy of the patched tree and its objects (build-kernel.sh), so each step
# takes one patch off and make rebuilds only what that patch touched, where
# a walk up would first rebuild everything patches 2..N touch.  Build the
# patched tree of that base first.  Exits 1 at the first prefix that does
# not build, naming it.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-6.1}
if [ "$base" = 6.1 ]; then
	series=$top/kernel-patches/series tree=bisect
else
	series=$top/kernel-patches/linux-$base/series tree=bisect-$base
fi
[ -f "$series" ] || { echo "bisect-series: no series for $base ($series)" >&2; exit 2; }
n=$(grep -cv -e '^#' -e '^[[:space:]]*$' "$series")
[ "$n" -ge 1 ] || { echo "bisect-series: $series lists no patches" >&2; exit 1; }
for limit in $(seq "$n" -1 1); do
	SERIES_LIMIT=$limit "$top/scripts/build-kernel.sh" "$tree" nohz_full \
		kernel/time/ kernel/sched/ kernel/rcu/ kernel/events/ || {
		echo "bisect-series: the $base series does not build with its first $limit patches" >&2
		exit 1
	}
done
echo "$n prefixes of the $base series build"
