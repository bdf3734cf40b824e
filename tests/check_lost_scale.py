#!/usr/bin/python3
"""check_lost_scale.py - tests/guest/lost-scale.test's assertions.

usage: check_lost_scale.py FILES TICKSTAT

FILES is the guest's output (tests/scenarios/lost-scale.sh). For every
CPU, the lost events the report counts equal the kernel's own overrun
counter for that CPU (the end mark's overrun.CPU, and the same in the
per-CPU statistics the recording saved after it), none is left a gap of
unknown size (whether some were unsized in the pages or not), and the
table shows the same count in its lost column; check failed on lost events (exit 2) with a FAIL
for each CPU that lost any; and tickstat report of the recording, here on
the host, gives each CPU the same figures as the live report did, CPU 0
(the recorder's, where its start marks went) included.
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
everyone = list(range(0, last + 1))
rc = (files / "rc.txt").read_text().strip()
live = json.loads((files / "lost.json").read_text())
data = (files / "lost.dat").read_bytes().decode("latin-1")
# a long mark is split into several, each "tickstat v1 end: ..."
ends = re.findall(r"tickstat v1 end: ([^\n\0]*)", data)
expect("the recording has its end mark", bool(ends))
overrun = {int(c): int(n) for c, n in re.findall(r"overrun\.(\d+)=(\d+)", " ".join(ends))}
# the ring buffer's statistics of each CPU, saved at the end after a "CPU: n" line
stats = {int(m[0]): m[1:] for m in
         re.findall(r"CPU: (\d+)\nentries: \d+\noverrun: (\d+)\ncommit overrun: (\d+)\n"
                    r"(?:[^\n]*\n){3}dropped events: (\d+)\n", data)}
cpus = {c["cpu"]: c for c in live["cpus"]}
expect(f"the report has CPUs 0-{last}", sorted(cpus) == everyone, sorted(cpus))
expect(f"the end mark has the overrun of CPUs 0-{last}", sorted(overrun) == everyone, sorted(overrun))
expect(f"the saved statistics have CPUs 0-{last}", sorted(stats) == everyone, sorted(stats))
expect("the saved overruns are the end mark's (nothing overwritten after it)",
       all(int(stats[n][0]) == overrun.get(n) for n in stats),
       [(n, stats[n][0], overrun.get(n)) for n in stats if int(stats[n][0]) != overrun.get(n)][:5])
# losses the overrun counter does not count: none, or it could not be exact
expect("no commit overruns nor dropped events",
       all(v[1:] == ("0", "0") for v in stats.values()),
       [(n, v) for n, v in stats.items() if v[1:] != ("0", "0")][:5])
lost_cpus = [n for n in cpus if overrun.get(n)]
# 4 KiB against a 4 s stop at 200 wakeups a second: most CPUs overrun even
# on a loaded host; each one is judged, whichever they are
expect("at least half the CPUs overran their buffer", len(lost_cpus) >= last // 2,
       f"{len(lost_cpus)} of {last + 1}")

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
    sized += c["lost_gaps_sized_by_overrun"] > 0
# not asserted: 7 to 21 CPUs had such gaps in five boots on an idle host,
# none in one beside a busy loop; the fixture lost.dat (2 such gaps) and
# the unit tests make the case every time (tests/host/tickstat-unit.test)
print(f"info {len(lost_cpus)} CPUs lost events; {sized} of them had gaps the pages did not size")

expect("check exits 2 (failed)", rc == "check=2", rc)
results = {(r["cpu"], r["threshold"]): r["result"] for r in live["check"]["results"]}
for n in cpus:
    want = "FAIL" if overrun.get(n) else "PASS"
    expect(f"CPU {n}: lost-events {want}", results.get((n, "lost-events")) == want,
           results.get((n, "lost-events")))

offline = json.loads(subprocess.run([tickstat, "report", "-q", "--json", str(files / "lost.dat")],
                                    check=True, stdout=subprocess.PIPE).stdout)
seen = {c["cpu"]: c for c in offline["cpus"]}
expect("tickstat report of the recording has the same CPUs", sorted(seen) == sorted(cpus), sorted(seen))


def counts(causes):
    """Each cause item's count and timing: who armed a timer is left out,
    for its table keeps the first armers seen, and a live report sees other
    CPUs' armings in the order it reads their buffers, a file's report in
    the order of time (CPU 0's process_timeout: kcompactd0 on CPUs 2, 8 and
    20 live, on 0, 1 and 2 in the file, when CPUs 1-63 lost events)."""
    return {t: [(i["name"], i["count"], i["while_stopped"], i["time_ns"]) for i in v["items"]]
            for t, v in (causes or {}).items()}


for n, c in sorted(cpus.items()):
    mine = seen.get(n, {})
    diff = [k for k in sorted((set(c) | set(mine)) - {"check"})
            if k != "causes" and mine.get(k) != c.get(k)]
    diff += ["causes"] if counts(c.get("causes")) != counts(mine.get("causes")) else []
    expect(f"CPU {n}: tickstat report of the recording gives the live report's figures",
           not diff, [(k, c.get(k), mine.get(k)) for k in diff][:3])
if bad:
    print("\n".join(f"FAIL: {b}" for b in bad), file=sys.stderr)
    sys.exit(1)
