#!/bin/sh
# demo-guest.sh - the demo's job inside the guest: one busy task on CPU 1,
# two on CPU 2, CPU 3 idle, for 3 s with timer:tick_stop on; then per CPU the
# timer interrupts and the tick_stop outcomes seen.
set -eu
t=/sys/kernel/tracing
echo 0 > $t/tracing_on
echo > $t/trace
echo 1 > $t/events/timer/tick_stop/enable
echo 1 > $t/tracing_on
loc-delta sh -c 'spin -c 1 -d 3 & spin -c 2 -n 2 -d 3 & wait' > /tmp/loc
echo 0 > $t/tracing_on
echo 0 > $t/events/timer/tick_stop/enable
set -- $(sed 's/^loc-delta: //' /tmp/loc)
echo "timer interrupts in 3 s (LOC): CPU0 $1, CPU1 $2, CPU2 $3, CPU3 $4"
echo "timer:tick_stop events per CPU and outcome:"
awk '/tick_stop:/ {
	cpu = $0; sub(/.*\[/, "", cpu); sub(/\].*/, "", cpu)
	what = $0; sub(/.*tick_stop: /, "", what)
	n["CPU" cpu + 0 "  " what]++ }
	END { for (k in n) printf "  %-50s %6d\n", k, n[k] }' $t/trace | sort
