# softirq - CPU 2 is idle, a dynticks-idle CPU (nohz=on, no nohz_full:
# leaving idle restarts its tick, so the tick runs at each idle entry); the
# test module (mode=softirq, a kprobe at idle
# entry) marks the timer softirq pending 3 times, as a softirq raised and not
# run before the CPU goes idle.
# Healthy (patched kernel): each idle entry with it pending is refused with
# tick_retain SOFTIRQ, and the kernel's own "NOHZ tick-stop error" warning
# is printed once per refusal (6.1 refuses only the first ten times a boot).
scenario_softirq() {
	module_on_idle_cpu softirq 3
}
