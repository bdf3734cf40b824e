# nohz-idle - the same kernel booted without nohz_full= (idle dynticks
# only): a task runs on CPU 1 for 1.5 s, CPUs 2 and 3 stay idle; before it
# exits, the task closes 16 memfds, whose inodes are freed by RCU callbacks
# queued on CPU 1 (spin -r), so CPU 1 goes idle with callbacks pending.
# Healthy: the busy CPU ticks all along (NOT_NOHZ_FULL), the idle CPUs stop
# the tick, on the patched kernel leaving idle restarts a stopped tick with
# the cause IDLE_EXIT, and idle entry on CPU 1 keeps it for RCU.
scenario_nohz_idle() {
	record 3 -- spin -c 1 -d 1.5 -D 0.5 -r 16
}
