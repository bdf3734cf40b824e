# nohz-off - booted with nohz=off: the tick never stops.
# Healthy (patched kernel): every idle entry is refused with NOHZ_INACTIVE,
# no CPU is ever tickless, and the tick rate is HZ on every CPU.
scenario_nohz_off() {
	record 2 -- sleep 1.5
}
