# posix-timer - POSIX CPU timers on CPU 1: setitimer(ITIMER_PROF) (process
# scope) on CPU 1, then timer_create(CLOCK_THREAD_CPUTIME_ID) (task scope) on
# CPU 2, each armed 0.6 s of a 1.2 s run.
# Healthy: POSIX_TIMER at PROCESS and TASK scope with the culprit's pid; the
# tick stops again once the timer is disarmed, while the task still runs.
scenario_posix_timer() {
	record 4 -- sh -c "cputimer -c 1 -k itimer -d 1.2 -a 0.6 > $DIR/itimer.pid;
		cputimer -c 2 -k thread -d 1.2 -a 0.6 > $DIR/thread.pid"
}
