# busy-start - the isolated CPUs wake 2000 times a second each (churn), a
# task alone with its tick stopped, from before the recording starts.
# Healthy: each CPU switches tasks more than 64 times before the start
# snapshot is read, no event says anything of the tick meanwhile, and still
# the report knows the tick state from the window start: the snapshot holds.
scenario_busy_start() {
	churn -c 1-3 -r 2000 -d 60 -t 200 > "$DIR/churn.txt" 2>&1 &
	sleep 1
	record 2 -- sleep 1.5
	kill $!
	wait
}
