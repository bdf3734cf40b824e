#!/usr/bin/python3
"""check_monitor.py - judge the results of tests/scenarios/monitor.sh.

usage: check_monitor.py OUTDIR TICKSTAT

OUTDIR is the runner's --out folder; TICKSTAT the host build of tickstat,
which reports the guest's recording over each span between two copies of
the monitor's textfile.  The monitor's counters over that span must equal
the report within 1 ms per state and per reason.  Every failure says what
was expected and what was seen, and they are printed last.
"""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from promparse import Exposition, labels_of  # noqa: E402

TOP = 3                 # the scenario's --top
TOLERANCE_NS = 1000000  # 1 ms per state and per reason
CPUS = (1, 2, 3)
failures: list[str] = []


def expect(what: str, ok: bool, seen) -> None:
    if not ok:
        failures.append(f"{what}: saw {seen}")


def at_least(what: str, lo: float, seen: float | None) -> None:
    expect(f"{what} expected >= {lo}", seen is not None and seen >= lo, seen)


def ns(seconds: float) -> int:
    return round(seconds * 1e9)


def report(tickstat: str, rec: Path, start: int, end: int) -> dict:
    res = subprocess.run([tickstat, "report", "--json", "--time-range", f"{start},{end}",
                          str(rec)], capture_output=True, text=True)
    if res.returncode:
        raise SystemExit(f"FAIL: tickstat report --time-range {start},{end}: {res.stderr.strip()}")
    return json.loads(res.stdout)


def states(e: Exposition, cpu: int) -> dict[str, float]:
    """The report's state sums, from the monitor's 3x3 time matrix."""
    def t(tick: str, act: str) -> float:
        return e.get("tickstat_cpu_seconds_total", cpu=str(cpu), tick=tick, activity=act) or 0
    return {
        "busy_stopped_ns": t("stopped", "busy"),
        "busy_running_ns": t("running", "busy"),
        "idle_stopped_ns": t("stopped", "idle"),
        "idle_running_ns": t("running", "idle"),
        "unknown_ns": sum(t("unknown", a) for a in ("busy", "idle", "unknown")),
        "idle_state_unknown_ns": t("stopped", "unknown") + t("running", "unknown"),
    }


def reasons(e: Exposition, cpu: int, family: str) -> dict[tuple[str, str], float]:
    out = {}
    for key, v in e.select(family, cpu=str(cpu)).items():
        lab = labels_of(key)
        out[(lab["reason"], lab.get("scope", ""))] = v
    return out


def compare_span(name: str, a: Exposition, b: Exposition, rep: dict) -> float:
    """Monitor deltas against the report of the same span; the largest gap in ns."""
    worst = 0.0
    for c in rep["cpus"]:
        cpu = c["cpu"]
        if cpu not in CPUS:
            continue
        want = {k: c[k] for k in ("busy_stopped_ns", "idle_stopped_ns", "unknown_ns",
                                  "idle_state_unknown_ns")}
        want["busy_running_ns"] = c["busy_ns"] - c["busy_stopped_ns"]
        want["idle_running_ns"] = c["idle_ns"] - c["idle_stopped_ns"]
        sa, sb = states(a, cpu), states(b, cpu)
        for k, v in want.items():
            got = ns(sb[k] - sa[k])
            worst = max(worst, abs(got - v))
            expect(f"{name}: CPU {cpu} {k} {v} ns from the report, within 1 ms",
                   abs(got - v) <= TOLERANCE_NS, got)
        ra, rb = reasons(a, cpu, "tickstat_reason_seconds_total"), \
            reasons(b, cpu, "tickstat_reason_seconds_total")
        ea, eb = reasons(a, cpu, "tickstat_reason_decisions_total"), \
            reasons(b, cpu, "tickstat_reason_decisions_total")
        seen = set()
        for r in c["reasons"]:
            key = (r["reason"], r["scope"] or "")
            seen.add(key)
            got = ns(rb.get(key, 0) - ra.get(key, 0))
            worst = max(worst, abs(got - r["time_ns"]))
            expect(f"{name}: CPU {cpu} {key[0]}@{key[1]} {r['time_ns']} ns from the report,"
                   " within 1 ms", abs(got - r["time_ns"]) <= TOLERANCE_NS, got)
            got = eb.get(key, 0) - ea.get(key, 0)
            expect(f"{name}: CPU {cpu} {key[0]}@{key[1]} decisions {r['events']}",
                   abs(got - r["events"]) <= 1, got)
        for key in rb:
            if key not in seen:
                got = ns(rb[key] - ra.get(key, 0))
                expect(f"{name}: CPU {cpu} {key} not in the report: its monitor seconds"
                       " within 1 ms of 0", got <= TOLERANCE_NS, got)
        got = (b.get("tickstat_ticks_total", cpu=str(cpu)) or 0) - \
            (a.get("tickstat_ticks_total", cpu=str(cpu)) or 0)
        expect(f"{name}: CPU {cpu} ticks {c['ticks']} from the report (+-1)",
               abs(got - c["ticks"]) <= 1, got)
    return worst


