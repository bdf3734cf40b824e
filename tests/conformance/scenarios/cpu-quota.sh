# cpu-quota - a task alone on CPU 1 for 1.5 s inside a cgroup (v2) whose
# cpu.max allows 50 ms per 100 ms.
# Healthy: since Linux 6.6 the tick is kept while the task runs, though it
# is alone (SCHED: cfs_task_bw_constrained()), and tickstat names the
# task's quota as the cause, record and monitor alike (a second run of
# 5.5 s, with tickstat monitor, and 320 short tasks on CPU 2 that make it
# trim its quota table, and a task on CPU 3 that joins a cgroup with a
# quota of 1.5 CPUs, never exhausted, after the monitor saw it there);
# before 6.6 the tick stops as for a lone task.
# The patched 6.1 guest kernel has no cgroups: Debian's kernels only.
scenario_cpu_quota() {
	cg=/sys/fs/cgroup
	[ -f "$cg/cgroup.controllers" ] || mount -t cgroup2 none "$cg" 2>/dev/null
	if ! grep -qw cpu "$cg/cgroup.controllers" 2>/dev/null; then
		# the expectations say the condition was not produced
		echo "no cgroup v2 cpu controller" > "$DIR/cpu.max"
		record 3 -- spin -c 1 -d 1.5
		return
	fi
	echo +cpu > "$cg/cgroup.subtree_control"
	mkdir -p "$cg/quota"
	echo "50000 100000" > "$cg/quota/cpu.max"
	cat "$cg/quota/cpu.max" > "$DIR/cpu.max"
	record 3 -- sh -c "echo \$\$ > $cg/quota/cgroup.procs; exec spin -c 1 -d 1.5"
	# from 6.6 on, tickstat monitor reads the quota as it runs: its SCHED
	# time by why (before, a quota keeps no tick: nothing to explain)
	case $(uname -r) in [0-5].*|6.[0-5].*) return ;; esac
	# spin and the churn start once the monitor runs (its textfile is there):
	# on a loaded host its start took longer than a spin started beside it.
	# The shell waits on CPU 0: a task is looked up when it first runs on a
	# watched CPU, and one seen there before it joined the cgroup has the
	# quota read then ("max") until it is read again, a second or more
	# later, which would give the monitor's first intervals to "alone".
	taskset -c 0 sh -c "while [ ! -f $DIR/monitor.prom ]; do sleep 0.05; done
		echo \$\$ > $cg/quota/cgroup.procs; exec spin -c 1 -d 3" &
	# That is what CPU 3 shows: a shell the monitor sees there, read "max",
	# joins a cgroup 0.5 s after the monitor's first update and becomes a
	# spinner for 3 s, whose quota the monitor reads again as it runs, a
	# second or more after the last read (which may be the shell's wake-up
	# just before it joined), then up to a second more until a quiet CPU's
	# page is read, and a poll.  Its quota, 1.5 CPUs, never throttles it:
	# a lone task that does not switch is read again where a poll finds it
	# running.  From 6.6 on any quota keeps the tick.
	mkdir -p "$cg/quota2"
	echo "150000 100000" > "$cg/quota2/cpu.max"
	cat "$cg/quota2/cpu.max" > "$DIR/cpu.max.3"
	taskset -c 3 sh -c "while [ ! -f $DIR/monitor.prom ]; do sleep 0.05; done
		sleep 0.5; echo \$\$ > $cg/quota2/cgroup.procs; exec spin -c 3 -d 3" &
	# 320 short-lived tasks on CPU 2 fill more than half its quota table:
	# at an update it forgets those that exited (-v says so) and keeps
	# spin's, which still runs
	taskset -c 2 sh -c "while [ ! -f $DIR/monitor.prom ]; do sleep 0.05; done
		for i in 1 2 3 4 5; do spin -c 2 -n 64 -d 0.001; done" &
	taskset -c 0 tickstat monitor -v -C 1-3 -i 0.5 -d 5.5 --textfile "$DIR/monitor.prom" \
		-o "$DIR/monitor.dat" 2> "$DIR/monitor.err"
	echo "status=$?" > "$DIR/monitor.status"
	wait
	tickstat report --json "$DIR/monitor.dat" > "$DIR/monitor-report.json"
}
