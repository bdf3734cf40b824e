# lost-scale.sh - lost events at scale (tests/guest/lost-scale.test): every
# CPU but 0 wakes 200 times a second (churn) while tickstat check records
# every CPU into 4 KiB ring buffers, CPU 0 (where it runs and writes its
# marks) included, and the recorder is stopped for 4 s inside its window,
# as a starved recorder would be: each CPU's buffer overruns.
# What the report said is in lost.json and lost.txt, the recording (whose
# end mark has the kernel's overrun counter of each CPU) in lost.dat, and
# check's exit status in rc.txt.
set -u
taskset -p -c 0 $$ > /dev/null
last=$(($(grep -c ^processor /proc/cpuinfo) - 1))
cpus=1-$last
echo "$last" > "$OUT/last-cpu"
taskset -c 0 churn -c "$cpus" -r 200 -d 3600 > "$OUT/churn.txt" &
churn=$!
sleep 1
taskset -c 0 tickstat check -b 4 -C "0-$last" -d 8 -o "$OUT/lost.dat" --json="$OUT/lost.json" \
	> "$OUT/lost.txt" 2> "$OUT/lost.err" &
pid=$!
# the message comes once tracing is on: the stop falls inside the window
while ! grep -q "recording CPUs" "$OUT/lost.err" && kill -0 "$pid" 2> /dev/null; do
	sleep 0.2
done
sleep 1
kill -STOP "$pid"
sleep 4
kill -CONT "$pid"
wait "$pid"
echo "check=$?" > "$OUT/rc.txt"
kill "$churn"
wait
