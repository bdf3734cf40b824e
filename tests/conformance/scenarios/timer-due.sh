# timer-due - a task runs alone on CPU 2; the test module (mode=timer) arms a
# timer that re-arms itself every jiffy there, and a second task joins
# for 50 ms, five times, so that the tick runs.
# Healthy (patched kernel): when the second task leaves, the next timer is
# within one tick, so the tick is kept with the reason TIMER_DUE, which 6.1
# does not trace: once for each decision that the module counted keeping
# the tick while its timer was due within a tick (dmesg; none: the
# condition was not produced and the scenario is skipped).
scenario_timer_due() {
	module_with_running_tick timer
}
