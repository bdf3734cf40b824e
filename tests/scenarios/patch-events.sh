#!/bin/sh
# patch-events.sh - guest side of tests/guest/patch-events.test: cause each
# traced behaviour in turn and leave the raw traces in $OUT.
#
# 1. Every tick event of the series on, in the top buffer, phases marked:
#    trace.txt (text) and trace.dat (the same buffer, for exact timestamps).
# 2. stress: dependencies set and cleared from other CPUs for 15 s while
#    CPUs 1-3 take interrupts, then 2 s of the race at its worst; tick_stop
#    only, in its own buffer, counted here (stress.txt, race.txt: refusals,
#    and those with no dependency bit at all).
# 3. idle: the idle loop's decisions with kprobes on them, in three phases:
#    no cpuidle driver, and the test module's driver with the menu governor
#    (state 0 halting, then polling): idle-PHASE.txt.
set -eu
t=/sys/kernel/tracing
mark() { echo "phase $1" > $t/trace_marker; }
overruns() { cat "$1"/per_cpu/cpu*/stats | grep -i overrun; }

echo 0 > $t/tracing_on
echo 4096 > $t/buffer_size_kb
for e in tick_stop tick_retain tick_restart tick_dep_set tick_dep_clear tick_dep_sched; do
	echo 1 > $t/events/timer/$e/enable
done
echo 1 > $t/tracing_on

# Two CFS tasks on CPU 2: SCHED (CFS) at CPU scope, then one leaves.
mark sched-cfs
spin -c 2 -d 1.0 & spin -c 2 -d 0.5 -D 0.2 & wait

# Two tasks on CPU 1, then one leaves: the tick stops with the events on;
# 0.5 s later a task joins: the restart ends a known stopped interval.
mark restart
spin -c 1 -d 1.2 & spin -c 1 -d 0.2 & spin -c 1 -d 0.2 -D 0.7 & wait

# A deadline task joins two CFS tasks on CPU 3: the SCHED bit is already
# set, its reason changes to DEADLINE (and back while it is throttled).
# Admission control is off for the run so that the task may be pinned.
mark sched-change
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
spin -c 3 -n 2 -d 1.0 & spin -c 3 -d 0.3 -D 0.3 -P deadline & wait
echo "$rt" > /proc/sys/kernel/sched_rt_runtime_us

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
overruns $t > $OUT/overruns.txt
# extract reads the buffer away: after the text copy
trace-cmd extract -o $OUT/trace.dat > /dev/null 2>&1
for e in tick_stop tick_retain tick_restart tick_dep_set tick_dep_clear tick_dep_sched; do
	echo 0 > $t/events/timer/$e/enable
done

# 2. Dependencies set and cleared from other CPUs for 15 s: every refusal
# must name the bits it was refused for.  For 10 s depstorm's threads spin
# on CPUs 1-3 while its main thread toggles the global PERF_EVENTS and the
# process's POSIX_TIMER; then for 5 s the test module (mode=depstorm)
# toggles PERF_EVENTS at CPU scope on CPUs 1-3 from CPU 0 (together on
# CPU 0, the kthread starved depstorm down to 10-28 toggles).  Then 2 s of
# the same race at its worst (mode=race): a watchpoint clears a task's
# POSIX_TIMER bit right after the tick code on its CPU has read it.
s=$t/instances/stress
mkdir $s
echo 8192 > $s/buffer_size_kb
echo 1 > $s/events/timer/tick_stop/enable

# refusals NAME: count the refusals in the buffer, and those with no bit
refusals() {
	echo 0 > $s/tracing_on
	awk '/ tick_stop: success=0 / {
			n[$2]++
			if (/ global= cpu= task= process=$/) { bad++; if (bad <= 20) print > "'"$OUT/$1-empty.txt"'" }
		}
		END { for (c in n) print "refusals", c, n[c]; print "empty", bad + 0 }' \
		$s/trace > "$OUT/$1.txt"
	overruns $s > "$OUT/$1-overruns.txt"
	echo > $s/trace
	echo 1 > $s/tracing_on
}

