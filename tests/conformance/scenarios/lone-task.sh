# lone-task - one busy task alone on isolated CPU 1.
# Healthy: the tick stays stopped the whole time (busy tickless share at
# least 99%) and at most 1 tick in 5 s after a 1 s settle; since 4.17 the
# residual 1 Hz tick of 3.10 is offloaded to a housekeeping CPU.
scenario_lone_task() {
	spin -c 1 -d 60 &
	sleep 1
	record 5 -- sleep 4
	kill $!
	wait
}
