#!/bin/sh
# cost-guest.sh - guest side of tests/bench/cost: the three workloads of
# costloop, REPS times each, with the tick events off and then on (all of
# tick_stop, tick_retain, tick_restart, tick_dep_set and tick_dep_clear the
# kernel has).  One line per run:
#   RESULT WORKLOAD off|on ITERATIONS NANOSECONDS EVENTS
# EVENTS counts the trace events written on the workload's CPUs (0 when off).
# usage: cost-guest.sh REPS N_SYSCALL N_SWITCH N_IDLE
set -eu
reps=$1 n_syscall=$2 n_switch=$3 n_idle=$4
t=/sys/kernel/tracing
have=""
for e in tick_stop tick_retain tick_restart tick_dep_set tick_dep_clear; do
	[ -d $t/events/timer/$e ] && have="$have $e"
done
echo "EVENTS$have"
echo 0 > $t/tracing_on
echo 16384 > $t/buffer_size_kb

# events CPU...: entries written on those CPUs since the buffer was cleared
events() {
	n=0
	for c in "$@"; do
		for v in $(awk '/^(entries|overrun):/ {print $2}' $t/per_cpu/cpu$c/stats); do
			n=$((n + v))
		done
	done
	echo $n
}

# run WORKLOAD off|on "CPUS" COSTLOOP-ARGS...
run() {
	w=$1 mode=$2 cpus=$3
	shift 3
	if [ "$mode" = on ]; then
		echo > $t/trace
		for e in $have; do echo 1 > $t/events/timer/$e/enable; done
		echo 1 > $t/tracing_on
	fi
	set -- $(costloop "$@")
	if [ "$mode" = on ]; then
		echo 0 > $t/tracing_on
		for e in $have; do echo 0 > $t/events/timer/$e/enable; done
		# shellcheck disable=SC2086
		n=$(events $cpus)
	else
		n=0
	fi
	echo "RESULT $w $mode $3 $4 $n"
}

sleep 1
# warm up: page in the program, settle the CPUs' ticks
costloop syscall -n 1000 -c 1 > /dev/null
costloop switch -n 1000 -c 1 > /dev/null
costloop idle -n 1000 -c 2 -C 3 > /dev/null
rep=0
while [ $rep -lt "$reps" ]; do
	for mode in off on; do
		run syscall $mode "1" syscall -n "$n_syscall" -c 1
		run switch $mode "1" switch -n "$n_switch" -c 1
		run idle $mode "2 3" idle -n "$n_idle" -c 2 -C 3
	done
	rep=$((rep + 1))
done
