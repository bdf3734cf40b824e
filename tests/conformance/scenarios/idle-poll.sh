# idle-poll - booted with idle=poll: the idle loop polls instead of halting
# and first restarts a stopped tick.  A task runs alone on CPU 1 for 0.6 s
# (its tick stops), then exits; the CPU polls in idle for 0.8 s more.  The
# window is 3 s: idle=poll slows the emulated guest down.
# Healthy (patched kernel): the tick stopped while the task ran is restarted
# in idle with the cause IDLE_TICK, after about 0.6 s stopped; idle CPUs
# never stop their tick (one stopped by a lone task lasts into idle only
# until the polling loop restarts it).
scenario_idle_poll() {
	record 3 -- sh -c 'spin -c 1 -d 0.6; sleep 0.8'
}
