#!/bin/bash
# demo.sh - boot the patched kernel and show why isolated CPUs keep their tick.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
echo "  BOOT patched kernel: spin on CPU 1, two spinners on CPU 2, CPU 3 idle (3 s)"
"$top/guest-image/run-guest" --out "$top/build/demo" --script "$top/tests/demo-guest.sh" 2>/dev/null || {
	rc=$?
	echo "demo: the guest run failed (exit $rc); see $top/build/demo/console.log" >&2
	exit "$rc"
}
