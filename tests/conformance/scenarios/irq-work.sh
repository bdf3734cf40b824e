# irq-work - as timer-due, but the timer also queues lazy irq_work on CPU 2
# (mode=irq_work), which waits for the next tick.
# Healthy (patched kernel): the running tick is kept with the reason IRQ_WORK.
scenario_irq_work() {
	spin -c 2 -d 60 &
	sleep 0.3
	dmesg -c > /dev/null
	record 3 -- sh -c 'taskset -c 0 insmod /job/tick_test.ko mode=irq_work cpu=2 ms=1500 &
		until dmesg | grep -q "tick_test: irq_work armed"; do sleep 0.05; done
		spin -c 2 -d 0.1; wait'
	rmmod tick_test
	kill $!
	wait
}
