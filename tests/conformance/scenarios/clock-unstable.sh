# clock-unstable - a task runs alone on CPU 1 (its tick stops); the test
# module (mode=clock_unstable) marks the TSC unstable, as the clocksource
# watchdog does when the TSC drifts: sched_clock stops being stable, and the
# kernel sets the global CLOCK_UNSTABLE dependency for the rest of the boot
# (kernel/sched/clock.c, __clear_sched_clock_stable()).  The module waits
# 0.7 s, then the task is killed: CPU 1 goes idle, where dependencies do not
# keep the tick.  The command outlasts the window (loc-delta then counts LOC
# up to its end): Debian's 6.1 takes 0.6 s to load the module and 0.5 s more
# to return from insmod.  A boot of its own: nothing clears the bit.
# Healthy: CPU 1's tick runs from the set (the module's kprobe on
# tick_nohz_dep_set() says when) until the task ends, held by CLOCK_UNSTABLE
# (GLOBAL scope), one decision per tick, as many ticks as LOC counts.
scenario_clock_unstable() {
	dmesg -c > /dev/null
	record 4 -- sh -c 'spin -c 1 -d 5 & sleep 0.3
		taskset -c 0 insmod /job/tick_test.ko mode=clock_unstable ms=700
		kill $!; wait; sleep 10'
	dmesg > "$DIR/dmesg.txt"
	rmmod tick_test
	report_range clock_unstable
}
