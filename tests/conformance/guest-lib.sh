# guest-lib.sh - helpers for the conformance scenarios, inside the guest.
#
# Each scenario is a shell function scenario_NAME in scenarios/NAME.sh.  It
# runs with $DIR, its own output folder, and records with record(), which
# leaves there: rec.tickstat (the recording), report.json, rec.csv, loc.txt
# (the /proc/interrupts LOC deltas of each CPU over the whole recording,
# the independent tick count) and report.txt.

# record SECONDS -- COMMAND...: tickstat record of the isolated CPUs for
# SECONDS while COMMAND runs (started once tracing runs).
record() {
	secs=$1
	shift
	[ "$1" = "--" ] && shift
	cut -d' ' -f1 /proc/uptime > "$DIR/called-at"
	# the harness stays on housekeeping CPU 0; the workloads pin themselves
	taskset -c 0 loc-delta tickstat record -q -d "$secs" -o "$DIR/rec.tickstat" \
		--csv "$DIR/rec.csv" -- "$@" > "$DIR/record.out" 2> "$DIR/record.err"
	echo "status=$?" > "$DIR/record.status"
	grep '^loc-delta:' "$DIR/record.out" | sed 's/^loc-delta: //' > "$DIR/loc.txt"
	grep -v '^loc-delta:' "$DIR/record.out" > "$DIR/report.txt"
	tickstat report --json "$DIR/rec.tickstat" > "$DIR/report.json"
}

# note KEY VALUE: a fact for the expectations (a pid, a policy that failed)
note() {
	echo "$1=$2" >> "$DIR/notes.txt"
}
