#!/bin/sh
# top.sh - guest side of tests/guest/top.test.
#
# tickstat top on a pseudo-terminal (ptyrun, tests/workloads/ptyrun.c)
# while a lone task spins on CPU 1 and two tasks on CPU 2 (CPU 3 idle):
# a 24x100 terminal quit with q; Ctrl-C; a 4x60 terminal (one CPU fits,
# the worst, and a line says two are hidden); a resize from 24 to 4 rows
# between two refreshes 5 s apart (SIGWINCH redraws at once); then plain
# text into a file (not a terminal), and -C.  The screens, ptyrun's marks
# (when each key and resize came, at which byte) and the exit codes land
# in $OUT, with the tracing state before and after each run;
# tests/check_top.py judges them on the host.
set -u
t=/sys/kernel/tracing
rc() { echo "$1=$2" >> "$OUT/rc.txt"; }
state() {
	cat $t/tracing_on $t/set_event $t/trace_clock $t/buffer_size_kb $t/kprobe_events
	ls $t/instances
}

# openpty needs devpts; /init mounts only devtmpfs
mkdir -p /dev/pts
grep -q ' /dev/pts ' /proc/mounts || mount -t devpts devpts /dev/pts
rc devpts $?

state > "$OUT/state-before.txt"
spin -c 1 -d 120 &
lone=$!
spin -c 2 -n 2 -d 120 &
two=$!
sleep 1

# Each ptyrun times its keys and resizes from top's first screen (-a), not
# from its start: on a loaded host top took 3.2 s to show it once, and a
# resize at 8 s from the start then came before the first refresh.

# q on a terminal of 24 rows: every CPU in CPU order
ptyrun -a "tickstat top" -o "$OUT/tty.screen" -s 24x100 -k 6.5:q -t 60 -- tickstat top 2> "$OUT/tty.err"
rc tty-ptyrun $?
state > "$OUT/state-after-q.txt"

# Ctrl-C
ptyrun -a "tickstat top" -o "$OUT/intr.screen" -s 24x100 -k 3.5:^C -t 60 -- tickstat top 2> "$OUT/intr.err"
rc intr-ptyrun $?
state > "$OUT/state-after-intr.txt"

# too few rows and columns: the worst CPU, the hidden line, lines cut
ptyrun -a "tickstat top" -o "$OUT/small.screen" -s 4x60 -k 6:q -t 60 -- tickstat top 2> "$OUT/small.err"
rc small-ptyrun $?
state > "$OUT/state-after-small.txt"

# a resize between two refreshes (every 5 s): redrawn at once, same numbers
ptyrun -a "tickstat top" -o "$OUT/resize.screen" -s 24x100 -r 8:4x100 -m 8.8 -k 9.5:q -t 60 -- \
	tickstat top -i 5 2> "$OUT/resize.err"
rc resize-ptyrun $?
state > "$OUT/state-after-resize.txt"

# not a terminal: plain blocks; -d ends it
tickstat top -d 3.5 > "$OUT/plain.txt" 2> "$OUT/plain.err" < /dev/null
rc plain $?
tickstat top -C 2 -i 0.5 -d 1.2 > "$OUT/plain-c2.txt" 2> "$OUT/plain-c2.err" < /dev/null
rc plain-c2 $?
state > "$OUT/state-after-plain.txt"

# bad command lines: before any tracing
tickstat top --textfile x > /dev/null 2> "$OUT/err-option.txt"
rc bad-option $?
tickstat top -i 0 > /dev/null 2> "$OUT/err-interval.txt"
rc bad-interval $?
tickstat top -C 9 -d 1 > /dev/null 2> "$OUT/err-cpu.txt"
rc bad-cpu $?
state > "$OUT/state-after.txt"

kill $lone $two
wait
