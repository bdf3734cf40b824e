# boot-cpu - booted with nohz_full=0-3: the boot CPU is named too.
# Healthy: the kernel keeps CPU 0 for housekeeping with a message ("using
# boot CPU:0"), because some CPU must keep the time; CPUs 1-3 are nohz_full, a lone task
# on CPU 1 runs tickless, and timekeeping duty (TIMEKEEPING, patched kernel)
# is reported on CPU 0 only.
scenario_boot_cpu() {
	save_nohz_full
	dmesg | grep -i 'NO_HZ\|Housekeeping' > "$DIR/dmesg.txt"
	spin -c 1 -d 60 &
	sleep 1
	tickstat_cpus=0-3 record 3 -- sleep 2
	kill $!
	wait
}
