#!/bin/sh
# exit-paths.sh - sourced by the guest side of tests/guest/tickstat.test
# (tickstat-basic.sh, and alone on Debian's 6.12 and 6.1 with PROBES=on): tickstat
# leaves nothing behind on any exit, its probes included.  PROBES is the
# --probes of the recordings (unset: tickstat's default, off).  Results land
# in $OUT; tests/check_tickstat.py judges them (check_probes).
t=/sys/kernel/tracing
command -v rc > /dev/null || rc() { echo "$1=$2" >> "$OUT/rc.txt"; }
probes=${PROBES:+--probes=$PROBES}

# Nothing survives SIGTERM, an error after the probes were placed (an -e
# event the kernel lacks), or SIGKILL followed by the next run, which removes
# the killed one's instance and probes, and says so.
cut -d' ' -f1 /proc/uptime > "$OUT/probes-time.txt"
# Wait until recorder $1 traces.  Not its instance's tracing_on alone: a new
# instance starts with tracing on, before tickstat turns it off, places its
# probes and enables its events; tick_stop enabled there comes after all that.
recording() {
	i=0
	d=$t/instances/tickstat_$1
	until [ "$(cat $d/tracing_on $d/events/timer/tick_stop/enable 2>/dev/null)" = "1
1" ] || [ $i -ge 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
tickstat record -q $probes -o "$OUT/term.dat" > /dev/null 2>&1 &
pid=$!
recording $pid
grep -c "tickstat_$pid/" $t/kprobe_events > "$OUT/probes-during.txt"
kill -TERM $pid
wait $pid
rc record-sigterm $?
cat $t/kprobe_events > "$OUT/probes-after-sigterm.txt"
tickstat report --json "$OUT/term.dat" > "$OUT/term.json"
rc report-sigterm $?
tickstat record -q $probes -d 1 -e timer:no_such_event > /dev/null 2> "$OUT/err-event.txt"
rc record-bad-event $?
cat $t/kprobe_events > "$OUT/probes-after-error.txt"
tickstat record -q $probes -d 60 > /dev/null 2>&1 &
pid=$!
recording $pid
kill -KILL $pid
wait $pid
rc record-sigkill $?
echo "tickstat_$pid" > "$OUT/killed-group.txt"
grep -c "tickstat_$pid/" $t/kprobe_events > "$OUT/probes-after-sigkill.txt"
# the next run, without probes of its own: a stock kernel's report as before
tickstat record -q -d 1 --probes=off --json > "$OUT/off.json" 2> "$OUT/next-run.err"
rc record-next $?
cat $t/kprobe_events > "$OUT/probes-after-next.txt"
ls $t/instances > "$OUT/instances-after-next.txt"
tickstat record -q -d 0.5 --probes=sometimes > /dev/null 2> "$OUT/err-probes.txt"
rc record-bad-probes $?
cut -d' ' -f1 /proc/uptime >> "$OUT/probes-time.txt"
