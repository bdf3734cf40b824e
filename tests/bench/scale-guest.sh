# scale-guest.sh - guest side of tests/bench/scale: one boot, one size.
# The host puts SECS, RATE, THREADS and MASK (CPUs 1 to the last, as
# tracing_cpumask writes it) before it.
#
# A baseline, then three recorders one after the other, each while the same workload runs:
# churn wakes every CPU but 0 RATE times a second, among THREADS idle
# threads.  Each recorder records the same events on the same CPUs into a
# file, for SECS seconds, from CPU 0, under rusage (its CPU time and peak
# memory, and when it was started: the snapshot's latency is the time
# from there to the window's start).
set -u
last=$(($(grep -c ^processor /proc/cpuinfo) - 1))
cpus=1-$last
t=/sys/kernel/tracing
# what tickstat record --no-causes records, for trace-cmd
ev="-e timer:tick_stop -e timer:hrtimer_expire_entry -e sched:sched_switch"
for e in tick_retain tick_restart tick_dep_set tick_dep_clear tick_dep_sched; do
	[ -d $t/events/timer/$e ] && ev="$ev -e timer:$e"
done
echo "$last" > "$OUT/monitored-cpus"
grep -c . /proc/kallsyms > /dev/null

# measure NAME COMMAND...: COMMAND under rusage on CPU 0, beside the workload
measure() {
	name=$1
	shift
	taskset -c 0 churn -c "$cpus" -r "$RATE" -d $((SECS + 3)) -t "$THREADS" \
		> "$OUT/$name.churn" &
	sleep 1
	echo "tasks: $(ls /proc | grep -c '^[0-9]') processes, $(cat /proc/loadavg)" \
		> "$OUT/$name.tasks"
	cat /proc/interrupts > "$OUT/$name.irq-before"
	taskset -c 0 rusage "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
	cat /proc/interrupts > "$OUT/$name.irq-after"
	wait
}

# the first recording of a boot pays for what later ones find warm (the
# page cache, the kernel's first allocations; measured 1.33 s of CPU for
# the first and 0.96 s for the same command last, at 64 vCPUs): each
# recorder runs once for a second before anything is measured
tickstat record -q --no-causes --no-doctor -C "$cpus" -d 1 -o /tmp/warm.dat > /dev/null
tickstat monitor -q --no-causes -C "$cpus" -d 1 -i 1s --textfile /tmp/warm.prom \
	-o /tmp/warm.dat
trace-cmd record -q -M "$MASK" $ev -o /tmp/warm.dat sleep 1 > /dev/null 2>&1
rm -f /tmp/warm.*

# the same workload with no recorder: what CPU 0 runs anyway (its
# instructions, under tests/bench/insncount.c, are subtracted from the
# recorders')
measure none sleep "$SECS"
measure record tickstat record -q --no-causes --no-doctor -C "$cpus" -d "$SECS" \
	-o "$OUT/record.dat" --json="$OUT/record.json"
measure monitor tickstat monitor -q --no-causes -C "$cpus" -d "$SECS" -i 1s \
	--textfile "$OUT/monitor.prom" -o "$OUT/monitor.dat"
# trace-cmd gets tickstat record's default buffer for this many CPUs:
# 64 MiB in all, 1 to 4 MiB a CPU
kb=$((65536 / (last + 1)))
[ "$kb" -gt 4096 ] && kb=4096
[ "$kb" -lt 1024 ] && kb=1024
measure trace-cmd sh -c "trace-cmd record -q -b $kb -M $MASK $ev -o '$OUT/trace-cmd.dat' \\
	sleep $SECS"
