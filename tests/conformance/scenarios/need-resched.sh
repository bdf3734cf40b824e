# need-resched - CPU 2 is idle, a dynticks-idle CPU (nohz=on, no nohz_full:
# leaving idle restarts its tick, so the tick runs at each idle entry); the
# test module (mode=need_resched, a kprobe
# at idle entry) marks the idle task for rescheduling 5 times, as a wakeup
# from another CPU does when it lands between the idle loop's last check and
# the tick-stop decision.
# Healthy (patched kernel): each one is refused with tick_retain
# NEED_RESCHED, which 6.1 does not trace.
scenario_need_resched() {
	module_on_idle_cpu need_resched 5
}
