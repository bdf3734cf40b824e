#!/bin/sh
# monitor.sh - guest side of tests/guest/monitor.test.
#
# tickstat monitor (every 0.5 s, textfile and HTTP, keeping its own
# recording) watches while a recording runs beside it: idle, a lone task
# on CPU 1, two tasks on CPU 2, a POSIX CPU timer on CPU 3, all three at
# once.  The textfile is copied between phases (snap-N.prom: each copy says
# up to which CLOCK_MONOTONIC instant it counts).  Then CPU 3 goes offline and comes back, /metrics is
# fetched over HTTP, bad command lines fail, SIGTERM and SIGINT end the
# monitor with the tracing state as found, and a monitor with a tiny buffer
# counts the events it loses.  tests/check_monitor.py judges.
set -u
t=/sys/kernel/tracing
n=0
rc() { echo "$1=$2" >> "$OUT/rc.txt"; }
state() { cat $t/tracing_on $t/set_event $t/trace_clock $t/buffer_size_kb; ls $t/instances; }
updates() { sed -n 's/^tickstat_monitor_updates_total //p' "$OUT/m.prom" 2>/dev/null; }
# CLOCK_MONOTONIC now, in ns, and the instant the textfile counts up to
now_ns() { sed -n 's/^now at \([0-9]*\) nsecs$/\1/p' /proc/timer_list; }
counted_ns() {
	awk '$1 == "tickstat_monitor_clock_seconds" { printf "%.0f", $2 * 1e9 }' "$OUT/m.prom" \
		2>/dev/null
}
# until the textfile shows two more updates than now and counts up to now
# (the monitor charges up to the moment every CPU's events were read to,
# which may be polls old): it counts all that came before this call (a
# busy host slows the guest)
behind() {
	v=$(updates)
	c=$(counted_ns)
	[ "${v:-0}" -lt $((${u:-0} + 2)) ] || [ "${c:-0}" -lt "$t0" ]
}
wait_update() {
	u=$(updates)
	t0=$(now_ns)
	i=0
	while behind && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# the textfile is replaced by rename: a copy holds one whole update
snap() { wait_update; n=$((n + 1)); cp "$OUT/m.prom" "$OUT/snap-$n-$1.prom"; }
# until FILE says TEXT (a process has started), at most 30 s
wait_for() {
	i=0
	until grep -q "$2" "$1" 2>/dev/null || [ $i -ge 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

state > "$OUT/state-before.txt"
tickstat monitor --interval 0.5 --textfile "$OUT/m.prom" --listen 127.0.0.1:9101 --top 3 \
	-o "$OUT/mon.dat" 2> "$OUT/monitor.err" &
mpid=$!
wait_for "$OUT/monitor.err" "monitoring CPUs"
tickstat record -o "$OUT/rec.dat" > /dev/null 2> "$OUT/record.err" &
rpid=$!
wait_for "$OUT/record.err" "recording CPUs"
sleep 1
snap start
sleep 1
snap idle
spin -c 1 -d 2.5
snap lone
spin -c 2 -n 2 -d 2
snap two
cputimer -c 3 -k itimer -d 2 -a 0.5 > /dev/null
snap timer
spin -c 1 -d 2 &
p1=$!
spin -c 2 -n 2 -d 2 &
p2=$!
cputimer -c 3 -k itimer -d 2 -a 0.5 > /dev/null
wait $p1 $p2
sleep 0.6
snap all
kill -INT $rpid
wait $rpid
rc record $?
snap after-record

# CPU hotplug: offline for 2 s, then back with a lone task on it
echo 0 > /sys/devices/system/cpu/cpu3/online
rc offline $?
sleep 2
snap offline
echo 1 > /sys/devices/system/cpu/cpu3/online
rc online $?
sleep 0.5
spin -c 3 -d 1.5
sleep 0.6
snap online

# /metrics over HTTP; other paths are 404
wget -q -O "$OUT/http.prom" http://127.0.0.1:9101/metrics
rc wget $?
wget -q -O /dev/null http://127.0.0.1:9101/nope 2> /dev/null
rc wget-404 $?

# bad command lines: a port in use, an unwritable textfile, an offline CPU
tickstat monitor --listen 127.0.0.1:9101 -d 1 2> "$OUT/err-port.txt"
rc monitor-port-busy $?
tickstat monitor --textfile /nonexistent/m.prom -d 1 2> "$OUT/err-textfile.txt"
rc monitor-bad-textfile $?
tickstat monitor -C 9 --listen :9102 -d 1 2> "$OUT/err-cpu.txt"
rc monitor-offline-cpu $?

kill -TERM $mpid
wait $mpid
rc monitor-sigterm $?
snap final
state > "$OUT/state-after-term.txt"
tickstat monitor --textfile "$OUT/int.prom" 2> /dev/null &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc monitor-sigint $?
state > "$OUT/state-after-int.txt"

# lost events are counted: a 4 KiB buffer against tens of thousands of switches a second
tickstat monitor -b 4 -C 2 --interval 0.5 --textfile "$OUT/lost.prom" 2> "$OUT/lost.err" &
pid=$!
wait_for "$OUT/lost.err" "monitoring CPUs"
pingpong -c 2 -d 1
sleep 1.2
kill -TERM $pid
wait $pid
rc monitor-lost $?
