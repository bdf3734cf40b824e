# timer-due - a task runs alone on CPU 2; the test module (mode=timer) arms a
# timer that re-arms itself every jiffy there, and a second task joins for
# 0.1 s so that the tick runs.
# Healthy (patched kernel): when the second task leaves, the next timer is
# within one tick, so the tick is kept with the reason TIMER_DUE, which 6.1
# does not trace.
scenario_timer_due() {
	spin -c 2 -d 60 &
	sleep 0.3
	dmesg -c > /dev/null
	record 3 -- sh -c 'taskset -c 0 insmod /job/tick_test.ko mode=timer cpu=2 ms=1500 &
		until dmesg | grep -q "tick_test: timer armed"; do sleep 0.05; done
		spin -c 2 -d 0.1; wait'
	rmmod tick_test
	kill $!
	wait
}
