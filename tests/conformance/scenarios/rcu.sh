# rcu - a kernel thread holds CPU 2 in the kernel with preemption off for
# 600 ms while a grace period waits (the test module tests/kmod/tick_test.ko,
# mode=rcu).
# Healthy: RCU needs the CPU: RCU at CPU scope holds the tick, set from
# __rcu_irq_enter_check_tick() on the patched kernel, and cleared after,
# for as long as the module saw RCU's dependency set (dmesg: a starved
# vCPU can make it short; if RCU never set it, the condition was not
# produced and the scenario is skipped).
scenario_rcu() {
	dmesg -c > /dev/null
	record 2.5 -- taskset -c 0 insmod /job/tick_test.ko mode=rcu cpu=2 ms=600
	dmesg > "$DIR/dmesg.txt"
	rmmod tick_test
}
