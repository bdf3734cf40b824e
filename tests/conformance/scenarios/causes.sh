# causes - what runs on the isolated CPUs besides their tasks, each made on
# purpose and counted without tickstat: work (5 writes to vm.stat_refresh
# from CPU 0: the kernel runs refresh_vm_stats on every CPU, so 5 times on
# CPU 1, queued from CPU 0), IPIs (a task spinning alone on CPU 1 gets 100
# membarrier calls and 100 signals from CPU 0: a call function and a
# reschedule IPI each), a timer (the test module's rearm, armed on CPU 2
# from CPU 0 with add_timer_on(), then by itself every jiffy for 200 ms:
# its dmesg count), an hrtimer (25 sleeps of 20 ms on CPU 2 with
# kernel.timer_migration at 0: hrtimer_wakeup there, armed by the sleeping
# task; with migration on, the kernel queues a nohz_full CPU's unpinned
# timers on a housekeeping CPU), a device interrupt (ttyS0's IRQ affined to
# CPU 3, then 40 lines on the console: more interrupts there than the
# module's loading makes IPIs; its /proc/interrupts count on CPU 3 before
# and after).  /proc/interrupts is read inside the recording around
# the command (vectors-in-*) and outside it (vectors-out-*): each x86
# vector's count on each CPU lies between the two deltas.
# A tracing instance of its own records every timer_start and
# hrtimer_start on every CPU, unfiltered, around the recording
# (raw-timer-starts.txt): the independent count of the armings tickstat
# keeps, and the measure of what its filters leave out.
# Healthy: tickstat names each cause on its CPU, with the count made.

# raw_timer_starts on|off: the unfiltered instance
raw_timer_starts() {
	raw=/sys/kernel/tracing/instances/causes-raw
	if [ "$1" = on ]; then
		mkdir "$raw" || return
		echo mono > "$raw/trace_clock"
		echo 4096 > "$raw/buffer_size_kb"
		echo 1 > "$raw/events/timer/timer_start/enable"
		echo 1 > "$raw/events/timer/hrtimer_start/enable"
		echo 1 > "$raw/tracing_on"
		return
	fi
	echo 0 > "$raw/tracing_on"
	cat "$raw/trace" > "$DIR/raw-timer-starts.txt"
	for c in "$raw"/per_cpu/cpu*; do
		echo "${c##*/} $(grep -E '^(overrun|dropped events):' "$c/stats" | tr '\n' ' ')"
	done > "$DIR/raw-timer-starts.stats"
	rmdir "$raw"
}

scenario_causes() {
	irq=$(awk '/ttyS0/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
	note irq "$irq"
	note refreshes 5
	note sleeps 25
	note ipis 100
	echo 3 > "/proc/irq/$irq/smp_affinity_list"
	# x86 moves the effective affinity at the next interrupt: make it now
	echo "causes: ttyS0 interrupts to CPU 3" > /dev/console
	sleep 0.2
	cat "/proc/irq/$irq/effective_affinity_list" > "$DIR/irq-effective" 2>/dev/null
	# the formats of the events the causes read, for the host's fixtures
	for s in irq irq_vectors timer workqueue; do
		mkdir -p "$DIR/formats/$s"
		for e in /sys/kernel/tracing/events/$s/*/format; do
			[ -f "$e" ] || continue
			d=${e%/format}
			cp "$e" "$DIR/formats/$s/${d##*/}"
		done
	done
	migration=$(cat /proc/sys/kernel/timer_migration)
	echo 0 > /proc/sys/kernel/timer_migration
	dmesg -c > /dev/null
	raw_timer_starts on
	cp /proc/interrupts "$DIR/vectors-out-before"
	record 8 -- sh -c "
		cp /proc/interrupts $DIR/vectors-in-before
		for i in 1 2 3 4 5; do echo 1 > /proc/sys/vm/stat_refresh; done
		ipi -c 1 -n 100 -i 5 > $DIR/ipi.out
		insmod /job/tick_test.ko mode=timer cpu=2 ms=200
		taskset -c 2 sh -c 'echo \$\$ > $DIR/sleeper; i=0
			while [ \$i -lt 25 ]; do usleep 20000; i=\$((i + 1)); done'
		awk '\$1 == \"$irq:\" { print \$5 }' /proc/interrupts > $DIR/irq-before
		i=0
		while [ \$i -lt 40 ]; do
			echo \"causes: a console line to interrupt CPU 3, number \$i\" > /dev/console
			usleep 20000
			i=\$((i + 1))
		done
		awk '\$1 == \"$irq:\" { print \$5 }' /proc/interrupts > $DIR/irq-after
		cp /proc/interrupts $DIR/vectors-in-after"
	cp /proc/interrupts "$DIR/vectors-out-after"
	raw_timer_starts off
	dmesg > "$DIR/dmesg.txt"
	# unloaded only now: the recorder names the timer function from kallsyms at its end
	rmmod tick_test
	echo "$migration" > /proc/sys/kernel/timer_migration
	echo 0-3 > "/proc/irq/$irq/smp_affinity_list"
}
