# rcu-exp - as rcu, with an expedited grace period (mode=rcu_exp).
# Healthy: RCU_EXP at CPU scope holds the tick (set by the expedited grace
# period's wait for the CPU), next to RCU, for as long as the module saw
# the dependency set.
scenario_rcu_exp() {
	dmesg -c > /dev/null
	record 2.5 -- taskset -c 0 insmod /job/tick_test.ko mode=rcu_exp cpu=2 ms=600
	dmesg > "$DIR/dmesg.txt"
	rmmod tick_test
}