def check_rc(files: Path) -> None:
    rc = dict(line.strip().split("=") for line in open(files / "rc.txt"))
    want = {"record": "0", "offline": "0", "online": "0", "wget": "0",
            "monitor-port-busy": "1", "monitor-bad-textfile": "1", "monitor-offline-cpu": "1",
            "monitor-sigterm": "0", "monitor-sigint": "0", "monitor-lost": "0"}
    for k, v in want.items():
        expect(f"exit status of {k} expected {v}", rc.get(k) == v, rc.get(k))
    expect("wget of /nope fails (404)", rc.get("wget-404") not in (None, "0"), rc.get("wget-404"))
    for f, text in (("err-port.txt", "cannot listen on 127.0.0.1:9101"),
                    ("err-textfile.txt", "--textfile: /nonexistent/m.prom"),
                    ("err-cpu.txt", "CPU 9 is not online")):
        seen = (files / f).read_text().strip()
        expect(f"{f} says '{text}' in one line", text in seen and "\n" not in seen, seen)
    # The kernel expands the global buffer the first time any event is
    # enabled, even in an instance; the setting itself stays the same.
    def norm(name: str) -> str:
        return "".join(line.split(" (expanded")[0] + "\n"
                       for line in (files / name).read_text().splitlines())

    before = norm("state-before.txt")
    for f in ("state-after-term.txt", "state-after-int.txt"):
        expect(f"{f}: tracing state as before", norm(f) == before, norm(f))


def check_counters(snaps: list[tuple[str, Exposition]]) -> None:
    """No counter goes down or disappears; clocks advance; label sets stay bounded."""
    for (na, a), (nb, b) in zip(snaps, snaps[1:]):
        expect(f"{na} -> {nb}: the clock advances",
               b.get("tickstat_monitor_clock_seconds") > a.get("tickstat_monitor_clock_seconds"),
               (a.get("tickstat_monitor_clock_seconds"), b.get("tickstat_monitor_clock_seconds")))
        dropped = (b.get("tickstat_series_dropped_total") or 0) > \
            (a.get("tickstat_series_dropped_total") or 0)
        for key, v in a.samples.items():
            if a.types.get(key[0]) != "counter":
                continue
            w = b.samples.get(key)
            if w is None and dropped and key[0].startswith(("tickstat_culprit_",
                                                            "tickstat_corunner_")):
                continue    # a named series gave way, and the monitor counted it
            expect(f"{na} -> {nb}: {key} is still there and did not go down",
                   w is not None and w >= v, (v, w))
    last = snaps[-1][1]
    groups: dict[tuple, int] = {}
    for key in last.select("tickstat_culprit_sets_total"):
        lab = labels_of(key)
        g = (lab["cpu"], lab["reason"], lab["scope"])
        groups[g] = groups.get(g, 0) + 1
    for key in last.select("tickstat_corunner_seconds_total"):
        g = (labels_of(key)["cpu"],)
        groups[g] = groups.get(g, 0) + 1
    for g, count in groups.items():
        expect(f"series of {g} at most --top {TOP} + other", count <= TOP + 1, count)
    for cpu in CPUS:
        expect(f"CPU {cpu}: no lost events",
               last.get("tickstat_lost_events_total", cpu=str(cpu)) == 0 and
               last.get("tickstat_lost_gaps_total", cpu=str(cpu)) == 0,
               (last.get("tickstat_lost_events_total", cpu=str(cpu)),
                last.get("tickstat_lost_gaps_total", cpu=str(cpu))))


