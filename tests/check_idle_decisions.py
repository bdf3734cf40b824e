"""check_idle_decisions - each decision of the idle loop about the tick is
traced exactly once (tests/scenarios/patch-events.sh, part 3).

The independent count comes from probes created in the guest, not from the
series: kprobe/kretprobe pairs bound each call of the two decisions,
tick_nohz_idle_stop_tick() and tick_nohz_idle_retain_tick(), and of the
cpuidle governor's question, tick_nohz_get_sleep_length(); a kretprobe on
can_stop_idle_tick() says whether it refused (ret=0).  Interrupts are off
in all three, so on one CPU the events of one call lie between its entry
and its return.

A pass of the idle loop is an optional question followed by one decision.
Per pass:
  - a stop decision whose own can_stop_idle_tick() refused while the tick
    ran: exactly one tick_retain, with an idle-entry reason, inside the
    decision, and none in the question before it (a refusal traced once,
    not twice);
  - the same refusal while the tick was already stopped (tick_stop
    success=1 and tick_restart say which): no tick_retain at all, as the
    event means that the tick is kept running (series v3; v2 traced it);
  - a retain decision (the tick runs): exactly one tick_retain, in the
    decision or, for a tick_nohz_next_event() reason, in the question;
  - any other stop decision: no idle-entry reason at all.
An idle-entry reason outside every decision is an error.
"""
from __future__ import annotations

import re
from pathlib import Path

PHASES = ("nodriver", "halt", "poll")
# the cpuidle driver each phase runs with (sysfs current_driver)
DRIVER = {"nodriver": "none", "halt": "tick_test", "poll": "tick_test"}
NEXT_EVENT = {"TIMER_DUE", "RCU", "ARCH", "IRQ_WORK", "TIMER_SOFTIRQ"}
# NOHZ_INACTIVE also comes from interrupt exits (tick_nohz_full_update_tick)
IDLE_ONLY = {"NEED_RESCHED", "SOFTIRQ", "TIMEKEEPING", "NO_TIMEKEEPER", "IDLE_LOOP"}

LINE = re.compile(r"^\s*.+?-\d+\s+\[(\d+)\]\s+\S+\s+\d+\.\d+:\s+(\w+):\s*(.*)$")


class Pass:
    def __init__(self, asked: bool) -> None:
        self.asked = asked
        self.query_refused: bool | None = None
        self.decision: str | None = None
        self.decision_refused: bool | None = None
        self.in_query: list[str] = []
        self.in_decision: list[str] = []
        # the tick was stopped when the decision began; None: not known
        self.stopped: bool | None = None


def judge(p: Pass) -> str | None:
    """None when the pass is traced as it must be, else what is wrong."""
    traced = p.in_query + p.in_decision
    if p.decision == "stop" and p.decision_refused and p.stopped:
        if traced:
            return f"refused stop of a stopped tick: query {p.in_query}, decision {p.in_decision}"
    elif p.decision == "stop" and p.decision_refused and p.stopped is None:
        if len(traced) > 1 or set(p.in_query) & IDLE_ONLY:
            return f"refused stop: query {p.in_query}, decision {p.in_decision}"
    elif p.decision == "stop" and p.decision_refused:
        if len(p.in_decision) != 1 or p.in_decision[0] not in IDLE_ONLY | {"NOHZ_INACTIVE"} \
                or p.in_query:
            return f"refused stop: query {p.in_query}, decision {p.in_decision}"
    elif p.decision == "retain":
        if len(traced) != 1 or (p.in_query and p.in_query[0] not in NEXT_EVENT):
            return (f"retain (asked={p.asked}, query refused={p.query_refused}): "
                    f"query {p.in_query}, decision {p.in_decision}")
    elif set(traced) & IDLE_ONLY or len(traced) > 1:
        return f"stop: query {p.in_query}, decision {p.in_decision}"
    return None


