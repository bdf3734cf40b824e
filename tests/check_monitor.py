#!/usr/bin/python3
"""check_monitor.py - judge the results of tests/scenarios/monitor.sh.

usage: check_monitor.py OUTDIR TICKSTAT

OUTDIR is the runner's --out folder; TICKSTAT the host build of tickstat,
which reports the guest's recordings over each span between two copies of
the monitor's textfile.  The monitor's counters over that span must equal
the report of the monitor's own recording (-o) within 1 us per state and
per reason, decisions and ticks exactly: the same events, so any gap is the
monitor's.  The recording made beside it by tickstat record is a second
ring buffer that stamps every event separately: there, a CPU's gap must be
no larger than 1 ms plus how far apart the two buffers stamped the CPU's
state-changing events in the span, and the counts may differ by 1 plus the events whose
two stamps fall on either side of a span's end.  Every failure says what
was expected and what was seen, and they are printed last.
"""
import collections
import difflib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from promparse import Exposition, labels_of  # noqa: E402
from sched_whys import sched_whys  # noqa: E402

TOP = 3                 # the scenario's --top
OWN_TOLERANCE_NS = 1000         # the monitor's own recording: 1 us (float seconds)
BESIDE_BASE_NS = 1000000        # tickstat record's: 1 ms + the stamps' differences
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


def compare_span(name: str, a: Exposition, b: Exposition, rep: dict,
                 tolerance: Callable[[int], tuple[int, int]]) -> float:
    """Monitor deltas against the report of the same span; the largest gap in ns.
    tolerance(cpu): ns per state and reason, and for decisions and ticks."""
    worst = 0.0
    for c in rep["cpus"]:
        cpu = c["cpu"]
        if cpu not in CPUS:
            continue
        tol, tol_count = tolerance(cpu)
        within = f"within {tol / 1e6:g} ms"
        want = {k: c[k] for k in ("busy_stopped_ns", "idle_stopped_ns", "unknown_ns",
                                  "idle_state_unknown_ns")}
        want["busy_running_ns"] = c["busy_ns"] - c["busy_stopped_ns"]
        want["idle_running_ns"] = c["idle_ns"] - c["idle_stopped_ns"]
        sa, sb = states(a, cpu), states(b, cpu)
        for k, v in want.items():
            got = ns(sb[k] - sa[k])
            worst = max(worst, abs(got - v))
            expect(f"{name}: CPU {cpu} {k} {v} ns from the report, {within}",
                   abs(got - v) <= tol, got)
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
                   f" {within}", abs(got - r["time_ns"]) <= tol, got)
            got = eb.get(key, 0) - ea.get(key, 0)
            expect(f"{name}: CPU {cpu} {key[0]}@{key[1]} decisions {r['events']}"
                   f" (+-{tol_count})", abs(got - r["events"]) <= tol_count, got)
        for key in rb:
            if key not in seen:
                got = ns(rb[key] - ra.get(key, 0))
                expect(f"{name}: CPU {cpu} {key} not in the report: its monitor seconds"
                       f" {within} of 0", got <= tol, got)
        got = (b.get("tickstat_ticks_total", cpu=str(cpu)) or 0) - \
            (a.get("tickstat_ticks_total", cpu=str(cpu)) or 0)
        expect(f"{name}: CPU {cpu} ticks {c['ticks']} from the report (+-{tol_count})",
               abs(got - c["ticks"]) <= tol_count, got)
    return worst


# sched_switch's prev_state, "[120] Z ==>": dropped for pairing (events_by_cpu)
SWITCH_STATE = re.compile(r"(\[\d+\]) \S+ ==>")


