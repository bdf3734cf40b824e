# hz-periodic - a kernel built with CONFIG_HZ_PERIODIC: a task runs on CPU 1
# for 1.5 s, the other CPUs stay idle; LOC is read around it.
# Healthy: the tick never stops, busy or idle: every CPU's LOC rate is HZ.
# The dynticks code is not built in, so there is no timer:tick_stop event,
# and tickstat record refuses with "this kernel cannot stop the tick".
scenario_hz_periodic() {
	save_nohz_full
	ls /sys/kernel/tracing/events/timer > "$DIR/timer-events"
	tickstat record -q -d 1 > /dev/null 2> "$DIR/record.err"
	echo "status=$?" > "$DIR/record.status"
	loc-delta -s "$DIR/loc-span" spin -c 1 -d 1.5 | sed -n 's/^loc-delta: //p' > "$DIR/loc.txt"
}
