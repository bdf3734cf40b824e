# clock-unstable - a task runs alone on CPU 1 (its tick stops); the test
# module (mode=clock_unstable) marks the TSC unstable, as the clocksource
# watchdog does when the TSC drifts: sched_clock stops being stable, and the
# kernel sets the global CLOCK_UNSTABLE dependency for the rest of the boot
# (kernel/sched/clock.c, __clear_sched_clock_stable()).  The module waits
# 1 s, then the task is killed: CPU 1 goes idle, where dependencies do not
# keep the tick.  A boot of its own: nothing clears the bit.
# Healthy: CPU 1's tick runs from the set (the module's kprobe on
# tick_nohz_dep_set() says when) until the task ends, held by CLOCK_UNSTABLE
# (GLOBAL scope), one decision per tick, as many as LOC counts.
scenario_clock_unstable() {
	dmesg -c > /dev/null
	record 3 -- sh -c 'spin -c 1 -d 60 & sleep 0.3
		taskset -c 0 insmod /job/tick_test.ko mode=clock_unstable ms=1000
		kill $!; wait'
	dmesg > "$DIR/dmesg.txt"
	rmmod tick_test
	report_range clock_unstable
}