dmesg -c > /dev/null
depstorm -d 10 1 2 3 > $OUT/depstorm.txt
taskset -c 0 insmod /job/tick_test.ko mode=depstorm ms=5000
rmmod tick_test
refusals stress
spin -c 1 -d 3 &
sleep 0.3
taskset -c 0 insmod /job/tick_test.ko mode=race pid=$! ms=2000
rmmod tick_test
wait
refusals race
dmesg | grep 'tick_test: \(depstorm\|race\) ' > $OUT/stress-module.txt || true
echo 0 > $s/events/timer/tick_stop/enable
rmdir $s

# 3. The idle loop's decisions, and an independent count of them: kprobes
# on both decisions and on the governor's question, and a kretprobe on
# can_stop_idle_tick() (0: refused), by whatever name the compiler gave
# that static function (can_stop_idle_tick.constprop.0, say).
can_stop=$(awk '$3 ~ /^can_stop_idle_tick($|\.)/ { print $3; exit }' /proc/kallsyms)
[ -n "$can_stop" ] || { echo "no can_stop_idle_tick function in this kernel (inlined?)" >&2; exit 1; }
echo "can_stop_idle_tick=$can_stop" > $OUT/idle-symbols.txt
cat >> $t/kprobe_events <<EOF
p:tt/stop_in tick_nohz_idle_stop_tick
r:tt/stop_out tick_nohz_idle_stop_tick
p:tt/retain_in tick_nohz_idle_retain_tick
r:tt/retain_out tick_nohz_idle_retain_tick
p:tt/query_in tick_nohz_get_sleep_length
r:tt/query_out tick_nohz_get_sleep_length
r:tt/can_stop $can_stop ret=\$retval:u8
EOF
i=$t/instances/idle
mkdir $i
echo 4096 > $i/buffer_size_kb
echo 0 > $i/tracing_on
echo 1 > $i/events/tt/enable
for e in tick_stop tick_retain tick_restart; do
	echo 1 > $i/events/timer/$e/enable
done

# idle_phase NAME: 2 s of idle periods on every CPU: CPU 0 runs the
# harness, CPU 1 two tasks that sleep often (idle with the tick running),
# CPU 2 one task that sleeps 1 ms every 10 ms, CPU 3 is idle.
idle_phase() {
	echo > $i/trace
	echo 1 > $i/tracing_on
	spin -c 1 -n 2 -d 2 -p 0.003 & spin -c 2 -d 2 -p 0.01 & sleep 2; wait
	echo 0 > $i/tracing_on
	cat $i/trace > "$OUT/idle-$1.txt"
	overruns $i > "$OUT/idle-$1-overruns.txt"
}

# module_cpuidle POLL: the test module's cpuidle driver, registered until
# insmod returns; the phase runs once it is in place
module_cpuidle() {
	dmesg -c > /dev/null
	taskset -c 0 insmod /job/tick_test.ko mode=cpuidle poll="$1" ms=3000 &
	until dmesg | grep -q 'tick_test: cpuidle armed'; do sleep 0.05; done
	cpuidle > "$OUT/idle-poll$1-cpuidle.txt"
}

# cpuidle: the driver and governor the idle loop uses now
cpuidle() {
	for f in current_driver current_governor_ro; do
		echo "$f=$(cat /sys/devices/system/cpu/cpuidle/$f 2>&1)"
	done
}

cpuidle > $OUT/idle-nodriver-cpuidle.txt
idle_phase nodriver
module_cpuidle 0
idle_phase halt
wait
rmmod tick_test
module_cpuidle 1
idle_phase poll
wait
rmmod tick_test
echo 0 > $i/events/tt/enable
rmdir $i
echo > $t/kprobe_events
