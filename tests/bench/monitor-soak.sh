#!/bin/sh
# monitor-soak.sh - guest side of tests/bench/monitor-soak: tickstat monitor
# (defaults but -b 256, textfile and HTTP, /metrics fetched every 15 s)
# for about 12 minutes of changing workloads on isolated CPUs 1-3.
#
#   idle 1 min, a lone task on CPU 1 for 2 min, two tasks on CPU 2 for
#   7 min, POSIX CPU timers on CPU 3 for 1 min, churn (short-lived tasks on
#   CPU 3, a task on CPU 1 that sleeps 1 ms every 10 ms) for 1 min, an
#   overload of context switches on CPU 2 for 20 s (events lost on purpose:
#   the buffer is 256 KiB), idle 1 min.
#
# Every 10 s the monitor's RSS and CPU time go to samples.csv; at the end of
# every minute the textfile is copied to min-N.prom and its phase noted in
# minutes.txt.  The monitor's exit status after SIGTERM goes to rc.txt.
set -u
# this shell and its helpers (sampler, copies, fetches) stay on CPU 0, the
# housekeeping CPU; the workloads pin themselves to the isolated ones
taskset -p -c 0 $$ > /dev/null
tickstat monitor -b 256 --textfile "$OUT/m.prom" --listen 127.0.0.1:9472 \
	2> "$OUT/monitor.err" &
mpid=$!
start=$(cut -d' ' -f1 /proc/uptime)
phase=starting
echo "$phase" > /tmp/phase

# seconds since the start, RSS in kB, user and system time in clock ticks
sampler() {
	while kill -0 $mpid 2> /dev/null; do
		up=$(cut -d' ' -f1 /proc/uptime)
		rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$mpid/status)
		# fields 14 and 15 of stat; the command name, field 2, has no spaces here
		set -- $(cat /proc/$mpid/stat)
		echo "$up,$rss,${14},${15}" >> "$OUT/samples.csv"
		sleep 10
	done
}
minutes() {
	i=0
	while kill -0 $mpid 2> /dev/null; do
		sleep 60
		i=$((i + 1))
		cp "$OUT/m.prom" "$OUT/min-$i.prom" 2> /dev/null
		echo "$i $(cat /tmp/phase)" >> "$OUT/minutes.txt"
	done
}
scraper() {
	while kill -0 $mpid 2> /dev/null; do
		wget -q -O /dev/null http://127.0.0.1:9472/metrics 2>> "$OUT/scrape.err" ||
			echo "$(cut -d' ' -f1 /proc/uptime) $(cat /tmp/phase): wget failed" >> "$OUT/scrape.err"
		sleep 15
	done
}
phase() { echo "$1" > /tmp/phase; echo "$(cut -d' ' -f1 /proc/uptime) $1" >> "$OUT/phases.txt"; }

echo "uptime,rss_kb,utime_ticks,stime_ticks" > "$OUT/samples.csv"
echo "$start start" > "$OUT/phases.txt"
# the monitor says "monitoring CPUs" once it listens and has published its
# first numbers: fetching before that would find nobody listening
i=0
until grep -q "monitoring CPUs" "$OUT/monitor.err" 2> /dev/null; do
	if [ $i -ge 300 ]; then
		echo "$(cut -d' ' -f1 /proc/uptime) monitor not ready after 30 s" >> "$OUT/scrape.err"
		break
	fi
	sleep 0.1
	i=$((i + 1))
done
sampler &
minutes &
scraper &

phase idle
sleep 60
phase lone
spin -c 1 -d 120
phase two
spin -c 2 -n 2 -d 420
phase timers
cputimer -c 3 -k itimer -d 60 -a 60 > /dev/null &
cputimer -c 1 -k thread -d 60 -a 60 > /dev/null
wait $!
phase churn
spin -c 1 -p 0.01 -d 60 &
end=$(($(date +%s) + 60))
while [ "$(date +%s)" -lt $end ]; do
	taskset -c 3 true
done
wait $!
phase overload
pingpong -c 2 -d 20
phase idle-end
sleep 70
kill -TERM $mpid
wait $mpid
echo "monitor=$?" > "$OUT/rc.txt"
