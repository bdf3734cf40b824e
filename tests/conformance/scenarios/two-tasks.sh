# two-tasks - a task runs alone on CPU 1; a second joins for 1.5 s.
# Healthy: the tick runs at HZ while both run, the reason is SCHED with the
# CFS sub-reason, and the tick stops again within a tick or two after the
# second task leaves, with a restart and a stop recorded.
scenario_two_tasks() {
	spin -c 1 -d 60 &
	sleep 1
	record 5 -- spin -c 1 -d 1.5 -D 1
	kill $!
	wait
}
