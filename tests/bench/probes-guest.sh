#!/bin/sh
# probes-guest.sh - guest side of tests/bench/probes, on one of Debian's own
# kernels (no patched events, so tickstat's probes are what it places).
#
# 1. Observer effect: timer interrupts (LOC) per CPU over 5 s with one busy
#    task on isolated CPU 1 and, on CPU 2, one that sleeps 1 ms every 100 ms;
#    no recorder, tickstat record --probes=off, and --probes=on; ROUNDS times,
#    interleaved.  One line per measurement:
#      OBSERVER none|off|on LOC0 LOC1 LOC2 LOC3
# 2. Cost per probe hit: costloop's itimer loop on CPU 1 (each iteration arms
#    a process-wide CPU timer, which sets the POSIX_TIMER dependency through
#    a probed function, and disarms it) under tickstat record --probes=off
#    and =on, ROUNDS times each, alternating; the hits of tickstat's probes
#    during the loop (but the idle-entry pair) come from
#    /sys/kernel/tracing/kprobe_profile.
#    One line per run:
#      LOOP off|on ITERATIONS NANOSECONDS HITS
# usage: probes-guest.sh ROUNDS N_LOOP
set -u
rounds=$1 n_loop=$2
t=/sys/kernel/tracing

# the probe hits so far (tickstat's are the only kprobes in the guest),
# but for the idle-entry pair: other CPUs' idle entries hit those, not the
# loop on CPU 1 (busy, it never enters idle)
hits() { awk '$1 !~ /\/idle_(check|ret)$/ {n += $2} END {print n + 0}' $t/kprobe_profile; }

# start_recorder off|on: tickstat record in the background, $pid; back once
# its instance (and, with probes, its probes) exist
start_recorder() {
	tickstat record -q --probes "$1" -o /tmp/probes.dat > /dev/null 2> /tmp/probes.err &
	pid=$!
	i=0
	until [ -d $t/instances/tickstat_$pid ] &&
	      { [ "$1" = off ] || grep -q "^p:tickstat_$pid/" $t/kprobe_events; }; do
		i=$((i + 1))
		if [ $i -gt 300 ]; then
			echo "probes-guest: tickstat --probes $1 did not start" >&2
			cat /tmp/probes.err >&2
			exit 1
		fi
		sleep 0.1
	done
	sleep 0.5
}

stop_recorder() {
	kill -INT $pid
	if ! wait $pid; then
		echo "probes-guest: tickstat --probes $1 failed" >&2
		cat /tmp/probes.err >&2
		exit 1
	fi
	rm -f /tmp/probes.dat
}

spin -c 1 -d 600 &
spin -c 2 -d 600 -p 0.1 &
sleep 1
# the measuring tools stay on CPU 0: on an isolated CPU they would be the
# interrupts they count
measure() { echo "OBSERVER $1 $(taskset -c 0 loc-delta sleep 5 | sed -n 's/^loc-delta: //p')"; }
r=0
while [ $r -lt "$rounds" ]; do
	measure none
	for mode in off on; do
		start_recorder $mode
		measure $mode
		stop_recorder $mode
	done
	r=$((r + 1))
done
kill %1 %2 2> /dev/null
wait

costloop itimer -n 1000 -c 1 > /dev/null      # warm up
r=0
while [ $r -lt "$rounds" ]; do
	for mode in off on; do
		start_recorder $mode
		h0=$(hits)
		set -- $(costloop itimer -n "$n_loop" -c 1)
		h1=$(hits)
		stop_recorder $mode
		echo "LOOP $mode $3 $4 $((h1 - h0))"
	done
	r=$((r + 1))
done
