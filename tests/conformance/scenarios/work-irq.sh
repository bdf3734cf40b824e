# work-irq - work queued for an isolated CPU from an interrupt: the test
# module's hrtimer on CPU 0 (mode=queue_irq) queues a work item for CPU 1
# every 10 ms for 200 ms from its hard interrupt handler, as a driver's
# interrupt does, and counts the queuings and the runs (dmesg).  The
# kernel's workqueue_queue_work event names, as its task, whatever the
# interrupt hit on CPU 0: a task spins there meanwhile (its pid in
# spinner-pid), so that the interrupt hits a task, not only CPU 0's idle
# task; for 1.2 s, so that it still spins when the module, loaded beside
# it, starts its timer on a slow host.
# Healthy: tickstat counts CPU 1's queued_from_irq runs and queuings as the
# module did, and names an interrupt on CPU 0 as the queuer, not a task.
scenario_work_irq() {
	dmesg -c > /dev/null
	record 2 -- sh -c "spin -c 0 -d 1.2 & echo \$! > $DIR/spinner-pid
		taskset -c 0 insmod /job/tick_test.ko mode=queue_irq cpu=1 ms=200; wait"
	dmesg > "$DIR/dmesg.txt"
	# the raw queuings, as trace-cmd decodes them: the task each names
	trace-cmd report "$DIR/rec.dat" 2> "$DIR/queue-raw.err" | grep workqueue_queue_work \
		> "$DIR/queue-raw.txt"
	# unloaded only now: the recorder names the work function from kallsyms at its end
	rmmod tick_test
}
