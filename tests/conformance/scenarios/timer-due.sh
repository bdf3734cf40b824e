# timer-due - a task runs alone on CPU 2; the test module (mode=timer) arms a
# timer that re-arms itself every jiffy there, and a second task joins
# for 50 ms, five times, so that the tick runs.
# Healthy (patched kernel): when the second task leaves, the next timer is
# within one tick, so the tick is kept with the reason TIMER_DUE, which 6.1
# does not trace.
scenario_timer_due() {
	module_with_running_tick timer
}
