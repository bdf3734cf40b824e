# irq-work - as timer-due, but the timer also queues lazy irq_work on CPU 2
# (mode=irq_work), which waits for the next tick.
# Healthy (patched kernel): the running tick is kept with the reason IRQ_WORK.
scenario_irq_work() {
	module_with_running_tick irq_work
}
