# timer-softirq - a task runs alone on CPU 2; the test module
# (mode=timer_softirq, a kprobe at interrupt exit) marks the timer softirq
# pending after softirqs ran, and a second task joins for 50 ms, five times,
# so that the tick runs.
# Healthy (patched kernel): when the second task leaves, the running tick is
# kept with tick_retain TIMER_SOFTIRQ, which 6.1 does not trace.
scenario_timer_softirq() {
	module_with_running_tick timer_softirq hits=1000
}
