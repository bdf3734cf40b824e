# sched-rr - two SCHED_RR tasks share CPU 1 for 1.5 s.
# Healthy: SCHED at CPU scope with the RR sub-reason.
scenario_sched_rr() {
	record 3 -- spin -c 1 -n 2 -P rr -d 1.5 -D 0.5
}
