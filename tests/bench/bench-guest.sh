#!/bin/sh
# bench-guest.sh - guest side of tests/bench/run.
#
# 1. Observer effect: one busy task on isolated CPU 1, and on CPU 2 one that
#    sleeps 1 ms every 100 ms (so CPU 2 writes trace events); timer
#    interrupts (LOC) on each CPU over 5 s with no recorder, with tickstat
#    record, and with trace-cmd record of the same events; each mode twice,
#    interleaved.
# 2. A small tickstat recording (a trace.dat of version 6) of a busy mix, for
#    the host to grow.
set -u
t=/sys/kernel/tracing
ev="-e timer:tick_stop -e timer:hrtimer_expire_entry -e sched:sched_switch"
for e in tick_retain tick_restart tick_dep_set tick_dep_clear; do
	[ -d $t/events/timer/$e ] && ev="$ev -e timer:$e"
done
# the measuring tools stay on CPU 0: on an isolated CPU they would be the
# interrupts they count (the recorders run as users start them)
measure() { echo "$1 $(taskset -c 0 loc-delta sleep 5 | sed 's/^loc-delta: //')" >> "$OUT/observer.txt"; }

spin -c 1 -d 60 &
spin -c 2 -d 60 -p 0.1 &
sleep 1
for round in 1 2; do
	measure none
	tickstat record -q -o /tmp/obs.dat > /dev/null 2>&1 &
	pid=$!
	sleep 2
	measure tickstat
	kill -INT $pid; wait $pid
	trace-cmd record -q $ev -o /tmp/obs-tc.dat > /dev/null 2>&1 &
	pid=$!
	until [ "$(cat $t/events/timer/tick_stop/enable)" = 1 ]; do sleep 0.1; done
	sleep 1
	measure trace-cmd
	kill -INT $pid; wait $pid
	rm -f /tmp/obs.*
done
kill %1 %2 2>/dev/null

tickstat record -q -o "$OUT/small.dat" -- \
	sh -c 'spin -c 2 -n 2 -d 1 & pingpong -c 3 -d 0.5; wait' > /dev/null 2>&1
