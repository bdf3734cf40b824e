#!/usr/bin/python3
"""check_patch_events - assertions on the raw trace of tests/scenarios/patch-events.sh.

usage: check_patch_events.py OUTDIR (run-guest --out)   (exit 0 pass, 1 fail; says what it saw)
"""

import re
import sys
from pathlib import Path

LINE = re.compile(r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+\S+\s+"
                  r"(?P<ts>\d+\.\d+):\s+(?P<event>\w+):\s+(?P<body>.*)$")


def parse(path: Path):
    """Events as dicts, each tagged with the phase it falls in and when
    that phase began."""
    phase, phase_ts, events = None, 0.0, []
    for line in path.read_text().splitlines():
        m = LINE.match(line)
        if not m:
            continue
        ev = m.groupdict()
        ev["cpu"], ev["ts"] = int(ev["cpu"]), float(ev["ts"])
        if ev["event"] == "tracing_mark_write":
            phase = ev["body"].split("phase ", 1)[-1].strip()
            phase_ts = ev["ts"]
            continue
        ev["phase"], ev["phase_ts"] = phase, phase_ts
        ev["f"] = dict(re.findall(r"(\w+)=(\S*)", ev["body"]))
        events.append(ev)
    return events


class Checker:
    def __init__(self) -> None:
        self.failures = 0

    def expect(self, what: str, ok: bool, seen) -> None:
        print(f"{'ok  ' if ok else 'FAIL'} {what}: saw {seen}")
        self.failures += not ok


