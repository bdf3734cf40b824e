# sched-deadline - one SCHED_DEADLINE task on CPU 1 for 1.5 s.
# Healthy: SCHED at CPU scope with the DEADLINE sub-reason: a deadline task
# needs the tick even alone, while it is queued.  With 30 ms of runtime per
# 100 ms period it is throttled most of the time, so the tick runs about
# 30% of the 1.5 s.  Not less: after each wake-up from idle the tick runs up
# to a tick period before the first decision (UNREPORTED), which with 10 ms
# came close to SCHED's share and once outweighed it.  Deadline admission
# control is switched off for the run (sched_rt_runtime_us = -1) so that the
# task may be pinned.
scenario_sched_deadline() {
	old=$(cat /proc/sys/kernel/sched_rt_runtime_us)
	echo -1 > /proc/sys/kernel/sched_rt_runtime_us
	record 3 -- spin -c 1 -P deadline -R 0.03 -d 1.5 -D 0.5
	echo "$old" > /proc/sys/kernel/sched_rt_runtime_us
}
