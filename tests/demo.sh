#!/bin/bash
# demo.sh - boot the patched kernel, record a scenario with tickstat, print
# the report and write the plots next to it in build/demo/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
demo=$top/build/demo
echo "  BOOT patched kernel: lone task on CPU 1, two tasks on CPU 2, a POSIX CPU timer on CPU 3"
"$top/guest-image/run-guest" --out "$demo/guest" --script "$top/tests/demo-guest.sh" 2>/dev/null || {
	rc=$?
	echo "demo: the guest run failed (exit $rc); see $demo/guest/console.log" >&2
	exit "$rc"
}
cp "$demo/guest/files/demo.dat" "$demo/guest/files/demo.json" "$demo/guest/files/demo.csv" "$demo/"
echo "  PLOT $demo/summary.png"
/usr/bin/python3 "$top/tools/tickplot/tickplot" summary --json "$demo/demo.json" \
	--csv "$demo/demo.csv" -o "$demo/summary.png"
echo "demo: recording, JSON, CSV and summary.png are in $demo (tickstat report $demo/demo.dat reads it again)"
