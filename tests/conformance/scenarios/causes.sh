# causes - what runs on the isolated CPUs besides their tasks, each made on
# purpose and counted without tickstat: work (5 writes to vm.stat_refresh
# from CPU 0: the kernel runs refresh_vm_stats on every CPU, so 5 times on
# CPU 1, queued from CPU 0), an hrtimer (25 sleeps of 20 ms on CPU 2 with
# kernel.timer_migration at 0: hrtimer_wakeup there; with migration on, the
# kernel queues a nohz_full CPU's unpinned timers on a housekeeping CPU), a
# device interrupt (ttyS0's IRQ affined to CPU 3, then
# lines on the console; its /proc/interrupts count on CPU 3 before and
# after).
# Healthy: tickstat names each cause on its CPU, with the count made.
scenario_causes() {
	irq=$(awk '/ttyS0/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
	note irq "$irq"
	note refreshes 5
	note sleeps 25
	echo 3 > "/proc/irq/$irq/smp_affinity_list"
	# x86 moves the effective affinity at the next interrupt: make it now
	echo "causes: ttyS0 interrupts to CPU 3" > /dev/console
	sleep 0.2
	cat "/proc/irq/$irq/effective_affinity_list" > "$DIR/irq-effective" 2>/dev/null
	migration=$(cat /proc/sys/kernel/timer_migration)
	echo 0 > /proc/sys/kernel/timer_migration
	record 4 -- sh -c "
		for i in 1 2 3 4 5; do echo 1 > /proc/sys/vm/stat_refresh; done
		taskset -c 2 sh -c 'i=0; while [ \$i -lt 25 ]; do usleep 20000; i=\$((i + 1)); done'
		awk '\$1 == \"$irq:\" { print \$5 }' /proc/interrupts > $DIR/irq-before
		for i in 1 2 3 4 5 6 7 8 9 10; do
			echo \"causes: a console line to interrupt CPU 3, number \$i\" > /dev/console
			usleep 20000
		done
		awk '\$1 == \"$irq:\" { print \$5 }' /proc/interrupts > $DIR/irq-after"
	echo "$migration" > /proc/sys/kernel/timer_migration
	echo 0-3 > "/proc/irq/$irq/smp_affinity_list"
}
