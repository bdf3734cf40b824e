#!/bin/sh
# fixture.sh - guest side of tests/fixtures/capture: short recordings for the
# host-side tests.  A lone task on CPU 1, two tasks on CPU 2 for 0.5 s, a
# POSIX CPU timer on CPU 3 armed 0.3 s, recorded by tickstat (rec.dat) and
# trace-cmd (trace.dat, its default version 7 with zstd) at once; and a
# tickstat recording that lost events on purpose (lost.dat).
set -eu
t=/sys/kernel/tracing
spin -c 1 -d 60 &
lone=$!
sleep 0.3
ev="-e timer:tick_stop -e timer:hrtimer_expire_entry -e sched:sched_switch"
for e in tick_retain tick_restart tick_dep_set tick_dep_clear tick_dep_sched; do
	[ -d $t/events/timer/$e ] && ev="$ev -e timer:$e"
done
trace-cmd record -q -C mono $ev -o "$OUT/trace.dat" > /dev/null 2>&1 &
tc=$!
# trace-cmd takes a while to start under emulation: wait until it traces
until [ "$(cat $t/events/timer/tick_stop/enable)" = 1 ]; do sleep 0.1; done
sleep 0.5
# the shell on CPU 0: only the workloads go to the isolated CPUs
tickstat record -q -o "$OUT/rec.dat" -- taskset -c 0 sh -c \
	'spin -c 2 -n 2 -d 0.5; cputimer -c 3 -k itimer -d 0.6 -a 0.3 > /dev/null' > /dev/null
kill -INT $tc
wait $tc || true	# its exit status after SIGINT varies
tickstat record -q -b 4 -C 2 -o "$OUT/lost.dat" -- pingpong -c 2 -d 0.2 > /dev/null
kill $lone
wait
