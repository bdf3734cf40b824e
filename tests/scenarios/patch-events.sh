#!/bin/sh
# patch-events.sh - guest side of tests/guest/patch-events.test: cause each
# traced behaviour in turn, with every tick event of the series enabled, and
# leave the raw trace in $OUT/trace.txt. Phases are marked in the trace.
set -eu
t=/sys/kernel/tracing
mark() { echo "phase $1" > $t/trace_marker; }

echo 0 > $t/tracing_on
echo 4096 > $t/buffer_size_kb
for e in tick_stop tick_retain tick_restart tick_dep_set tick_dep_clear; do
	echo 1 > $t/events/timer/$e/enable
done
echo 1 > $t/tracing_on

# Two CFS tasks on CPU 2: SCHED (CFS) at CPU scope, then one leaves.
mark sched-cfs
spin -c 2 -d 1.0 & spin -c 2 -d 0.5 -D 0.2 & wait

# Two tasks on CPU 1, then one leaves: the tick stops with the events on;
# 0.5 s later a task joins: the restart carries the stopped duration.
mark restart
spin -c 1 -d 1.2 & spin -c 1 -d 0.2 & spin -c 1 -d 0.2 -D 0.7 & wait

# POSIX CPU timers: process scope (setitimer) and task scope.
mark posix-itimer
cputimer -c 3 -k itimer -d 1.0 -a 0.5 > $OUT/itimer.pid
mark posix-thread
cputimer -c 3 -k thread -d 1.0 -a 0.5 > $OUT/thread.pid

# A frequency-mode perf event anywhere: PERF_EVENTS at global scope.
mark perf
spin -c 1 -d 1.0 & perf-freq -c 0 -d 0.5 > $OUT/perf.pid; wait
mark end

echo 0 > $t/tracing_on
cat $t/trace > $OUT/trace.txt
cat $t/per_cpu/cpu*/stats | grep -i overrun > $OUT/overruns.txt