def delta(a: Exposition, b: Exposition, name: str, **labels: str) -> float:
    return b.sum(name, **labels) - a.sum(name, **labels)


def check_phases(s: dict[str, Exposition]) -> None:
    """The counters move as the workloads say."""
    cpu_s = "tickstat_cpu_seconds_total"
    at_least("lone task: CPU 1 busy seconds with the tick stopped", 2.0,
             delta(s["idle"], s["lone"], cpu_s, cpu="1", tick="stopped", activity="busy"))
    expect("lone task: CPU 1 busy seconds with the tick running < 0.1",
           delta(s["idle"], s["lone"], cpu_s, cpu="1", tick="running", activity="busy") < 0.1,
           delta(s["idle"], s["lone"], cpu_s, cpu="1", tick="running", activity="busy"))
    at_least("two tasks: CPU 2 SCHED seconds", 1.5,
             delta(s["lone"], s["two"], "tickstat_reason_seconds_total", cpu="2",
                   reason="SCHED"))
    at_least("two tasks: CPU 2 co-runner 'spin' seconds with SCHED holding", 1.5,
             delta(s["lone"], s["two"], "tickstat_corunner_sched_seconds_total", cpu="2",
                   comm="spin"))
    at_least("two tasks: SCHED culprits named for CPU 2", 1,
             len(s["two"].select("tickstat_culprit_sets_total", cpu="2", reason="SCHED")))
    at_least("timer: CPU 3 POSIX_TIMER seconds", 0.3,
             delta(s["two"], s["timer"], "tickstat_reason_seconds_total", cpu="3",
                   reason="POSIX_TIMER"))
    at_least("timer: POSIX_TIMER culprit on CPU 3", 1,
             delta(s["two"], s["timer"], "tickstat_culprit_sets_total", cpu="3",
                   reason="POSIX_TIMER"))
    for cpu, name in (("1", "lone"), ("2", "two")):
        ratio = s[name].get("tickstat_busy_tickless_ratio", cpu=cpu)
        expect(f"{name}: CPU {cpu} last interval's busy tickless ratio in [0, 1]",
               ratio is None or 0 <= ratio <= 1, ratio)
    # hotplug: offline time is unknown time; back online, the numbers move again
    expect("offline: tickstat_cpu_online{cpu=3} is 0",
           s["offline"].get("tickstat_cpu_online", cpu="3") == 0,
           s["offline"].get("tickstat_cpu_online", cpu="3"))
    at_least("offline: CPU 3 unknown seconds while offline (2 s)", 1.5,
             delta(s["after-record"], s["offline"], cpu_s, cpu="3", tick="unknown"))
    expect("online: tickstat_cpu_online{cpu=3} is 1",
           s["online"].get("tickstat_cpu_online", cpu="3") == 1,
           s["online"].get("tickstat_cpu_online", cpu="3"))
    at_least("online: CPU 3 busy seconds with the tick stopped (a 1.5 s lone task)", 1.0,
             delta(s["offline"], s["online"], cpu_s, cpu="3", tick="stopped", activity="busy"))