def events_by_cpu(dat: Path) -> dict[str, list[tuple[int, str]]]:
    """(stamp ns, text) of every event but the marks, per CPU, from trace-cmd report.
    The text has the pid but not the command name trace-cmd puts before it,
    which comes from each recording's own table of names."""
    res = subprocess.run(["trace-cmd", "report", "-t", "-i", str(dat)], capture_output=True,
                         text=True)
    if res.returncode:
        raise SystemExit(f"FAIL: trace-cmd report -i {dat}: {res.stderr.strip()}")
    line = re.compile(r"^\s*(.*?)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(.*)$")
    out = collections.defaultdict(list)
    for text in res.stdout.splitlines():
        m = line.match(text)
        if m and "tracing_mark_write" not in text:
            comm, cpu, sec, frac, rest = m.groups()
            pid = comm.rsplit("-", 1)[-1]
            # a field read when the event is written can differ between the
            # two buffers: an exiting task's prev_state went from X to Z
            # while its vCPU stalled 2.4 ms between the two writes (a cold
            # make check, 2026-12-06); unpaired, that stamp difference went
            # uncounted.  Pair sched_switch without it.
            rest = SWITCH_STATE.sub(r"\1 ==>", " ".join(rest.split()))
            out[cpu].append((int(sec) * 10**9 + int(frac), pid + " " + rest))
    return out


# the events that move a CPU from one state to another (docs/metrics.md)
STATE_EVENTS = ("sched_switch:", "tick_stop:", "tick_restart:", "tick_retain:")
# those of a CPU's own tick, which the monitor records of the CPUs it watches only
OWN_TICK_EVENTS = ("tick_stop:", "tick_restart:", "tick_retain:", "hrtimer_expire_entry:")


def tick_cpus(dat: Path) -> set[int]:
    """The CPUs whose tick events a monitor's recording kept, from its start
    marks (its ticks= tokens, a list in pieces read as their union:
    docs/recording-format.md)."""
    res = subprocess.run(["trace-cmd", "report", "-i", str(dat)], capture_output=True,
                         text=True)
    cpus = set()
    for text in res.stdout.splitlines():
        if "tickstat v1 start:" not in text:
            continue
        for tok in re.findall(r"\bticks=([0-9,\-.]+)", text):
            for part in tok.rstrip(".").split(","):
                if not part:
                    continue
                lo, _, hi = part.partition("-")
                cpus.update(range(int(lo), int(hi or lo) + 1))
    if not cpus:
        raise SystemExit(f"FAIL: {dat}: no ticks= in its start marks")
    return cpus


def stamp_pairs(own: Path, beside: Path) -> dict[int, list[tuple[int, int, bool]]]:
    """Both sessions saw the same events: per CPU, each event's two stamps
    and whether it moves the CPU's state.

    Every event of the recording made beside the monitor is looked up in the
    monitor's (same text, same CPU, same order); the kernel writes it into one
    ring buffer after the other, each reading the clock when it reserves room.
    Prints how far apart the stamps are."""
    a, b = events_by_cpu(own), events_by_cpu(beside)
    # the monitor records the own-tick events of the CPUs it watches only
    # (tickstat-monitor(1), -C): leave the others' out of record's
    watched = tick_cpus(own)
    theirs = sum(1 for cpu in b if int(cpu) not in watched
                 for _, t in b[cpu] if t.split()[1] in OWN_TICK_EVENTS)
    extra = sum(1 for cpu in a if int(cpu) not in watched
                for _, t in a[cpu] if t.split()[1] in OWN_TICK_EVENTS)
    expect(f"the monitor's recording has no tick events of the CPUs it does not watch "
           f"(tickstat record's has {theirs})", extra == 0 and theirs > 0, (extra, theirs))
    for cpu in b:
        if int(cpu) not in watched:
            b[cpu] = [(ts, t) for ts, t in b[cpu] if t.split()[1] not in OWN_TICK_EVENTS]
    pairs = collections.defaultdict(list)
    for cpu, evs in b.items():
        mine = a.get(cpu, [])
        sm = difflib.SequenceMatcher(None, [t for _, t in mine], [t for _, t in evs],
                                     autojunk=False)
        for blk in sm.get_matching_blocks():
            pairs[int(cpu)] += [(mine[blk.a + i][0], evs[blk.b + i][0],
                                 evs[blk.b + i][1].split()[1] in STATE_EVENTS)
                                for i in range(blk.size)]
    skew = [abs(x - y) for v in pairs.values() for x, y, _ in v]
    total = sum(len(v) for v in b.values())
    expect(f"the monitor's recording has the events of tickstat record's ({total}), 99% at"
           " least", len(skew) >= 0.99 * total, len(skew))
    if skew:
        skew.sort()
        q = [skew[min(len(skew) - 1, int(p * len(skew)))] / 1e3 for p in (0.5, 0.99, 0.999)]
        # no maximum: where a CPU's events repeat (the tick every 4 ms), an
        # event missing from one side can pair the next one off by a period
        print(f"stamps of the same event in the two ring buffers ({len(skew)} events): apart "
              f"by {q[0]:.1f} us (median), {q[1]:.1f} us (99%), {q[2]:.1f} us (99.9%)")
    return pairs