def main() -> int:
    out = Path(sys.argv[1]) / "files"
    events = parse(out / "trace.txt")
    c = Checker()

    def pick(phase, event, cpu=None, **fields):
        return [e for e in events if e["phase"] == phase and e["event"] == event
                and (cpu is None or e["cpu"] == cpu)
                and all(e["f"].get(k) == v for k, v in fields.items())]

    overruns = [int(x.split()[-1]) for x in (out / "overruns.txt").read_text().splitlines()]
    c.expect("no ring-buffer overruns", sum(overruns) == 0, overruns)

    # SCHED with its CFS reason at CPU scope, refusals naming it, then a clear and a stop.
    sets = pick("sched-cfs", "tick_dep_set", dependency="SCHED", scope="CPU", target="2")
    c.expect("SCHED set on CPU 2 with sched=CFS", any(e["f"]["sched"] == "CFS" for e in sets),
             [e["body"] for e in sets][:3])
    fails = [e for e in pick("sched-cfs", "tick_stop", cpu=2, success="0") if "SCHED" in e["f"]["cpu"]]
    # HZ=250 for about 0.5 s with both tasks: about 125 refusals; allow for emulation.
    c.expect("tick_stop refusals on CPU 2 naming SCHED at CPU scope", 50 <= len(fails) <= 400, len(fails))
    clears = pick("sched-cfs", "tick_dep_clear", dependency="SCHED", target="2")
    c.expect("SCHED cleared on CPU 2", len(clears) >= 1, len(clears))
    if clears:
        last_clear = clears[-1]["ts"]
        stops = [e for e in pick("sched-cfs", "tick_stop", cpu=2, success="1") if e["ts"] >= last_clear]
        # Counted in decisions, not ms: a loaded host stretches emulated time
        # (13 ms were seen for 2 ticks), not the number of ticks.
        between = [e for e in fails if stops and last_clear <= e["ts"] < stops[0]["ts"]]
        c.expect("tick stops on CPU 2 within 2 interrupts of the clear",
                 bool(stops) and len(between) <= 2,
                 f"{len(between)} refusals, {(stops[0]['ts'] - last_clear) * 1e3:.3f} ms"
                 if stops else "no stop")

    # Restart: duration agrees with the stop and restart timestamps.
    restarts = [e for e in pick("restart", "tick_restart", cpu=1, cause="DEPENDENCY")
                if int(e["f"]["stopped_ns"]) >= 0]
    c.expect("a DEPENDENCY restart on CPU 1 with a known duration", bool(restarts), len(restarts))
    # The restart of the scenario: a task joins, 0.7 s into the phase, the one
    # that ran tickless for 0.5 s.  Those at the phase's start come from the
    # tasks arriving at the idle CPU, whose tick may have stopped even longer
    # ago (1.01 s was seen), so the scenario's is found by its time.
    restarts = [e for e in restarts if e["ts"] - e["phase_ts"] >= 0.5]
    c.expect("a DEPENDENCY restart on CPU 1 0.5 s or more into the phase", bool(restarts),
             len(restarts))
    if restarts:
        r = restarts[0]
        c.expect("the restart follows the 0.5 s tickless phase (0.3-0.7 s stopped)",
                 300e6 <= int(r["f"]["stopped_ns"]) <= 700e6, r["f"]["stopped_ns"])
        stops = [e for e in events if e["event"] == "tick_stop" and e["cpu"] == 1
                 and e["f"]["success"] == "1" and e["ts"] < r["ts"]]
        gap_ns = (r["ts"] - stops[-1]["ts"]) * 1e9 if stops else -1
        stopped = int(r["f"]["stopped_ns"])
        # The kernel's ktime_get() and the trace clock are read a few
        # instructions apart, but under TCG a host that deschedules the vCPU
        # between them stretches that: 45-193 us were seen on a quiet host.
        # A quarter of a tick (HZ=250) still tells a stale or wrong stop time,
        # which is off by a tick or more.
        c.expect("restart stopped_ns agrees with the stop-to-restart gap within 1 ms",
                 stops != [] and abs(stopped - gap_ns) <= 1e6,
                 f"stopped_ns={stopped} gap={gap_ns:.0f} ns")
        c.expect("restart reports busy (idle=0)", r["f"]["idle"] == "0", r["f"]["idle"])

    # POSIX timers: the culprit's pid at the right scope, and the tick stops after disarm.
    for phase, scope in (("posix-itimer", "PROCESS"), ("posix-thread", "TASK")):
        name = phase.split("-")[1]
        pid = (out / f"{name}.pid").read_text().split()[-1]
        sets = pick(phase, "tick_dep_set", dependency="POSIX_TIMER", scope=scope, target=pid)
        c.expect(f"{phase}: POSIX_TIMER set at {scope} scope for pid {pid}", len(sets) == 1,
                 [e["body"] for e in pick(phase, "tick_dep_set")][:3])
        field = "process_deps" if scope == "PROCESS" else "task_deps"
        refusals = [e for e in pick(phase, "tick_stop", cpu=3, success="0")
                    if "POSIX_TIMER" in e["f"].get(scope.lower(), "")]
        c.expect(f"{phase}: tick_stop refusals on CPU 3 with {field} POSIX_TIMER",
                 len(refusals) >= 50, len(refusals))
        clears = pick(phase, "tick_dep_clear", dependency="POSIX_TIMER", scope=scope)
        later = [e for e in pick(phase, "tick_stop", cpu=3, success="1")
                 if clears and e["ts"] > clears[0]["ts"]]
        c.expect(f"{phase}: cleared, then the tick stops again on CPU 3",
                 bool(clears) and bool(later), f"{len(clears)} clears, {len(later)} stops after")

    # Perf: global scope, and the busy isolated CPU 1 is refused for it.
    sets = pick("perf", "tick_dep_set", dependency="PERF_EVENTS", scope="GLOBAL")
    c.expect("PERF_EVENTS set at GLOBAL scope", len(sets) >= 1, len(sets))
    refusals = [e for e in pick("perf", "tick_stop", cpu=1, success="0")
                if "PERF_EVENTS" in e["f"]["global"]]
    c.expect("tick_stop refusals on CPU 1 with global PERF_EVENTS", len(refusals) >= 25, len(refusals))

    # The housekeeping CPU keeps the tick for timekeeping on idle entry.
    keep = [e for e in events if e["event"] == "tick_retain" and e["cpu"] == 0
            and e["f"]["reason"] == "TIMEKEEPING"]
    c.expect("tick_retain TIMEKEEPING on CPU 0", len(keep) >= 1, len(keep))
    others = [e for e in events if e["event"] == "tick_retain" and e["cpu"] != 0
              and e["f"]["reason"] == "TIMEKEEPING"]
    c.expect("no TIMEKEEPING on the nohz_full CPUs", not others, len(others))

    reasons = sorted({e["f"]["reason"] for e in events if e["event"] == "tick_retain"})
    print(f"info tick_retain reasons seen: {reasons}")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
