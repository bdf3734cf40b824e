# nohz-idle - the same kernel booted without nohz_full= (idle dynticks
# only): a task runs on CPU 1 for 1.5 s, CPUs 2 and 3 stay idle.
# Healthy: the busy CPU ticks all along (NOT_NOHZ_FULL), the idle CPUs stop
# the tick, and on the patched kernel leaving idle restarts a stopped tick
# with the cause IDLE_EXIT.
scenario_nohz_idle() {
	record 3 -- spin -c 1 -d 1.5 -D 0.5
}