def check_callers(start: Exposition, two: Exposition, rep: dict) -> None:
    """The callers the monitor names (from /proc/kallsyms, once per new
    caller) are functions the recording names from its own kallsyms.  Only
    the callers whose sets grew after the "start" copy count: the monitor
    began before the recording, and the recorder's own start (its pin to
    one CPU, __do_set_cpus_allowed) can set SCHED on CPU 2 before the
    recording's window opens.  With --top 3 some may be summed under
    'other' (a newcomer gets a name only when it outdoes the smallest named
    series), so a set after the start copy may grow 'other' alone; none may
    be 'unknown'."""
    sets = "tickstat_culprit_sets_total"
    keys = two.select(sets, cpu="2", reason="SCHED")
    named = {labels_of(k)["caller"] for k in keys} - {"other"}
    grown = {c for c in named if delta(start, two, sets, cpu="2", reason="SCHED", caller=c) > 0}
    recorded = {c["caller"].split("+")[0] for cpu in rep["cpus"] if cpu["cpu"] == 2
                for c in cpu["culprits"] if c["dependency"] == "SCHED" and c.get("caller")}
    at_least("two tasks: SCHED sets on CPU 2 after the start copy, named or 'other'", 1,
             delta(start, two, sets, cpu="2", reason="SCHED"))
    expect(f"two tasks: the monitor's SCHED callers on CPU 2 set after the start copy are "
           f"the recording's {recorded}", grown <= recorded, grown)
    unknown = [k for k in two.select(sets) if labels_of(k)["caller"] == "unknown"]
    expect("every culprit's caller has a name", not unknown, unknown)


def main() -> int:
    out, tickstat = Path(sys.argv[1]), sys.argv[2]
    files = out / "files"
    check_rc(files)
    snaps = []
    for p in sorted(files.glob("snap-*.prom"), key=lambda p: int(p.name.split("-")[1])):
        try:
            snaps.append((p.stem.split("-", 2)[2], Exposition(p.read_text())))
        except ValueError as e:
            failures.append(f"{p.name}: {e}")
    names = [n for n, _ in snaps]
    want = ["start", "idle", "lone", "two", "timer", "all", "after-record", "offline", "online",
            "final"]
    if names != want:
        failures.append(f"snapshots {want} expected, saw {names}")
    else:
        by = dict(snaps)
        check_counters(snaps)
        check_phases(by)
        rec = files / "rec.dat"
        for a, b in zip(want[:5], want[1:6]):
            start = ns(by[a].get("tickstat_monitor_clock_seconds"))
            end = ns(by[b].get("tickstat_monitor_clock_seconds"))
            worst = compare_span(f"{a}..{b}", by[a], by[b], report(tickstat, rec, start, end))
            print(f"span {a}..{b}: {(end - start) / 1e9:.3f} s, largest gap to the report "
                  f"{worst / 1e6:.3f} ms")
        clock = {n: ns(e.get("tickstat_monitor_clock_seconds")) for n, e in snaps}
        check_callers(by["start"], by["two"], report(tickstat, rec, 0, clock["after-record"]))
    try:
        http = Exposition((files / "http.prom").read_text())
        text = Exposition((files / "snap-9-online.prom").read_text())
        expect("/metrics has the textfile's families", set(http.types) == set(text.types),
               set(http.types) ^ set(text.types))
    except (OSError, ValueError) as e:
        failures.append(f"http.prom: {e}")
    if shutil.which("promtool"):
        res = subprocess.run(["promtool", "check", "metrics"], input=(files / "m.prom").read_bytes(),
                             capture_output=True)
        expect("promtool check metrics finds nothing", res.returncode == 0 and not res.stdout
               and not res.stderr, (res.stdout + res.stderr).decode().strip())
    else:
        failures.append("promtool not found (scripts/install-deps.sh installs prometheus)")
    try:
        lost = Exposition((files / "lost.prom").read_text())
        n = (lost.get("tickstat_lost_events_total", cpu="2") or 0) + \
            (lost.get("tickstat_lost_gaps_total", cpu="2") or 0)
        expect("a 4 KiB buffer under pingpong: lost events counted on CPU 2", n > 0, n)
    except (OSError, ValueError) as e:
        failures.append(f"lost.prom: {e}")
    err = (files / "monitor.err").read_text()
    expect("the monitor said CPU 3 went offline and online",
           re.search(r"CPU 3 went offline", err) and re.search(r"CPU 3 went online", err), err)
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