def analyse(text: str) -> dict[int, dict]:
    """Per CPU: decisions, refusals, retains, events, and what went wrong."""
    cpus: dict[int, dict] = {}
    state: dict[int, tuple[str | None, Pass | None]] = {}
    stopped: dict[int, bool] = {}     # per CPU, once an event has said
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        cpu, event, body = int(m.group(1)), m.group(2), m.group(3)
        s = cpus.setdefault(cpu, {"passes": 0, "refused": 0, "refused_stopped": 0,
                                  "retains": 0, "events": 0,
                                  "bad": [], "stray": [], "seen_start": False})
        if event == "tick_stop" and "success=1" in body:
            stopped[cpu] = True
        elif event == "tick_restart":
            stopped[cpu] = False
        window, p = state.get(cpu, (None, None))
        if event == "query_in":
            s["seen_start"] = True
            state[cpu] = ("query", Pass(True))
        elif event in ("stop_in", "retain_in"):
            first = not s["seen_start"]
            s["seen_start"] = True
            if p is None or window is not None:
                p = Pass(False)
            p.decision = event[:-3]
            p.stopped = stopped.get(cpu)
            # the first pass of a CPU may have begun before tracing did
            p.asked = p.asked if not first else None
            state[cpu] = (p.decision, p)
        elif event == "can_stop" and p is not None:
            refused = re.search(r"ret=0x0\b|ret=0\b", body) is not None
            if window == "query":
                p.query_refused = refused
            elif window == "stop":
                p.decision_refused = refused
        elif event == "query_out" and p is not None and window == "query":
            state[cpu] = (None, p)
        elif event in ("stop_out", "retain_out") and p is not None and window == event[:-4]:
            if p.asked is not None:
                s["passes"] += 1
                s["refused"] += bool(p.decision_refused)
                s["refused_stopped"] += bool(p.decision_refused and p.stopped)
                s["retains"] += p.decision == "retain"
                s["events"] += len(p.in_query) + len(p.in_decision)
                why = judge(p)
                if why:
                    s["bad"].append(why)
            state[cpu] = (None, None)
        elif event == "tick_retain":
            reason = re.search(r"reason=(\w+)", body).group(1)
            if window == "query":
                p.in_query.append(reason)
            elif window in ("stop", "retain"):
                p.in_decision.append(reason)
            elif reason in IDLE_ONLY and s["seen_start"]:
                s["stray"].append(reason)
    return cpus


def check_phase(c, out: Path, phase: str) -> None:
    """c: a checker with expect(what, ok, seen)."""
    setup = (out / f"idle-{phase}-cpuidle.txt") if phase == "nodriver" else \
        (out / f"idle-poll{int(phase == 'poll')}-cpuidle.txt")
    info = dict(l.split("=", 1) for l in setup.read_text().split("\n") if "=" in l)
    want = DRIVER[phase]
    ok_setup = info.get("current_driver") == want and \
        (phase == "nodriver" or info.get("current_governor_ro") == "menu")
    c.expect(f"idle-{phase}: cpuidle driver {want}" + ("" if phase == "nodriver" else
                                                      ", governor menu"), ok_setup, info)
    overruns = [int(x.split()[-1]) for x in
                (out / f"idle-{phase}-overruns.txt").read_text().splitlines()]
    c.expect(f"idle-{phase}: no ring-buffer overruns (a lost event would break a pass)",
             sum(overruns) == 0, overruns)
    cpus = analyse((out / f"idle-{phase}.txt").read_text())
    summary = {n: f"{s['passes']} decisions, {s['refused']} refused "
                  f"({s['refused_stopped']} of a stopped tick), {s['retains']} retains, "
                  f"{s['events']} tick_retain" for n, s in sorted(cpus.items())}
    print(f"info idle-{phase}: {summary}")
    total = {k: sum(s[k] for s in cpus.values()) for k in ("passes", "refused", "retains")}
    # enough of each kind for the check to mean something (CPU 0 keeps its
    # tick for timekeeping, so every decision there keeps it)
    if phase == "poll":
        c.expect(f"idle-{phase}: at least 20 retain decisions", total["retains"] >= 20, total)
    else:
        c.expect(f"idle-{phase}: at least 20 retain and 20 refused decisions",
                 total["retains"] >= 20 and total["refused"] >= 20, total)
    for n, s in sorted(cpus.items()):
        c.expect(f"idle-{phase} CPU{n}: each decision traced exactly once "
                 f"({s['passes']} decisions, {s['refused']} refused)", not s["bad"],
                 f"{len(s['bad'])} wrong, e.g. {s['bad'][:2]}")
        c.expect(f"idle-{phase} CPU{n}: no idle-entry reason outside a decision", not s["stray"],
                 s["stray"][:5])
