#!/usr/bin/python3
"""check_lost_scale.py - tests/guest/lost-scale.test's assertions.

usage: check_lost_scale.py FILES TICKSTAT

FILES is the guest's output (tests/scenarios/lost-scale.sh). For every
CPU the recording covers, the lost events the report counts equal the
kernel's own overrun counter for that CPU (the end mark's overrun.CPU,
read from the recording), none is left a gap of unknown size, and the
table shows the same count in its lost column; check failed on lost
events (exit 2) with a FAIL for each CPU that lost any; and tickstat
report of the recording, here on the host, counts the same.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

files, tickstat = Path(sys.argv[1]), sys.argv[2]
bad = []


def expect(what, ok, detail=""):
    print(f"{'ok' if ok else 'not ok'} - {what}")
    if not ok:
        bad.append(f"{what}: {detail}")


last = int((files / "last-cpu").read_text())
rc = (files / "rc.txt").read_text().strip()
live = json.loads((files / "lost.json").read_text())
data = (files / "lost.dat").read_bytes().decode("latin-1")
# a long mark is split into several, each "tickstat v1 end: ..."
ends = re.findall(r"tickstat v1 end: ([^\n\0]*)", data)
expect("the recording has its end mark", bool(ends))
overrun = {int(c): int(n) for c, n in re.findall(r"overrun\.(\d+)=(\d+)", " ".join(ends))}
cpus = {c["cpu"]: c for c in live["cpus"]}
expect(f"the report has CPUs 1-{last}", sorted(cpus) == list(range(1, last + 1)), sorted(cpus))
expect(f"the end mark has the overrun of CPUs 0-{last}", sorted(overrun) == list(range(0, last + 1)),
       sorted(overrun))
lost_cpus = [n for n in cpus if overrun.get(n)]
# 4 KiB against a 4 s stop at 200 wakeups a second: most CPUs overrun even
# on a loaded host; each one is judged, whichever they are
expect("at least half the CPUs overran their buffer", len(lost_cpus) >= last // 2,
       f"{len(lost_cpus)} of {last}")

# the table's rows: "CPU tickless busy idle ticks ticks/s stops p50 p99 max open lost unknown"
table = {}
for line in (files / "lost.txt").read_text().splitlines():
    f = line.split()
    if len(f) == 13 and f[0].isdigit() and f[11].isdigit() and int(f[0]) not in table:
        table[int(f[0])] = int(f[11])
sized = 0
for n, c in sorted(cpus.items()):
    want = overrun.get(n)
    expect(f"CPU {n}: lost events as the kernel counted ({want})",
           c["lost_events"] == want and c["lost_gaps_unknown_size"] == 0,
           f"lost_events {c['lost_events']}, gaps of unknown size {c['lost_gaps_unknown_size']}")
    expect(f"CPU {n}: the table's lost column says {want}", table.get(n) == want, table.get(n))
    sized += c.get("lost_gaps_sized_by_overrun", 0) > 0
print(f"info {len(lost_cpus)} CPUs lost events; {sized} of them had gaps the pages did not size")

expect("check exits 2 (failed)", rc == "check=2", rc)
results = {(r["cpu"], r["threshold"]): r["result"] for r in live["check"]["results"]}
for n in cpus:
    want = "FAIL" if overrun.get(n) else "PASS"
    expect(f"CPU {n}: lost-events {want}", results.get((n, "lost-events")) == want,
           results.get((n, "lost-events")))

offline = json.loads(subprocess.run([tickstat, "report", "-q", "--json", str(files / "lost.dat")],
                                    check=True, stdout=subprocess.PIPE).stdout)
seen = {c["cpu"]: (c["lost_events"], c["lost_gaps_unknown_size"]) for c in offline["cpus"]}
expect("tickstat report of the recording counts the same per CPU",
       seen == {n: (c["lost_events"], c["lost_gaps_unknown_size"]) for n, c in cpus.items()},
       [(n, seen.get(n), cpus[n]["lost_events"]) for n in cpus
        if seen.get(n) != (cpus[n]["lost_events"], cpus[n]["lost_gaps_unknown_size"])][:5])
if bad:
    print("\n".join(f"FAIL: {b}" for b in bad), file=sys.stderr)
    sys.exit(1)
