#!/bin/sh
# prometheus.sh - guest side of tests/guest/prometheus.test.
#
# tickstat monitor serves /metrics on the guest's port 9100 (forwarded to
# the host's loopback, where the test's Prometheus scrapes it every second)
# while a recording runs beside it: idle, then two tasks on CPU 2 for 6 s,
# then idle again.  The host compares Prometheus's answer with a report of
# the recording.
set -u
rc() { echo "$1=$2" >> "$OUT/rc.txt"; }
tickstat monitor --interval 1 --listen 0.0.0.0:9100 2> "$OUT/monitor.err" &
mpid=$!
sleep 6
tickstat record -q -o "$OUT/rec.dat" > /dev/null 2> "$OUT/record.err" &
rpid=$!
sleep 3
spin -c 2 -n 2 -d 6
sleep 3
kill -INT $rpid
wait $rpid
rc record $?
sleep 3
kill -TERM $mpid
wait $mpid
rc monitor $?
