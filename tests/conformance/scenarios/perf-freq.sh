# perf-freq - a frequency-mode perf event (a context-switch counter at
# 100 Hz) opened on CPU 0 for 1 s, while a task runs on each isolated CPU.
# Healthy: PERF_EVENTS at GLOBAL scope holds the tick on every busy isolated
# CPU, and the tick stops again once the event is closed.
scenario_perf_freq() {
	record 4 -- sh -c 'spin -c 1 -d 2.7 & spin -c 2 -d 2.7 & spin -c 3 -d 2.7 &
		sleep 0.5; perf-freq -c 0 -d 1; wait'
}
