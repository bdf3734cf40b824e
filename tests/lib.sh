# lib.sh - helpers for the guest tests; source it from a test script.
#
# A test is an executable in tests/guest/ or tests/host/: exit 0 passes,
# 77 skips (with the reason on stderr), anything else fails. It prints what
# it expected and what it saw when it fails.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run_guest=$top/guest-image/run-guest
work=$(mktemp -d "${TMPDIR:-/tmp}/tickstat-test.XXXXXX")
# a failed test keeps its guests' output (consoles, recordings) for a look
trap 'if [ $? = 0 ]; then rm -rf "$work"; else echo "# output kept in $work" >&2; fi' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# expect_eq WHAT EXPECTED SEEN
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', saw '$3'"
}

# expect_range WHAT MIN MAX SEEN (integers, inclusive)
expect_range() {
	[ "$4" -ge "$2" ] && [ "$4" -le "$3" ] ||
		fail "$1: expected $2..$3, saw $4"
}

# guest OUTDIR RUN-GUEST-ARGS... : run the guest, return its status
guest() {
	local out=$1
	shift
	"$run_guest" -q --out "$out" "$@" 2>"$out.runner"
}
