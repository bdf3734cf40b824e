# load - every tick event on while all CPUs are loaded: six unpinned tasks
# that migrate between CPUs, a POSIX CPU timer, a frequency-mode perf event
# and a ping-pong of context switches, for about 3 s.
# Healthy: the kernel prints no warning (the runner fails the boot on
# WARNING, BUG, Oops or Call Trace), no event is lost, and every isolated
# CPU ticks while shared, for reasons tickstat names.
scenario_load() {
	record 4 -- sh -c 'taskset -c 0-3 spin -n 6 -d 3 &
		cputimer -c 1 -k itimer -d 2 -a 1 > /dev/null &
		taskset -c 0-3 perf-freq -d 1 &
		pingpong -c 3 -d 2 &
		wait'
}
