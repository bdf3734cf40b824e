#!/bin/sh
# check-gate.sh - guest side of tests/guest/check-gate.test: what only a
# live recording can show about tickstat check as a CI gate.  Every result
# lands in $OUT; the host side judges them.
set -u
rc() { echo "$1=$2" >> "$OUT/rc.txt"; }
elapsed() { echo "$1=$(( $(date +%s) - $2 ))" >> "$OUT/elapsed.txt"; }

# The DPDK pattern: a worker thread spins on CPU 2 from before the recording
# while its main thread sleeps; by the start the tick there has stopped and
# no event comes.  Only the snapshot's look at every thread sees the CPU busy.
# The worker runs until killed: under emulation on a busy host, setting up a
# recording can take seconds.
worker -c 2 -d 600 &
worker=$!
sleep 2
tickstat record -q -C 2 -d 2 --json > "$OUT/worker.json"
rc worker-record $?
tickstat check -q -C 2 -d 2 --min-success-rate 99 > "$OUT/worker-check.txt" 2>&1
rc worker-check $?
kill $worker
wait $worker

# A workload that fails gets no verdict; record still reports, and says so.
tickstat check -q -C 1 -d 1 --min-success-rate 0 -- sh -c 'exit 3' \
	> "$OUT/fail-check.txt" 2> "$OUT/fail-check.err"
rc fail-check $?
tickstat record -q -C 1 -- sh -c 'sleep 0.3; exit 3' > "$OUT/fail-record.txt" 2> "$OUT/fail-record.err"
rc fail-record $?
tickstat check -q -C 1 --max-unknown 100 -- sh -c 'kill -KILL $$' > /dev/null 2> "$OUT/fail-signal.err"
rc fail-signal $?

# A workload that ignores SIGTERM is killed after the grace time (the
# command would sleep 120 s: anything well below that shows the kill)...
start=$(date +%s)
tickstat record -q -C 1 -d 1 -- sh -c 'trap "" TERM; exec sleep 120' > /dev/null 2> "$OUT/term.err"
rc term $?
elapsed term "$start"

# ...or at once on a second Ctrl-C, once recording runs (setting up can take
# seconds under emulation).
tickstat record -C 1 -- sh -c 'trap "" TERM INT; exec sleep 120' > /dev/null 2> "$OUT/int2.err" &
pid=$!
n=0
until grep -q 'recording CPUs' "$OUT/int2.err" || [ $n -ge 300 ]; do sleep 0.2; n=$((n + 1)); done
kill -INT $pid
sleep 1
start=$(date +%s)
kill -INT $pid
wait $pid
rc int2 $?
elapsed int2 "$start"

# A trace.dat with another clock than mono cannot take a --time-range.
trace-cmd start -C local -e timer:tick_stop > /dev/null
sleep 0.5
trace-cmd stop
trace-cmd extract -o "$OUT/local.dat" > /dev/null 2>&1
trace-cmd reset
tickstat report "$OUT/local.dat" > /dev/null 2> "$OUT/local.err"
rc local-report $?
tickstat report --time-range 0,999999999999999 "$OUT/local.dat" > /dev/null 2> "$OUT/local-range.err"
rc local-range $?
