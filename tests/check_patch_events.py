#!/usr/bin/python3
"""check_patch_events - assertions on the raw traces of tests/scenarios/patch-events.sh.

usage: check_patch_events.py OUTDIR TICKSTAT   (OUTDIR from run-guest --out)

Exit 0 pass, 1 fail.  Prints what it saw for each assertion, failures
last.  The idle decisions are checked in tests/check_idle_decisions.py.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_idle_decisions  # noqa: E402

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
        self.failed: list[str] = []

    def expect(self, what: str, ok: bool, seen) -> None:
        print(f"{'ok  ' if ok else 'FAIL'} {what}: saw {seen}")
        if not ok:
            self.failed.append(f"{what}: saw {seen}")


def raw_events(dat: Path, cpu: int) -> list[tuple[int, str, dict]]:
    """(ns, event, fields) of one CPU, as trace-cmd decodes the trace.dat."""
    text = subprocess.run(["trace-cmd", "report", "-t", "--cpu", str(cpu), "-i", str(dat)],
                          capture_output=True, text=True, check=True).stdout
    return [(int(m.group(1)) * 1_000_000_000 + int(m.group(2)), m.group(3),
             dict(re.findall(r"(\w+)=(\S*)", m.group(4))))
            for m in re.finditer(r"\s(\d+)\.(\d{9}): (\w+):\s+(.*)", text)]


def check_stopped_intervals(c: Checker, dat: Path, tickstat: str) -> None:
    """Stopped intervals are the gaps between a tick_stop success=1 and the
    tick_restart after it, to the nanosecond: tickstat's report of the
    trace.dat against trace-cmd's decoding of the same events.  A duration
    the kernel reports itself (series v1's stopped_ns) must equal its gap."""
    rep = json.loads(subprocess.run([tickstat, "report", "--json", str(dat)], capture_output=True,
                                    text=True, check=True).stdout)
    start, end = rep["window"]["start_ns"], rep["window"]["end_ns"]
    for n in (1, 2, 3):
        raw, claimed, since, has_duration = [], [], None, False
        for ts, event, f in raw_events(dat, n):
            if event == "tick_stop" and f.get("success") == "1":
                since = ts
            elif event == "tick_restart":
                if since is not None and start <= since and ts <= end:
                    raw.append(ts - since)
                    has_duration |= "stopped_ns" in f
                    if int(f.get("stopped_ns", -1)) >= 0:
                        claimed.append((int(f["stopped_ns"]), ts - since))
                since = None
        st = next(x for x in rep["cpus"] if x["cpu"] == n)["stopped_intervals"]
        mine = (st["count"], st["total_ns"], st["max_ns"] or 0)
        want = (len(raw), sum(raw), max(raw, default=0))
        c.expect(f"CPU{n} stopped intervals (count, total ns, longest ns): tickstat = raw events",
                 mine == want and len(raw) >= 1, f"tickstat {mine}, raw {want}")
        if not has_duration:
            print(f"info CPU{n} tick_restart carries no duration (series v2): nothing to compare")
            continue
        wrong = [x for x in claimed if x[0] != x[1]]
        c.expect(f"CPU{n} no tick_restart claims a duration other than its stop-to-restart gap",
                 not wrong, f"{len(wrong)} of {len(claimed)} differ, e.g. {wrong[:2]} "
                 "(stopped_ns, gap)")


def refusal_counts(out: Path, name: str) -> tuple[dict, int, str]:
    """Per-CPU refusals, those with four empty masks, and the first of them."""
    lines = (out / f"{name}.txt").read_text().split("\n")
    refusals = {l.split()[1]: int(l.split()[2]) for l in lines if l.startswith("refusals ")}
    empty = next(int(l.split()[1]) for l in lines if l.startswith("empty "))
    bad = out / f"{name}-empty.txt"
    first = bad.read_text().splitlines()[0].strip() if empty and bad.exists() else ""
    return refusals, empty, first


def check_stress(c: Checker, out: Path) -> None:
    """Dependencies set and cleared from other CPUs: a refusal always carries
    the bits it was refused for, for 10 s of it and at the race's worst."""
    toggles = (out / "depstorm.txt").read_text().strip()
    module = (out / "stress-module.txt").read_text()
    m = re.search(r"(\d+) perf toggles, (\d+) itimer toggles", toggles)
    k = re.search(r"depstorm made (\d+) toggles", module)
    # opening a perf event patches jump labels, which TCG pays for with a
    # flush of its translations: 96-20903 toggles were seen in 10 s
    c.expect("stress: PERF_EVENTS (global) and POSIX_TIMER (process) toggled from CPU 0 "
             "at least 10 times each, PERF_EVENTS (CPU) at least 10000 times",
             bool(m and k) and min(int(m.group(1)), int(m.group(2))) >= 10 and
             int(k.group(1)) >= 10000, f"{toggles}; " + module.strip().replace("\n", "; "))
    refusals, empty, first = refusal_counts(out, "stress")
    # 400-470 per CPU on a quiet host; with the host's load at 12 and one
    # core kept busy, the starved vCPUs took 77-98: the decisions, not the
    # seconds, are what the check below needs.
    c.expect("stress: tick_stop refusals on CPUs 1-3 (at least 40 each)",
             all(refusals.get(f"[00{n}]", 0) >= 40 for n in (1, 2, 3)), refusals)
    overruns = [int(x.split()[-1]) for x in (out / "stress-overruns.txt").read_text().splitlines()]
    print(f"info stress buffer overruns (the events that were kept are checked): {overruns}")
    c.expect("stress: no tick_stop success=0 with all four masks empty", empty == 0,
             f"{empty} of {sum(refusals.values())}" + (f", e.g. {first}" if first else ""))
    m = re.search(r"race set the bit (\d+) times, cleared it (\d+) times", module)
    c.expect("race: the watchpoint took the bit away right after the tick read it "
             "at least 50 times", bool(m) and int(m.group(2)) >= 50, module.strip().replace("\n", "; "))
    refusals, empty, first = refusal_counts(out, "race")
    c.expect("race: no tick_stop success=0 with all four masks empty", empty == 0,
             f"{empty} of {sum(refusals.values())}" + (f", e.g. {first}" if first else ""))


def check_sched_change(c: Checker, events: list) -> None:
    """A deadline task joins two CFS tasks: SCHED is already set for CFS.
    The bit does not change, so there is no tick_dep_set (series v3): the
    new reason comes as tick_dep_sched with the old one, and the clear
    names the reason the bit was held for last."""
    sched = [e for e in events if e["phase"] == "sched-change" and e["f"].get("target") == "3"
             and (e["event"] == "tick_dep_sched" or
                  (e["event"] in ("tick_dep_set", "tick_dep_clear")
                   and e["f"].get("dependency") == "SCHED"))]
    changes = [f"{e['f'].get('prev_sched')}->{e['f'].get('sched')}" for e in sched
               if e["event"] == "tick_dep_sched"]
    c.expect("CPU3: tick_dep_sched CFS->DEADLINE while the bit stays set",
             "CFS->DEADLINE" in changes, changes[:6])
    held, wrong = None, []
    for e in sched:
        if e["event"] == "tick_dep_sched":
            if held is not None and e["f"].get("prev_sched") != held:
                wrong.append(e["body"])
            held = e["f"].get("sched")
        elif e["event"] == "tick_dep_set":
            held = e["f"].get("sched")
        else:
            if held is not None and e["f"].get("sched") != held:
                wrong.append(e["body"])
            held = None
    c.expect("CPU3: tick_dep_sched's prev_sched and tick_dep_clear's sched name the reason last reported",
             not wrong, wrong[:3])


def check_dep_pairs(c: Checker, events: list) -> None:
    """tick_dep_set and tick_dep_clear report real changes only: for each
    bit in each scope and target, sets and clears alternate (the trace has
    no CPU going offline, which clears CPU-scope bits with no event)."""
    last: dict[tuple, str] = {}
    repeated = []
    for e in events:
        if e["event"] not in ("tick_dep_set", "tick_dep_clear"):
            continue
        key = (e["f"].get("dependency"), e["f"].get("scope"), e["f"].get("target"))
        if last.get(key) == e["event"]:
            repeated.append(f"{e['phase']}: {e['body']}")
        last[key] = e["event"]
    c.expect("tick_dep_set and tick_dep_clear alternate for every bit, scope and target",
             not repeated and bool(last), repeated[:3] if repeated else f"{len(last)} bits")


def main() -> int:
    out, tickstat = Path(sys.argv[1]) / "files", sys.argv[2]
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
    c.expect("SCHED set on CPU 2 with sched=CFS", any(e["f"].get("sched") == "CFS" for e in sets),
             [e["body"] for e in sets][:3])
    fails = [e for e in pick("sched-cfs", "tick_stop", cpu=2, success="0") if "SCHED" in e["f"]["cpu"]]
    # HZ=250 for about 0.5 s with both tasks: about 125 refusals.  A starved
    # vCPU folds late ticks (31 were seen with the host's load at 14).
    c.expect("tick_stop refusals on CPU 2 naming SCHED at CPU scope", 10 <= len(fails) <= 400, len(fails))
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

    # Restart: the scenario's DEPENDENCY restart on CPU 1, on an interrupt
    # exit.  Those at the phase's start come from the tasks arriving at the
    # idle CPU, so the scenario's is found by its time (0.7 s in).  The
    # stopped interval it ends is about 0.5 s on a quiet host, but a loaded
    # one delays the launch of the three tasks unevenly (0.23 s was seen):
    # the checks are on the order of the events, the gap is only shown.
    restarts = [e for e in pick("restart", "tick_restart", cpu=1, cause="DEPENDENCY")
                if e["ts"] - e["phase_ts"] >= 0.5]
    c.expect("a DEPENDENCY restart on CPU 1 0.5 s or more into the phase", bool(restarts),
             len(restarts))
    if restarts:
        r = restarts[0]
        cpu1 = [e for e in events if e["cpu"] == 1 and e["ts"] < r["ts"]
                and e["event"] in ("tick_stop", "tick_restart")]
        stops = [e for e in cpu1 if e["event"] == "tick_stop" and e["f"]["success"] == "1"]
        before = [e for e in cpu1 if e["event"] == "tick_restart"]
        gap = r["ts"] - stops[-1]["ts"] if stops else -1
        c.expect("it ends a stopped interval: a tick_stop success=1 on CPU 1 after the "
                 "restart before it", bool(stops) and (not before or
                                                       before[-1]["ts"] < stops[-1]["ts"]),
                 f"stopped for {gap:.6f} s")
        last = cpu1[-1] if cpu1 else None
        c.expect("the event just before it on CPU 1 is the refusal that restarted the tick "
                 "(tick_stop success=0 naming SCHED at CPU scope)",
                 bool(last) and last["event"] == "tick_stop" and last["f"]["success"] == "0"
                 and "SCHED" in last["f"].get("cpu", ""), last["body"] if last else None)
        c.expect("it happened on an interrupt exit (idle_loop=0)",
                 r["f"].get("idle_loop") == "0", r["body"])
    check_stopped_intervals(c, out / "trace.dat", tickstat)
    check_sched_change(c, events)
    check_dep_pairs(c, events)

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
        # about 125 ticks in the 0.5 s armed; a starved vCPU folds late ticks
        c.expect(f"{phase}: tick_stop refusals on CPU 3 with {field} POSIX_TIMER",
                 len(refusals) >= 10, len(refusals))
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
    # About 125 in the 0.5 s at HZ=250 on a quiet host; a starved vCPU folds
    # late ticks (10 were seen with the host's load at 12 and a core busy).
    c.expect("tick_stop refusals on CPU 1 with global PERF_EVENTS", len(refusals) >= 5,
             len(refusals))

    # The housekeeping CPU keeps the tick for timekeeping on idle entry.
    keep = [e for e in events if e["event"] == "tick_retain" and e["cpu"] == 0
            and e["f"]["reason"] == "TIMEKEEPING"]
    c.expect("tick_retain TIMEKEEPING on CPU 0", len(keep) >= 1, len(keep))
    others = [e for e in events if e["event"] == "tick_retain" and e["cpu"] != 0
              and e["f"]["reason"] == "TIMEKEEPING"]
    c.expect("no TIMEKEEPING on the nohz_full CPUs", not others, len(others))
    reasons = sorted({e["f"]["reason"] for e in events if e["event"] == "tick_retain"})
    print(f"info tick_retain reasons seen: {reasons}")

    check_stress(c, out)
    for phase in check_idle_decisions.PHASES:
        check_idle_decisions.check_phase(c, out, phase)

    for f in c.failed:
        print(f"FAIL {f}")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
