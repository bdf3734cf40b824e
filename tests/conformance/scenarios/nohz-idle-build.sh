# nohz-idle-build - as nohz-idle, on a kernel built with CONFIG_NO_HZ_IDLE
# (no NO_HZ_FULL at all): a task runs on CPU 1 for 1.5 s, CPUs 2 and 3 idle,
# and it leaves RCU callbacks on CPU 1 as it exits (spin -r).
# Healthy: the same as nohz-idle: the busy CPU ticks (NOT_NOHZ_FULL), idle
# CPUs stop the tick, leaving idle restarts it (IDLE_EXIT).
scenario_nohz_idle_build() {
	save_nohz_full
	record 3 -- spin -c 1 -d 1.5 -D 0.5 -r 16
}
