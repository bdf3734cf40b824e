#!/bin/sh
# kprobe-toggle.sh - reproducer, without tickstat, for the guest crash seen
# with tickstat's probes on debian-6.1 (docs/tickstat.md, "Caution"): kprobe
# events on functions of kernel/time/tick-sched.c are created, enabled for
# 0.1 s and removed, $ROUNDS times, while a task comes and goes on each
# nohz_full CPU.  Not part of make check.
#   guest-image/run-guest --tree debian-6.1 --timeout 500 \
#       --script tests/scenarios/kprobe-toggle.sh
# With --tcg-thread single (all vCPUs on one host thread) it survives: the
# crash is multi-threaded TCG racing the kernel's live text patching.
# Set PROBES (function names) and ROUNDS in the environment of the script
# to change them, and OPTIMIZE (0 or 1) to set
# /proc/sys/debug/kprobes-optimization first; each round is logged to the
# console.
set -u
t=/sys/kernel/tracing
PROBES=${PROBES:-"tick_nohz_restart_sched_tick tick_nohz_dep_set_cpu tick_nohz_dep_set tick_nohz_dep_clear_cpu"}
ROUNDS=${ROUNDS:-30}
if [ -n "${OPTIMIZE:-}" ]; then
	echo "$OPTIMIZE" > /proc/sys/debug/kprobes-optimization
fi
echo "kprobe-toggle: kprobes-optimization $(cat /proc/sys/debug/kprobes-optimization)"
for c in 1 2 3; do
	(while :; do spin -c "$c" -d 0.02 > /dev/null 2>&1; sleep 0.01; done) &
done
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	for p in $PROBES; do echo "p:toggle/$p $p" >> $t/kprobe_events; done
	echo 1 > $t/events/toggle/enable
	sleep 0.1
	echo 0 > $t/events/toggle/enable
	for p in $PROBES; do echo "-:toggle/$p" >> $t/kprobe_events; done
	i=$((i + 1))
	echo "kprobe-toggle: round $i" > /dev/kmsg
done
echo "kprobe-toggle: $i rounds"
kill $(jobs -p)
