# guest-lib.sh - helpers for the conformance scenarios, inside the guest.
#
# Each scenario is a shell function scenario_NAME in scenarios/NAME.sh.  It
# runs with $DIR, its own output folder, and records with record(), which
# leaves there: rec.dat (the recording), report.json, rec.csv, loc.txt
# (the /proc/interrupts LOC deltas of each CPU while the command ran inside
# the recording, the independent tick count), loc-retries.txt (each CPU's
# hrtimer interrupt retries meanwhile: extra tick expiries without an
# interrupt), loc-span (uptime at the command's start and end) and report.txt.

# record SECONDS -- COMMAND...: tickstat record of the isolated CPUs (all
# CPUs without nohz_full; $tickstat_cpus if set) for SECONDS while COMMAND
# runs (started once tracing runs); with --probes=$tickstat_probes if set
# (tests/conformance/run --probes).
record() {
	secs=$1
	shift
	[ "$1" = "--" ] && shift
	# The harness stays on housekeeping CPU 0; the workloads pin themselves.
	# LOC is read around the command, inside the recording's window.
	taskset -c 0 tickstat record -q ${tickstat_cpus:+-C "$tickstat_cpus"} \
		${tickstat_probes:+--probes "$tickstat_probes"} \
		-d "$secs" -o "$DIR/rec.dat" --csv "$DIR/rec.csv" -- \
		loc-delta -s "$DIR/loc-span" "$@" > "$DIR/record.out" 2> "$DIR/record.err"
	echo "status=$?" > "$DIR/record.status"
	grep '^loc-delta:' "$DIR/record.out" | sed 's/^loc-delta: //' > "$DIR/loc.txt"
	grep '^loc-retries:' "$DIR/record.out" | sed 's/^loc-retries: //' > "$DIR/loc-retries.txt"
	grep -v -e '^loc-delta:' -e '^loc-retries:' "$DIR/record.out" > "$DIR/report.txt"
	tickstat report --json "$DIR/rec.dat" > "$DIR/report.json"
}

# note KEY VALUE: a fact for the expectations (a pid, a policy that failed)
note() {
	echo "$1=$2" >> "$DIR/notes.txt"
}

# module_with_running_tick MODE [PARAM...]: a task alone on CPU 2, the test
# module's MODE armed there, then five times a second task for 50 ms so that
# the tick runs; the decisions after each one are made with the tick running
# (the reason shows up in one or a few of them, so five chances).  The
# command takes about 2 s; 4 s of recording leave room for a slow host.
module_with_running_tick() {
	spin -c 2 -d 60 &
	sleep 0.3
	dmesg -c > /dev/null
	record 4 -- sh -c "taskset -c 0 insmod /job/tick_test.ko mode=$* cpu=2 ms=1500 &
		until dmesg | grep -q 'tick_test: $1 armed'; do sleep 0.05; done
		for i in 1 2 3 4 5; do spin -c 2 -d 0.05; sleep 0.1; done; wait"
	dmesg > "$DIR/dmesg.txt"
	rmmod tick_test
	kill $!
	wait
}

# module_on_idle_cpu MODE HITS: the test module makes its condition HITS
# times at idle entry on the idle CPU 2; dmesg of the run goes to dmesg.txt.
module_on_idle_cpu() {
	dmesg -c > /dev/null
	record 2 -- taskset -c 0 insmod /job/tick_test.ko mode=$1 cpu=2 hits=$2 ms=1000
	dmesg > "$DIR/dmesg.txt"
	rmmod tick_test
}

# report_range MODE: the recording's report for the time range of the test
# module's MODE line in dmesg.txt ("... from A to B ns", ktime_get(), the
# mono clock tickstat traces with), into $DIR/range.json
report_range() {
	range=$(sed -n "s/.*tick_test: $1 .* from \([0-9]*\) to \([0-9]*\) ns\$/\1,\2/p" \
		"$DIR/dmesg.txt")
	[ -n "$range" ] &&
		tickstat report -q --json --time-range "$range" "$DIR/rec.dat" > "$DIR/range.json"
}

# save_nohz_full: the kernel's nohz_full CPUs into $DIR/nohz_full ("absent"
# on a kernel built without NO_HZ_FULL)
save_nohz_full() {
	cat /sys/devices/system/cpu/nohz_full > "$DIR/nohz_full" 2>/dev/null ||
		echo absent > "$DIR/nohz_full"
}

# save_kernel: what the booted kernel offers, into $OUT/kernel: its release
# and version, its timer trace events, which of the tick's hrtimer
# functions its symbols have (tick_sched_timer up to 6.8, tick_nohz_handler
# from 6.9), its tracers (scripts/kernel-matrix.py tabulates them), and the
# runtime of each CPU's fair server (the deadline server of 6.12, which
# holds a lone task's tick about once a second; empty before 6.12)
save_kernel() {
	mkdir -p "$OUT/kernel"
	uname -r > "$OUT/kernel/release"
	uname -v > "$OUT/kernel/version"
	ls /sys/kernel/tracing/events/timer > "$OUT/kernel/timer-events"
	awk '$3 == "tick_sched_timer" || $3 == "tick_nohz_handler" { print $3 }' /proc/kallsyms \
		> "$OUT/kernel/tick-functions"
	cat /sys/kernel/tracing/available_tracers > "$OUT/kernel/tracers"
	for c in /sys/kernel/debug/sched/fair_server/cpu*; do
		[ -f "$c/runtime" ] && echo "${c##*/} $(cat "$c/runtime")"
	done > "$OUT/kernel/fair-server"
}
