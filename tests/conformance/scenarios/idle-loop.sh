# idle-loop - CPU 2 is idle, a dynticks-idle CPU (nohz=on, no nohz_full:
# leaving idle restarts its tick).  The test module (mode=idle_loop cpu=2)
# runs an empty work item there every 20 ms for 1 s and counts the calls of
# tick_nohz_idle_retain_tick() on CPU 2: without a cpuidle driver, the idle
# loop keeps a running tick until a tick has passed in idle.
# Healthy (patched kernel): one tick_retain IDLE_LOOP per call counted, each
# holding the tick until about the next tick, which 6.1 does not trace.
scenario_idle_loop() {
	dmesg -c > /dev/null
	record 2 -- taskset -c 0 insmod /job/tick_test.ko mode=idle_loop cpu=2 ms=1000
	dmesg > "$DIR/dmesg.txt"
	rmmod tick_test
	report_range idle_loop
}