def beside_tolerance(pairs: list[tuple[int, int, bool]], start: int,
                     end: int) -> tuple[int, int]:
    """What the stamps of one CPU's events explain in [start, end): an event
    that moves the state, stamped apart, moves up to that much time between
    states, and any event with a stamp on each side of an end moves a
    decision or a tick across it."""
    def inside(t: int) -> bool:
        return start <= t < end
    moved = sum(abs(x - y) for x, y, state in pairs if state and (inside(x) or inside(y)))
    across = sum(1 for x, y, _ in pairs if inside(x) != inside(y))
    return BESIDE_BASE_NS + moved, 1 + across


def check_rc(files: Path) -> None:
    rc = dict(line.strip().split("=") for line in open(files / "rc.txt"))
    want = {"record": "0", "offline": "0", "online": "0", "wget": "0",
            "monitor-port-busy": "1", "monitor-bad-textfile": "1", "monitor-offline-cpu": "1",
            "monitor-sigterm": "0", "monitor-sigint": "0", "monitor-lost": "0"}
    for k, v in want.items():
        expect(f"exit status of {k} expected {v}", rc.get(k) == v, rc.get(k))
    expect("wget of /nope fails (404)", rc.get("wget-404") not in (None, "0"), rc.get("wget-404"))
    for f, text in (("err-port.txt", "cannot listen on 127.0.0.1:9101"),
                    ("err-textfile.txt", "--textfile /nonexistent/m.prom: cannot write"),
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
            if (w is None or w < v) and dropped and key[0].startswith(("tickstat_culprit_",
                                                                       "tickstat_corunner_",
                                                                       "tickstat_cause_")):
                # a named series gave way, and the monitor counted it; it may
                # have come back since, from 0, as a newcomer (docs/monitoring.md,
                # "Bounded labels"): awk on CPU 3 went from 0.063 s to 0.005 s
                # between two snapshots while 3 series were dropped, in a cold
                # make check on 2026-12-07
                continue
            expect(f"{na} -> {nb}: {key} is still there and did not go down",
                   w is not None and w >= v, (v, w))
    last = snaps[-1][1]
    first = snaps[0][1]
    expect("the records read grow over the snapshots",
           (last.get("tickstat_monitor_records_total") or 0) >
           (first.get("tickstat_monitor_records_total") or 0),
           (first.get("tickstat_monitor_records_total"),
            last.get("tickstat_monitor_records_total")))
    groups: dict[tuple, int] = {}
    for key in last.select("tickstat_culprit_sets_total"):
        lab = labels_of(key)
        g = (lab["cpu"], lab["reason"], lab["scope"])
        groups[g] = groups.get(g, 0) + 1
    for key in last.select("tickstat_corunner_seconds_total"):
        g = (labels_of(key)["cpu"],)
        groups[g] = groups.get(g, 0) + 1
    for key in last.select("tickstat_cause_events_total"):
        lab = labels_of(key)
        g = (lab["cpu"], lab["type"])
        groups[g] = groups.get(g, 0) + 1
    for g, count in groups.items():
        expect(f"series of {g} at most --top {TOP} + other", count <= TOP + 1, count)
    # SCHED's time by its explanation: every CPU, every snapshot, adds up to SCHED's time
    whys = set(sched_whys())
    for name, snap in snaps:
        for cpu in CPUS:
            by_why = snap.select("tickstat_sched_why_seconds_total", cpu=str(cpu))
            expect(f"{name}: CPU {cpu}: sched_why labels are tickstat's ({sorted(whys)})",
                   {labels_of(k)["why"] for k in by_why} <= whys, sorted(by_why))
            expect(f"{name}: CPU {cpu}: SCHED's time by why adds up to SCHED's time",
                   abs(sum(by_why.values()) - snap.sum("tickstat_reason_seconds_total",
                                                       cpu=str(cpu), reason="SCHED")) < 1e-6,
                   (sum(by_why.values()), snap.sum("tickstat_reason_seconds_total",
                                                    cpu=str(cpu), reason="SCHED")))
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
    at_least("two tasks: CPU 2 SCHED seconds explained as two tasks sharing it", 1.5,
             delta(s["lone"], s["two"], "tickstat_sched_why_seconds_total", cpu="2",
                   why="shared"))
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


def check_housekeeping(tickstat: str, own: Path, rec: Path) -> None:
    """The monitor's recording has no tick events of CPU 0, which it does not
    watch: a report of CPU 0 from it is an error, not a row without ticks;
    tickstat record's has them (the control)."""
    mine = subprocess.run([tickstat, "report", "-C", "0", str(own)], capture_output=True,
                          text=True)
    expect("report -C 0 of the monitor's recording: exit 1, CPU 0 is not in it",
           mine.returncode == 1 and f"-C: CPU 0 is not in {own}, which has data of CPUs 1-3"
           in mine.stderr, (mine.returncode, mine.stderr.strip()))
    theirs = subprocess.run([tickstat, "report", "--json", "-C", "0", str(rec)],
                            capture_output=True, text=True)
    ticks = None
    if theirs.returncode == 0:
        cpu0 = [c for c in json.loads(theirs.stdout)["cpus"] if c["cpu"] == 0]
        ticks = cpu0[0]["ticks"] if cpu0 else None
    expect("report -C 0 of tickstat record's recording: CPU 0's ticks", ticks, ticks)


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
        own = files / "mon.dat"
        pairs = stamp_pairs(own, rec)
        for a, b in zip(want[:5], want[1:6]):
            start = ns(by[a].get("tickstat_monitor_clock_seconds"))
            end = ns(by[b].get("tickstat_monitor_clock_seconds"))
            worst_own = compare_span(f"{a}..{b} (own recording)", by[a], by[b],
                                     report(tickstat, own, start, end),
                                     lambda cpu: (OWN_TOLERANCE_NS, 0))
            worst = compare_span(f"{a}..{b} (tickstat record)", by[a], by[b],
                                 report(tickstat, rec, start, end),
                                 lambda cpu: beside_tolerance(pairs[cpu], start, end))
            allowed = max(beside_tolerance(pairs[c], start, end)[0] for c in CPUS)
            print(f"span {a}..{b}: {(end - start) / 1e9:.3f} s, largest gap to the report of "
                  f"its own recording {worst_own / 1e3:.3f} us, of tickstat record's "
                  f"{worst / 1e6:.3f} ms (the stamps allow {allowed / 1e6:.3f} ms)")
        clock = {n: ns(e.get("tickstat_monitor_clock_seconds")) for n, e in snaps}
        check_callers(by["start"], by["two"], report(tickstat, rec, 0, clock["after-record"]))
        check_housekeeping(tickstat, own, rec)
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
