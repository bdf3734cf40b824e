#!/bin/sh
# demo-guest.sh - the demo's job inside the guest: one busy task on CPU 1,
# two on CPU 2, CPU 3 idle, for 3 s with the tick events on; then per CPU
# the timer interrupts and the tick events seen, grouped by reason. On a
# stock kernel only tick_stop exists; the others are skipped.
set -eu
t=/sys/kernel/tracing
echo 0 > $t/tracing_on
echo > $t/trace
events="tick_stop tick_retain tick_restart tick_dep_set"
for e in $events; do
	[ -d $t/events/timer/$e ] && echo 1 > $t/events/timer/$e/enable
done
echo 1 > $t/tracing_on
loc-delta sh -c 'spin -c 1 -d 3 & spin -c 2 -n 2 -d 3 & wait' > /tmp/loc
echo 0 > $t/tracing_on
for e in $events; do
	[ -d $t/events/timer/$e ] && echo 0 > $t/events/timer/$e/enable
done
set -- $(sed 's/^loc-delta: //' /tmp/loc)
echo "timer interrupts in 3 s (LOC): CPU0 $1, CPU1 $2, CPU2 $3, CPU3 $4"
echo "tick events per CPU (numbers such as durations and callers left out):"
awk '/ tick_[a-z_]*: / {
	cpu = $0; sub(/.*\[/, "", cpu); sub(/\].*/, "", cpu)
	what = $0; sub(/.*: tick_/, "tick_", what)
	gsub(/ (stopped_ns|delta_ns|caller|target)=[^ ]*/, "", what)
	n["CPU" cpu + 0 "  " what]++ }
	END { for (k in n) printf "  %-72s %6d\n", k, n[k] }' $t/trace | sort
