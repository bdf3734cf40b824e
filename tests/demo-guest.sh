#!/bin/sh
# demo-guest.sh - the demo's job inside the guest: a lone task on CPU 1, two
# tasks on CPU 2 for 2 s, then a POSIX CPU timer armed for 0.7 s on CPU 3 and
# short bursts there, so the tick stops and restarts;
# recorded by tickstat for 5 s.  The report goes to stdout; the recording,
# its JSON and its CSV timeline to $OUT.
set -eu
spin -c 1 -d 7 &
sleep 0.5
tickstat record -q -d 5 -o "$OUT/demo.dat" --csv "$OUT/demo.csv" -- sh -c \
	'spin -c 2 -n 2 -d 2; cputimer -c 3 -k itimer -d 1.5 -a 0.7 > /dev/null
	 for i in 1 2 3 4 5 6 7 8; do sleep 0.1; spin -c 3 -d 0.05; done'
tickstat report --json "$OUT/demo.dat" > "$OUT/demo.json"
wait
