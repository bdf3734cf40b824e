# scale-guest.sh - guest side of tests/bench/scale: one boot, one size.
# The host puts SECS, SHORT, RATE, THREADS, MID_SECS (0, or SECS - 6 - 1:
# the span inside each long run's window whose interrupts are counted, by
# a sampler on CPU 0 whose instructions then count too) before it.
#
# The workload alone first (the baseline), then three recorders one after
# the other, each for SECS seconds and again for SHORT seconds (what is
# left when the long run's extra events are taken away is the recorder's
# cost per event), each while the same workload runs: churn wakes every
# CPU but 0 RATE times a second, among THREADS idle threads, from before
# the recorder starts until it has ended.  Each recorder records the same
# events on the same CPUs into a file, from CPU 0, under rusage (its CPU
# time, its peak memory, when it was started: the snapshot's latency is
# the time from there to the window's start; and the instructions CPU 0
# ran meanwhile, under tests/bench/insncount.c).
set -u
# the script's own commands (cat, kill, wait) stay on CPU 0 too
taskset -p -c 0 $$ > /dev/null
last=$(($(grep -c ^processor /proc/cpuinfo) - 1))
cpus=1-$last
t=/sys/kernel/tracing
# what tickstat record --no-causes records, for trace-cmd: the tick's own
# hrtimer expiries only (tickstat's filter, session.c setup_events()), or
# trace-cmd records every expiry, 80200 more events in one boot's 10 s at
# 64 vCPUs and 200/s, and costs less per event (docs/performance.md)
# (as tools/tickstat/src/ksym.c: tick_sched_timer up to 6.8, where
# tick_nohz_handler is the low-resolution handler, tick_nohz_handler from 6.9)
tick_fn=$(awk '$3 == "tick_sched_timer" { s = $1 } $3 == "tick_nohz_handler" { h = $1 }
	END { print s ? s : h }' /proc/kallsyms)
if [ -z "$tick_fn" ] || [ "$tick_fn" = 0000000000000000 ]; then
	echo "scale-guest: no tick_sched_timer nor tick_nohz_handler in /proc/kallsyms" >&2
	exit 1
fi
echo "$tick_fn" > "$OUT/tick-fn"
ev="-e timer:tick_stop -e timer:hrtimer_expire_entry -f 'function == 0x$tick_fn'"
ev="$ev -e sched:sched_switch"
for e in tick_retain tick_restart tick_dep_set tick_dep_clear tick_dep_sched; do
	[ -d $t/events/timer/$e ] && ev="$ev -e timer:$e"
done
echo "$last" > "$OUT/monitored-cpus"
grep -c . /proc/kallsyms > /dev/null
# trace-cmd gets tickstat record's default buffer for this many CPUs:
# 64 MiB in all, 1 to 4 MiB a CPU
kb=$((65536 / (last + 1)))
[ "$kb" -gt 4096 ] && kb=4096
[ "$kb" -lt 1024 ] && kb=1024

# measure NAME COMMAND...: COMMAND under rusage on CPU 0, beside the workload
measure() {
	name=$1
	shift
	taskset -c 0 churn -c "$cpus" -r "$RATE" -d 3600 -t "$THREADS" > "$OUT/$name.churn" &
	churn=$!
	sleep 1
	echo "tasks: $(ls /proc | grep -c '^[0-9]') processes, $(cat /proc/loadavg)" \
		> "$OUT/$name.tasks"
	cat /proc/interrupts > "$OUT/$name.irq-before"
	# inside the window of a long run (it starts within 5 s, lasts SECS):
	# the interrupts of MID_SECS seconds from 6 s on, setting up left out
	sampler=
	if [ "$MID_SECS" -gt 0 ] && [ "$name" = "${name%-short}" ]; then
		taskset -c 0 sh -c "sleep 6; cat /proc/interrupts > '$OUT/$name.irq-mid1';
			sleep $MID_SECS; cat /proc/interrupts > '$OUT/$name.irq-mid2'" &
		sampler=$!
	fi
	taskset -c 0 rusage "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"
	cat /proc/interrupts > "$OUT/$name.irq-after"
	[ -n "$sampler" ] && wait "$sampler"
	kill "$churn"
	wait
}

# each recorder as a script: sh /tmp/NAME.sh SECONDS FILE records into FILE.dat
cat > /tmp/record.sh <<EOT
exec tickstat record -q --no-causes --no-doctor -C $cpus -d "\$1" -o "\$2.dat" --json="\$2.json"
EOT
# the monitor at its default interval, as it runs in production (10 s:
# polls 1 s apart, tools/tickstat/src/watch.h)
cat > /tmp/monitor.sh <<EOT
exec tickstat monitor -q --no-causes -C $cpus -d "\$1" -i 10s --textfile "\$2.prom"
EOT
cat > /tmp/monitor-o.sh <<EOT
exec tickstat monitor -q --no-causes -C $cpus -d "\$1" -i 10s --textfile "\$2.prom" -o "\$2.dat"
EOT
# on every CPU, as tickstat records (-C names the CPUs it reports; events
# of all CPUs are recorded either way: tickstat-record(1)); with a mask of
# CPUs 1 and up, trace-cmd left out CPU 0's, 70% of tickstat's events at
# 8 vCPUs and 20/s
cat > /tmp/trace-cmd.sh <<EOT
exec trace-cmd record -q -b $kb $ev -o "\$2.dat" sleep "\$1"
EOT

# the first recording of a boot pays for what later ones find warm (the
# page cache, the kernel's first allocations; measured 1.33 s of CPU for
# the first and 0.96 s for the same command last, at 64 vCPUs): each
# recorder runs once for a second before anything is measured
for r in record monitor monitor-o trace-cmd; do
	sh /tmp/$r.sh 1 /tmp/warm > /dev/null 2> "$OUT/warm-$r.err"
done
rm -f /tmp/warm.*

measure none sleep "$SECS"
for r in record monitor monitor-o trace-cmd; do
	measure "$r" sh /tmp/$r.sh "$SECS" "$OUT/$r"
	measure "$r-short" sh /tmp/$r.sh "$SHORT" "$OUT/$r-short"
done
