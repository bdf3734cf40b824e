# timekeeping - CPU 0 keeps the time for the nohz_full CPUs 1-3
# (tick_do_timer_cpu), so its tick never stops: the kernel refuses each idle
# entry there (can_stop_idle_tick(): TIMEKEEPING).  The test module
# (mode=timekeeping cpu=0 hits=3, loaded from CPU 1) counts CPU 0's
# idle-entry decisions (calls of tick_nohz_idle_stop_tick()) for 1 s and
# marks the timer softirq pending at the first three.
# Healthy: as many refusals in that second as the module counted, TIMEKEEPING
# but for the three: SOFTIRQ on the patched kernel (each with the kernel's
# warning), IDLE_REFUSED with tickstat's probes on a stock kernel (a pending
# softirq on the timekeeper: the probes cannot tell which refused).
scenario_timekeeping() {
	dmesg -c > /dev/null
	tickstat_cpus=0 record 2 -- \
		taskset -c 1 insmod /job/tick_test.ko mode=timekeeping cpu=0 hits=3 ms=1000
	dmesg > "$DIR/dmesg.txt"
	rmmod tick_test
	report_range timekeeping
}
