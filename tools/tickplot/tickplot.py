"""tickplot - pictures of where the ticks went, from tickstat's JSON and CSV.

Plots: timeline (spans per CPU coloured by the reason that kept the tick,
tick marks, a marker per cause type where the CSV has causes, idle/busy strip), reasons (per CPU, the window by tick state and
a bar per reason beside it), durations (log2 histogram of stopped intervals),
compare (two reports side by side) and summary (one page of the first three).

Every drawn element carries a gid ("span:CPU:CATEGORY", "ticks:CPU", "causes:CPU:TYPE",
"reason:CPU:NAME", ...) so that tests can check what was drawn.

Errors a user can cause are one line on stderr, "tickplot: ...", and an exit
status (EXIT_*): an input that cannot be read, is malformed or empty, or a
JSON report and a CSV timeline that are not of the same report; the command
line; the output.

A JSON report and a CSV timeline drawn together are tied by the report's
identity, which both carry (window.id, the CSV's window row); files of an
older tickstat, without it, by the sums both carry (a note says so).
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import re
import stat
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

SCHEMA = "tickstat-report/1"
CSV_HEADER = ["kind", "cpu", "start_ns", "end_ns", "tick", "idle", "reasons", "task"]
CSV_HEADER_V1 = CSV_HEADER[:7]     # before the task column: still read
TICK_STATES = ("stopped", "running", "unknown")
IDLE_STATES = ("busy", "idle", "unknown")
# cause rows' types (tickstat's, docs/recording-format.md) and their markers on the timeline
CAUSE_MARKERS = {"work": "s", "timer": "^", "hrtimer": "v", "irq": "o", "softirq": "D",
                 "vector": "p"}
MAX_NS = 2**63 - 1                 # tickstat's times are u64 ns; more is not a time
MAX_CPU = 1 << 20
REPORT_ID = re.compile(r"[0-9a-f]{16}")   # window.id, the CSV window row's: 16 hex digits
# a diagnosis row's cause: a reason, a cause type, TICKLESS or UNKNOWN
DIAGNOSIS_CAUSE = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,46}")
# what explains SCHED, in a word: tickstat's ts_sched_whys (diagnosis.c), in its order
SCHED_WHYS = ("deadline", "fair-server", "cpu-quota", "unnamed", "kworker", "percpu-kthread",
              "shared", "alone", "others", "no-task", "scx")
# compare warns when the windows' lengths differ by more than this share of the longer
WINDOW_TOLERANCE = 0.10
EXIT_INPUT, EXIT_USAGE, EXIT_OUTPUT = 1, 2, 3
TASK_COLOURS = ["#1f77b4", "#e6550d", "#756bb1", "#31a354"]
STOPPED = "#9ed99e"
RUNNING = "#f4a582"
UNKNOWN = "#d0d0d0"
CAUSE_COLOUR = "#444444"
PALETTE = {
    "SCHED": "#d62728", "POSIX_TIMER": "#9467bd", "PERF_EVENTS": "#8c564b",
    "RCU": "#ff7f0e", "RCU_EXP": "#ffbb78", "CLOCK_UNSTABLE": "#e377c2",
    "TIMER_DUE": "#1f77b4", "TIMEKEEPING": "#17becf", "IRQ_WORK": "#bcbd22",
    "TIMER_SOFTIRQ": "#aec7e8", "SOFTIRQ": "#c5b0d5", "NEED_RESCHED": "#f7b6d2",
    "UNREPORTED": "#7f7f7f", "NOT_NOHZ_FULL": "#c49c94",
}
EXTRA = ["#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"]


class InputError(Exception):
    """Bad input: reported as one line, exit EXIT_INPUT."""
    status = EXIT_INPUT


class UsageError(InputError):
    """A command line that cannot work (labels, output name): exit EXIT_USAGE."""
    status = EXIT_USAGE


class OutputError(InputError):
    """The picture cannot be written: exit EXIT_OUTPUT."""
    status = EXIT_OUTPUT


def one_line(text: str) -> str:
    """Control characters (a newline in a file name) escaped: a message stays one line."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))


def plain(text) -> str:
    """Text from the data, drawn as it is: matplotlib would read "$...$" as
    mathematics (and fail on an unknown command in a task's name)."""
    return one_line(text).replace("$", r"\$")


def reason_colour(name: str, extra: dict[str, str]) -> str:
    base = name.split("@")[0]
    if base in PALETTE:
        return PALETTE[base]
    if base not in extra:
        extra[base] = EXTRA[len(extra) % len(EXTRA)]
    return extra[base]


def note(text: str) -> None:
    """Something the user should know, not an error: one line on stderr."""
    print(f"tickplot: note: {one_line(text)}", file=sys.stderr)


def parse_cpu_list(text: str) -> frozenset[int]:
    """A CPU list as tickstat writes it (1-3,5); "" is no CPU."""
    cpus: set[int] = set()
    for part in text.split(",") if text else []:
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        a, b = (int(m[1]), int(m[2] or m[1])) if m else (1, 0)
        if not a <= b < MAX_CPU:
            raise ValueError(f"cpu {one_line(repr(text))[:40]} is not a CPU list like 1-3,5")
        cpus.update(range(a, b + 1))
    return frozenset(cpus)


def cpu_list(cpus) -> str:
    """CPU numbers as ranges, the way tickstat writes them: 0-3,6."""
    runs: list[list[int]] = []
    for c in sorted(set(cpus)):
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs) or "none"


# --- the JSON report -----------------------------------------------------------------------

class Fields:
    """Typed access to a report's fields: a missing or mistyped field is an
    InputError naming the file and the field, never a KeyError later."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def bad(self, where: str, what: str):
        raise InputError(f"{self.path}: {where}: {what}")

    def get(self, obj: dict, key: str, where: str, kinds: tuple, null: bool = False,
            default=KeyError):
        if key not in obj:
            if default is not KeyError:
                return default
            self.bad(f"{where}{key}", "missing")
        v = obj[key]
        if v is None and null:
            return None
        if isinstance(v, bool) or not isinstance(v, kinds):
            want = "/".join(k.__name__ for k in kinds) + (" or null" if null else "")
            self.bad(f"{where}{key}", f"expected {want}, got {one_line(repr(v))[:40]}")
        return v

    def ns(self, obj: dict, key: str, where: str, null: bool = False):
        v = self.get(obj, key, where, (int,), null)
        if v is not None and not 0 <= v <= MAX_NS:
            self.bad(f"{where}{key}", f"{v} is not a time in ns")
        return v

    def number(self, obj: dict, key: str, where: str, hi: float = math.inf, null: bool = True):
        v = self.get(obj, key, where, (int, float), null)
        if v is not None and not (math.isfinite(v) and 0 <= v <= hi):
            self.bad(f"{where}{key}", f"{v} is out of range (0 to {hi:g})")
        return v


def check_cpu(f: Fields, c, i: int) -> None:
    """The fields of one CPU that the pictures read."""
    where = f"cpus[{i}]."
    if not isinstance(c, dict):
        f.bad(f"cpus[{i}]", "not an object")
    cpu = f.get(c, "cpu", where, (int,))
    if not 0 <= cpu < 1 << 20:
        f.bad(f"{where}cpu", f"{cpu} is not a CPU number")
    where = f"CPU {cpu}: "
    window = f.ns(c, "window_ns", where)
    states = sum(f.ns(c, k, where) for k in ("stopped_ns", "running_ns", "unknown_ns"))
    if states != window:
        f.bad(f"CPU {cpu}", f"stopped + running + unknown = {states} ns, window_ns {window}")
    for key in ("tickless_share", "busy_tickless_share", "unknown_share"):
        f.number(c, key, where, 1.0)
    f.number(c, "tick_rate_hz", where)
    f.ns(c, "ticks", where, null=True)
    for k, r in enumerate(f.get(c, "reasons", where, (list,))):
        if not isinstance(r, dict):
            f.bad(f"{where}reasons[{k}]", "not an object")
        f.get(r, "reason", f"{where}reasons[{k}].", (str,))
        f.get(r, "scope", f"{where}reasons[{k}].", (str,), null=True, default=None)
        f.ns(r, "time_ns", f"{where}reasons[{k}].")
    iv = f.get(c, "stopped_intervals", where, (dict,))
    w = f"{where}stopped_intervals."
    f.ns(iv, "open", w)
    f.ns(iv, "open_total_ns", w)
    f.ns(iv, "count", w)
    for k, h in enumerate(f.get(iv, "log2_histogram", w, (list,))):
        if not isinstance(h, dict):
            f.bad(f"{w}log2_histogram[{k}]", "not an object")
        if not f.ns(h, "lt_ns", f"{w}log2_histogram[{k}].") > 0:
            f.bad(f"{w}log2_histogram[{k}].lt_ns", "0 is no bucket")
        f.ns(h, "count", f"{w}log2_histogram[{k}].")
    for k, t in enumerate(f.get(c, "co_runners", where, (list,), null=True, default=None) or []):
        if not isinstance(t, dict):
            f.bad(f"{where}co_runners[{k}]", "not an object")
        f.get(t, "pid", f"{where}co_runners[{k}].", (int,))
        f.get(t, "comm", f"{where}co_runners[{k}].", (str,), null=True)


def check_report(data, path: Path) -> dict:
    """What the pictures read of a report, checked: types, ranges, and a window
    and CPUs to draw."""
    f = Fields(path)
    if not isinstance(data, dict) or "schema" not in data:
        raise InputError(f"{path}: not a tickstat report (no schema)")
    if data["schema"] != SCHEMA:
        raise InputError(f"{path}: schema {one_line(repr(data['schema']))[:60]}, "
                         f"tickplot reads {SCHEMA!r}")
    src = f.get(data, "source", "", (dict,))
    f.get(src, "kind", "source.", (str,))
    f.get(src, "kernel", "source.", (str,), null=True, default=None)
    window = f.get(data, "window", "", (dict,))
    duration = f.ns(window, "duration_ns", "window.")
    f.ns(window, "start_ns", "window.")
    f.ns(window, "end_ns", "window.")
    rid = f.get(window, "id", "window.", (str,), null=True, default=None)
    if rid is not None and not REPORT_ID.fullmatch(rid):
        f.bad("window.id", f"{one_line(repr(rid))[:40]} is not 16 hex digits")
    if duration == 0:
        raise InputError(f"{path}: the window is empty (0 ns): nothing to draw")
    cpus = f.get(data, "cpus", "", (list,))
    if not cpus:
        raise InputError(f"{path}: the report has no CPU: nothing to draw")
    for i, c in enumerate(cpus):
        check_cpu(f, c, i)
    seen = [c["cpu"] for c in cpus]
    if len(set(seen)) != len(seen):
        raise InputError(f"{path}: a CPU appears twice in cpus")
    return data


def no_constant(name: str):
    raise ValueError(f"{name} is not a number in JSON")


def load_json(path: Path) -> dict:
    try:
        text = Path(path).read_bytes().decode("utf-8")
        data = json.loads(text, parse_constant=no_constant)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text (byte {e.start})") from e
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not JSON ({e.msg} at line {e.lineno})") from e
    except (ValueError, RecursionError) as e:
        raise InputError(f"{path}: not a tickstat report ({e})") from e
    return check_report(data, path)


# --- the CSV timeline ----------------------------------------------------------------------

class Window(NamedTuple):
    """The CSV's window row: what the report covers, and its identity."""
    cpus: frozenset[int]
    start_ns: int
    end_ns: int
    id: str


class Timeline:
    """The CSV timeline grouped per CPU: spans by category, tick times."""

    def __init__(self) -> None:
        # the window row; None in a CSV of an older tickstat
        self.window: Window | None = None
        self.spans: dict[int, dict[str, list[tuple[float, float]]]] = defaultdict(
            lambda: defaultdict(list))
        self.busy: dict[int, list[tuple[float, float]]] = defaultdict(list)
        # spans whose task state (busy or idle) is unknown: neither busy nor idle
        self.idle_unknown: dict[int, list[tuple[float, float]]] = defaultdict(list)
        # busy spans per task (pid; -1 when the CSV does not say)
        self.task_spans: dict[int, dict[int, list[tuple[float, float]]]] = defaultdict(
            lambda: defaultdict(list))
        # per task, its time with the tick running: who shared the CPU
        self.task_held: dict[int, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        self.ticks: dict[int, list[float]] = defaultdict(list)
        # cause rows: per CPU and type, (start s, name); None when the CSV has no cause row
        self.causes: dict[int, dict[str, list[tuple[float, str]]]] = defaultdict(
            lambda: defaultdict(list))
        # verdict rows: the diagnosis's cause per CPU, and what explains SCHED there
        self.diagnosis: dict[int, str] = {}
        self.sched_why: dict[int, str] = {}
        self.end = 0.0
        # exact sums, in ns, to hold against a report: time per tick state, end, ticks
        self.state_ns: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.end_ns: dict[int, int] = {}
        self.span_end: dict[int, int] = {}
        self.rows = 0

    def cpus(self) -> set[int]:
        """The CPUs of the timeline: the window row's, else those with rows."""
        return set(self.window.cpus) if self.window else \
            set(self.end_ns) | set(self.spans) | set(self.ticks)


def span_category(row: dict) -> str:
    if row["tick"] == "stopped":
        return "stopped"
    if row["tick"] == "unknown":
        return "unknown"
    return row["reasons"].split("+")[0] if row["reasons"] else "UNREPORTED"


def csv_int(text: str, what: str, hi: int = MAX_NS) -> int:
    try:
        v = int(text)
    except ValueError:
        raise ValueError(f"{what} {one_line(repr(text))[:40]} is not a number") from None
    if not 0 <= v <= hi:
        raise ValueError(f"{what} {v} is out of range")
    return v


def add_window(tl: Timeline, row: dict) -> None:
    """The window row: first, once; its CPUs, absolute times and identity."""
    if tl.window or tl.rows:
        raise ValueError("a window row that is not the first row")
    start, end = csv_int(row["start_ns"], "start_ns"), csv_int(row["end_ns"], "end_ns")
    if end < start:
        raise ValueError("the window ends before it starts")
    if not REPORT_ID.fullmatch(row["reasons"]):
        raise ValueError(f"window id {one_line(repr(row['reasons']))[:40]} is not 16 hex digits")
    if row["tick"] or row["idle"] or row.get("task"):
        raise ValueError("a window row with a tick, idle or task field")
    tl.window = Window(parse_cpu_list(row["cpu"]), start, end, row["reasons"])
    tl.end = max(tl.end, (end - start) / 1e9)


def add_cause(tl: Timeline, cpu: int, row: dict) -> None:
    """A cause row: cause,CPU,START,END,,,TYPE:NAME,PID; END is empty when the
    exit was not seen."""
    ctype, _, name = row["reasons"].partition(":")
    if ctype not in CAUSE_MARKERS or not name:
        raise ValueError(f"cause {one_line(repr(row['reasons']))[:40]} is not TYPE:NAME of a "
                         f"known type ({', '.join(CAUSE_MARKERS)})")
    if row["tick"] or row["idle"]:
        raise ValueError("a cause row with a tick or idle field")
    tl.causes[cpu][ctype].append((csv_int(row["start_ns"], "start_ns") / 1e9, name))


def add_verdict(tl: Timeline, row: dict) -> None:
    """A verdict row, after the timeline: diagnosis,CPU,W,W,,,CAUSE, or
    why,CPU,W,W,,,SCHED:LABEL, (one of each per CPU, at the window's end W)."""
    cpu = csv_int(row["cpu"], "cpu", MAX_CPU - 1)
    if any(row.get(k) for k in ("tick", "idle", "task")):
        raise ValueError(f"a {row['kind']} row with a tick, idle or task field")
    at = csv_int(row["start_ns"], "start_ns")
    if csv_int(row["end_ns"], "end_ns") != at or \
            (tl.window and at != tl.window.end_ns - tl.window.start_ns):
        raise ValueError(f"a {row['kind']} row that is not at the window's end")
    if tl.window and cpu not in tl.window.cpus:
        raise ValueError(f"a {row['kind']} row of CPU {cpu}, which the window row does not name "
                         f"({cpu_list(tl.window.cpus)})")
    seen = tl.diagnosis if row["kind"] == "diagnosis" else tl.sched_why
    if cpu in seen:
        raise ValueError(f"a second {row['kind']} row of CPU {cpu}")
    if row["kind"] == "diagnosis":
        if not DIAGNOSIS_CAUSE.fullmatch(row["reasons"]):
            raise ValueError(f"diagnosis {one_line(repr(row['reasons']))[:40]} is not a cause name")
        seen[cpu] = row["reasons"]
        return
    reason, _, label = row["reasons"].partition(":")
    if reason != "SCHED" or label not in SCHED_WHYS:
        raise ValueError(f"why {one_line(repr(row['reasons']))[:40]} is not SCHED:LABEL of a "
                         f"known label ({', '.join(SCHED_WHYS)})")
    seen[cpu] = label


def add_row(tl: Timeline, row: dict) -> None:
    """One row into the timeline; ValueError says what is wrong with it."""
    if row["kind"] == "window":
        add_window(tl, row)
        return
    if row["kind"] in ("diagnosis", "why"):
        add_verdict(tl, row)
        tl.rows += 1
        return
    if tl.diagnosis or tl.sched_why:
        raise ValueError(f"a {one_line(row['kind'])[:20]!r} row after the verdict rows")
    cpu = csv_int(row["cpu"], "cpu", MAX_CPU - 1)
    start = csv_int(row["start_ns"], "start_ns")
    # a cause whose exit was not seen has no end: it is an instant here
    end = start if row["kind"] == "cause" and row["end_ns"] == "" else \
        csv_int(row["end_ns"], "end_ns")
    if end < start:
        raise ValueError("span ends before it starts")
    if tl.window and cpu not in tl.window.cpus:
        raise ValueError(f"a row of CPU {cpu}, which the window row does not name "
                         f"({cpu_list(tl.window.cpus)})")
    if tl.window and end > tl.window.end_ns - tl.window.start_ns:
        raise ValueError(f"a row ending at {end} ns, past the window's "
                         f"{tl.window.end_ns - tl.window.start_ns} ns")
    if row["kind"] == "tick":
        tl.ticks[cpu].append(start / 1e9)
        tl.end_ns[cpu] = max(tl.end_ns.get(cpu, 0), end)
    elif row["kind"] == "cause":
        add_cause(tl, cpu, row)
    elif row["kind"] == "span":
        if row["tick"] not in TICK_STATES or row["idle"] not in IDLE_STATES:
            raise ValueError(f"tick {one_line(row['tick'])[:20]!r}, idle "
                             f"{one_line(row['idle'])[:20]!r}: not a state")
        if start < tl.span_end.get(cpu, 0):
            raise ValueError(f"CPU {cpu}'s span starts at {start} ns, before its previous "
                             f"one ends ({tl.span_end[cpu]} ns)")
        tl.span_end[cpu] = end
        tl.end_ns[cpu] = max(tl.end_ns.get(cpu, 0), end)
        s, d = start / 1e9, (end - start) / 1e9
        tl.state_ns[cpu][row["tick"]] += end - start
        tl.spans[cpu][span_category(row)].append((s, d))
        if row["idle"] == "unknown":
            tl.idle_unknown[cpu].append((s, d))
        elif row["idle"] == "busy":
            tl.busy[cpu].append((s, d))
            pid = csv_int(row["task"], "task", 1 << 31) if row.get("task") else -1
            if pid > 0:
                tl.task_spans[cpu][pid].append((s, d))
                if row["tick"] == "running":
                    tl.task_held[cpu][pid] += d
    else:
        raise ValueError(f"unknown kind {one_line(row['kind'])[:20]!r}")
    tl.end = max(tl.end, end / 1e9)
    tl.rows += 1


def utf8_lines(f, path: Path):
    """A binary file's lines as text, line by line, so that a byte that is not
    UTF-8 is reported with its line number."""
    for lineno, raw in enumerate(f, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InputError(f"{path}:{lineno}: not UTF-8 text (byte {e.start + 1})") from e


def load_csv(path: Path) -> Timeline:
    tl = Timeline()
    try:
        with open(path, "rb") as f:
            reader = csv.reader(utf8_lines(f, path), strict=True)
            try:
                header = next(reader, None)
                if header is None:
                    raise InputError(f"{path}: empty file, not a tickstat CSV timeline")
                if header not in (CSV_HEADER, CSV_HEADER_V1):
                    raise InputError(f"{path}: not a tickstat CSV timeline (header "
                                     f"{one_line(','.join(header))[:80]!r})")
                for fields in reader:
                    if len(fields) != len(header):
                        raise InputError(f"{path}:{reader.line_num}: {len(fields)} fields, "
                                         f"expected {len(header)}")
                    try:
                        add_row(tl, dict(zip(header, fields)))
                    except ValueError as e:
                        raise InputError(f"{path}:{reader.line_num}: {e}") from e
            except csv.Error as e:
                raise InputError(f"{path}:{reader.line_num}: not CSV ({e})") from e
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from e
    if not tl.rows:
        raise InputError(f"{path}: no rows: nothing to draw")
    return tl


def check_same_report(report: dict, rpath: Path, tl: Timeline, cpath: Path) -> None:
    """A JSON report and a CSV timeline drawn together must come from one run of
    tickstat (or of report and record with the same options on one recording):
    the same identity, CPUs and window (window.id, cpus, window.start_ns and
    end_ns; the CSV's window row).  Files of an older tickstat, without the
    identity, are tied by what both carry, with a note: each CPU of the report
    in the CSV (which may have more: its timeline did not follow report -C).
    Either way, for each CPU the same window, the same time in each tick state
    and the same ticks, to the ns."""
    def differ(what: str, why: str = "another recording, CPU set or time range?"):
        raise InputError(f"{cpath} and {rpath} are not of the same report: {what} ({why})")

    rid, rwin = report["window"].get("id"), report["window"]
    rcpus = {c["cpu"] for c in report["cpus"]}
    w = tl.window
    if w and rid:
        if w.cpus != rcpus:
            differ(f"the CSV is of CPU {cpu_list(w.cpus)}, the report of CPU {cpu_list(rcpus)}",
                   "another -C or --nohz-full?")
        if (w.start_ns, w.end_ns) != (rwin["start_ns"], rwin["end_ns"]):
            differ(f"the CSV's window is {w.start_ns / 1e9:.9f} s to {w.end_ns / 1e9:.9f} s, "
                   f"the report's {rwin['start_ns'] / 1e9:.9f} s to {rwin['end_ns'] / 1e9:.9f} s",
                   "another recording or time range?")
        if w.id != rid:
            differ(f"the CSV's identity is {w.id}, the report's {rid}",
                   "another recording, boot or --nohz-full?")
    missing = rcpus - set(tl.end_ns)
    if missing:
        differ(f"CPU {cpu_list(missing)} of the report not in the CSV (it has "
               f"{cpu_list(tl.end_ns)})")
    for c in report["cpus"]:
        cpu = c["cpu"]
        if tl.end_ns[cpu] != c["window_ns"]:
            differ(f"CPU {cpu}'s timeline ends at {tl.end_ns[cpu] / 1e9:.9f} s, the report's "
                   f"window is {c['window_ns'] / 1e9:.9f} s long")
        for state in TICK_STATES:
            if tl.state_ns[cpu][state] != c[f"{state}_ns"]:
                differ(f"CPU {cpu}: tick {state} {tl.state_ns[cpu][state] / 1e9:.9f} s in the "
                       f"CSV, {c[f'{state}_ns'] / 1e9:.9f} s in the report")
        if len(tl.ticks[cpu]) != (c["ticks"] or 0):
            ticks = "null (unknown)" if c["ticks"] is None else c["ticks"]
            differ(f"CPU {cpu}: {len(tl.ticks[cpu])} tick rows in the CSV, {ticks} ticks in "
                   "the report")
    if not (w and rid):
        old = [f"{cpath} has no window row"] if not w else []
        old += [f"{rpath} has no window.id"] if not rid else []
        note(f"{' and '.join(old)} (an older tickstat): the two are tied by their sums only")


def co_runner_names(report: dict | None) -> dict[int, str]:
    """pid -> "comm(pid)" from a report's co_runners, where it has them."""
    names = {}
    for c in (report or {}).get("cpus", []):
        for t in c.get("co_runners") or []:
            names[t["pid"]] = f"{t['comm'] or '?'}({t['pid']})"
    return names


# --- pictures ------------------------------------------------------------------------------

def cpu_label(tl: Timeline, cpu: int) -> str:
    """A CPU's name on the timeline, with its verdict where the CSV has one:
    "CPU2\nSCHED: shared", "CPU1\nTICKLESS\nSCHED: fair-server"."""
    label = f"CPU{cpu}"
    cause, why = tl.diagnosis.get(cpu), tl.sched_why.get(cpu)
    if cause:
        label += "\n" + plain(cause) + (f": {why}" if why and cause == "SCHED" else "")
    if why and cause != "SCHED":
        label += f"\nSCHED: {why}"
    return label


def draw_timeline(ax, tl: Timeline, cpus: list[int] | None = None,
                  task_names: dict[int, str] | None = None) -> None:
    """Spans per CPU coloured by reason; ticks above; below, a marker per
    cause type where the CSV has causes, then the busy strip, in colour for
    the tasks that ran most while the tick ran (co-runners), grey hatched
    where the task state is unknown."""
    cpus = sorted(cpus if cpus is not None else tl.cpus())
    task_names = task_names or {}
    extra: dict[str, str] = {}
    legend: dict[str, str] = {}
    causes_drawn: set[str] = set()
    for row, cpu in enumerate(cpus):
        y = row * 1.0
        if not tl.spans[cpu] and not tl.ticks[cpu] and not tl.causes[cpu]:
            note = ax.text(0.01, y + 0.5, f"CPU{cpu}: no timeline rows", va="center",
                           fontsize=7, transform=ax.get_yaxis_transform())
            note.set_gid(f"no-rows:{cpu}")
        for cat, spans in sorted(tl.spans[cpu].items()):
            colour = STOPPED if cat == "stopped" else UNKNOWN if cat == "unknown" \
                else reason_colour(cat, extra)
            coll = ax.broken_barh(spans, (y + 0.25, 0.5), facecolors=colour,
                                  hatch="//" if cat == "unknown" else None, linewidth=0)
            coll.set_gid(f"span:{cpu}:{cat}")
            legend[cat if cat in ("stopped", "unknown") else cat.split("@")[0]] = colour
        if tl.busy[cpu]:
            coll = ax.broken_barh(tl.busy[cpu], (y + 0.1, 0.1), facecolors="black", linewidth=0)
            coll.set_gid(f"busy:{cpu}")
        if tl.idle_unknown[cpu]:
            coll = ax.broken_barh(tl.idle_unknown[cpu], (y + 0.1, 0.1), facecolors=UNKNOWN,
                                  hatch="////", edgecolor="grey", linewidth=0)
            coll.set_gid(f"idle-unknown:{cpu}")
            legend["busy or idle unknown"] = UNKNOWN
        held = sorted(((t, pid) for pid, t in tl.task_held[cpu].items() if t > 0), reverse=True)
        for k, (_, pid) in enumerate(held[:len(TASK_COLOURS)]):
            colour = TASK_COLOURS[k]
            coll = ax.broken_barh(tl.task_spans[cpu][pid], (y + 0.1, 0.1), facecolors=colour,
                                  linewidth=0)
            coll.set_gid(f"task:{cpu}:{pid}")
            label = ax.text(1.002, y + 0.15 - 0.12 * k, plain(task_names.get(pid, f"pid {pid}")),
                            color=colour, fontsize=6, va="center",
                            transform=ax.get_yaxis_transform())
            label.set_gid(f"task-label:{cpu}:{pid}")
        if tl.ticks[cpu]:
            lines = ax.vlines(tl.ticks[cpu], y + 0.77, y + 0.95, colors="black",
                              linewidth=0.4 if len(cpus) <= 16 else 0.2)
            lines.set_gid(f"ticks:{cpu}")
        for ctype, marks in sorted(tl.causes[cpu].items()):
            # a marker per cause type, on the line between the spans and the busy strip
            coll = ax.scatter([t for t, _ in marks], [y + 0.225] * len(marks),
                              marker=CAUSE_MARKERS[ctype], s=6 if len(cpus) <= 16 else 2,
                              facecolors="none", edgecolors=CAUSE_COLOUR, linewidths=0.5)
            coll.set_gid(f"causes:{cpu}:{ctype}")
            causes_drawn.add(ctype)
    ax.set_yticks([r + 0.55 for r in range(len(cpus))])
    ax.set_yticklabels([cpu_label(tl, c) for c in cpus], fontsize=8 if len(cpus) <= 16 else 4)
    ax.set_ylim(0, max(1, len(cpus)))
    ax.set_xlim(0, tl.end or 1)
    ax.set_xlabel("seconds from the start of the window", fontsize=8, labelpad=1)
    ax.set_title("Tick state per CPU (bars: running, coloured by reason; marks above: tick "
                 "interrupts; strip below: busy, coloured for the tasks that ran most while the "
                 "tick ran" + ("; markers above it: causes" if causes_drawn else "") + ")",
                 fontsize=9)
    handles = [Patch(facecolor=c, label=plain(n), hatch="//" if "unknown" in n else None)
               for n, c in sorted(legend.items())]
    handles += [Line2D([], [], marker=CAUSE_MARKERS[t], linestyle="none", markerfacecolor="none",
                       markeredgecolor=CAUSE_COLOUR, label=f"cause: {t}")
                for t in CAUSE_MARKERS if t in causes_drawn]
    if handles:
        # below the axes, so that it never hides a span
        ax.legend(handles=handles, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12),
                  ncol=min(8, len(handles)), frameon=False)


def reason_name(r: dict) -> str:
    return r["reason"] + (f"@{r['scope']}" if r.get("scope") else "")


def draw_reasons(ax, report: dict) -> None:
    """Per CPU: a bar of the window by tick state (stopped, running, unknown),
    then a bar per reason beside it, never stacked: reasons can hold the tick
    at the same time, so each is at most the running time.  Every height and
    every label is a % of the CPU's window, one denominator for all."""
    extra: dict[str, str] = {}
    cpus = report["cpus"]
    names = sorted({reason_name(r) for c in cpus for r in c["reasons"] if r["time_ns"]})
    width = 0.8 / (1 + max(1, len(names)))
    handles: dict[str, Patch] = {}
    overlaps = []
    for i, c in enumerate(cpus):
        window = c["window_ns"] or 1
        x0 = i - 0.4 + width / 2
        bottom = 0.0
        for state, key, colour, hatch in (("stopped", "stopped_ns", STOPPED, None),
                                          ("running", "running_ns", RUNNING, None),
                                          ("unknown", "unknown_ns", UNKNOWN, "//")):
            h = c[key] / window * 100
            bar = ax.bar([x0], [h], width=width, bottom=bottom, color=colour, hatch=hatch,
                         edgecolor="white" if hatch else None, linewidth=0)[0]
            bar.set_gid(f"state:{c['cpu']}:{state}")
            handles[f"tick {state}"] = Patch(facecolor=colour, hatch=hatch, label=f"tick {state}")
            bottom += h
        running = c["running_ns"]
        held = 0
        for k, name in enumerate(names):
            t = sum(r["time_ns"] for r in c["reasons"] if reason_name(r) == name)
            if not t:
                continue
            held += t
            colour = reason_colour(name, extra)
            pct = t / window * 100
            bar = ax.bar([x0 + (k + 1) * width], [pct], width=width, color=colour)[0]
            bar.set_gid(f"reason:{c['cpu']}:{name}")
            handles[name] = Patch(facecolor=colour, label=plain(name))
            label = ax.text(bar.get_x() + width / 2, bar.get_height(), f"{pct:.1f}%",
                            ha="center", va="bottom", fontsize=6)
            label.set_gid(f"reason-share:{c['cpu']}:{name}")
        if held > running * 1.0005:
            overlaps.append(f"CPU{c['cpu']} {held / window * 100:.1f}% "
                            f"(running {running / window * 100:.1f}%)")
    ax.set_xticks(range(len(cpus)))
    ax.set_xticklabels([f"CPU{c['cpu']}" for c in cpus], fontsize=8)
    ax.set_ylabel("% of the CPU's window (bars and labels)")
    ax.set_ylim(0, 105)
    ax.set_title("Tick state, and how long each reason held the tick (% of the window)",
                 fontsize=9)
    ax.legend(handles=list(handles.values()), fontsize=7, loc="upper center",
              bbox_to_anchor=(0.5, -0.08), ncol=4, frameon=False)
    if overlaps:
        note = ax.text(0.01, 0.99, "reasons overlap (held the tick at once), their times add "
                       "to: " + ", ".join(overlaps), transform=ax.transAxes, va="top", fontsize=7)
        note.set_gid("reasons-overlap")
    if not names:
        note = ax.text(0.5, 0.5, "the tick never ran for a reported reason", ha="center",
                       transform=ax.transAxes)
        note.set_gid("no-reasons")


def draw_durations(ax, report: dict, merge: bool = False) -> None:
    """Complete stopped intervals as a log2 histogram, each bar exactly its
    bucket [lt/2, lt); intervals cut by the window or a gap ("open") apart,
    hatched, at their mean length, which is a lower bound."""
    series = {}
    opened = {}
    for c in report["cpus"]:
        hist = {h["lt_ns"]: h["count"] for h in c["stopped_intervals"]["log2_histogram"]}
        key = "all CPUs" if merge else f"CPU{c['cpu']}"
        acc = series.setdefault(key, defaultdict(int))
        for lt, n in hist.items():
            acc[lt] += n
        iv = c["stopped_intervals"]
        if iv["open"]:
            n, total = opened.get(key, (0, 0))
            opened[key] = (n + iv["open"], total + iv["open_total_ns"])
    plotted = 0
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    colours = {name: cycle[i % len(cycle)] for i, name in enumerate(sorted(series))}
    for name, hist in sorted(series.items()):
        if not hist:
            continue
        edges = sorted(hist)
        bars = ax.bar([lt / 2e9 for lt in edges], [hist[e] for e in edges],
                      width=[lt / 2e9 for lt in edges], alpha=0.6, label=name, align="edge",
                      color=colours[name])
        for bar, lt in zip(bars, edges):
            bar.set_gid(f"duration:{name}:{lt}")
        plotted += 1
    for name, (n, total) in sorted(opened.items()):
        mean = max(total / n / 1e9, 1e-9)
        bar = ax.bar([mean], [n], width=[mean / 2], hatch="xx", fill=False,
                     edgecolor=colours[name], label=f"{name} open (at least)",
                     align="center")[0]
        bar.set_gid(f"open:{name}")
    ax.set_xscale("log")
    ax.set_xlabel("stopped interval (s), log2 buckets; open: mean length so far")
    ax.set_ylabel("intervals (count)")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("How long the tick stayed stopped (complete intervals; hatched: open, "
                 "cut by the window)", fontsize=9)
    if plotted or opened:
        ax.legend(fontsize=7)
    else:
        note = ax.text(0.5, 0.5, "the tick never stopped", ha="center", transform=ax.transAxes)
        note.set_gid("never-stopped")


# --- compare -------------------------------------------------------------------------------

def top_reasons(c: dict, n: int = 2) -> str:
    """The reasons that held the tick longest, as % of the CPU's window, so
    that windows of different lengths compare."""
    rs = sorted((r for r in c["reasons"] if r["time_ns"]), key=lambda r: -r["time_ns"])[:n]
    window = c["window_ns"] or 1
    return ", ".join(f"{reason_name(r)} {r['time_ns'] / window * 100:.1f}%" for r in rs) or "none"


def share(v) -> str:
    return "-" if v is None else f"{v * 100:.2f}%"


def seconds(report: dict) -> float:
    return report["window"]["duration_ns"] / 1e9


def window_warning(a: dict, b: dict, labels: tuple[str, str]) -> str | None:
    """A note when the two windows' lengths differ by more than WINDOW_TOLERANCE
    of the longer: the rates and shares are normalised, but they describe
    stretches of different length."""
    ta, tb = seconds(a), seconds(b)
    if abs(ta - tb) <= WINDOW_TOLERANCE * max(ta, tb):
        return None
    return (f"the windows differ in length: {labels[0]} {ta:.3f} s, {labels[1]} {tb:.3f} s "
            f"(more than {WINDOW_TOLERANCE:.0%}); every number is per second or a share "
            "of its own window")


# (title, JSON key, scale to the axis unit, axis label)
COMPARED = (("tickless share of the known time", "tickless_share", 100,
             "% of the known time (stopped + running)"),
            ("tick interrupts per second", "tick_rate_hz", 1,
             "ticks per second of the window (Hz)"),
            ("unknown share of the window", "unknown_share", 100, "% of the window"))


def compare_rows(a: dict, b: dict) -> list[list[str]]:
    """Per CPU: tickless share, busy share, tick rate, unknown share, top
    reasons (% of the window), before and after."""
    rows = []
    bcpus = {c["cpu"]: c for c in b["cpus"]}
    for ca in a["cpus"]:
        cb = bcpus.get(ca["cpu"])
        if not cb:
            continue
        rate = lambda c: "-" if c["tick_rate_hz"] is None else f"{c['tick_rate_hz']:.1f}"
        rows.append([f"CPU{ca['cpu']}", share(ca["tickless_share"]), share(cb["tickless_share"]),
                     share(ca["busy_tickless_share"]), share(cb["busy_tickless_share"]),
                     rate(ca), rate(cb), top_reasons(ca), top_reasons(cb),
                     share(ca["unknown_share"]), share(cb["unknown_share"])])
    return rows


def callouts(a: dict, b: dict, labels: tuple[str, str]) -> list[str]:
    """One line per CPU with the differences that matter, each number with
    its unit and denominator; a line per CPU that only one report has."""
    lines = []
    bcpus = {c["cpu"]: c for c in b["cpus"]}
    for ca in a["cpus"]:
        cb = bcpus.get(ca["cpu"])
        if not cb:
            continue
        parts = [f"CPU{ca['cpu']}: tickless {share(ca['tickless_share'])} -> "
                 f"{share(cb['tickless_share'])} of the known time"]
        if ca["tickless_share"] is not None and cb["tickless_share"] is not None:
            parts[0] += f" ({(cb['tickless_share'] - ca['tickless_share']) * 100:+.1f} points)"
        if ca["unknown_share"] or cb["unknown_share"]:
            parts.append(f"unknown {share(ca['unknown_share'])} -> {share(cb['unknown_share'])} "
                         "of the window")
        if ca["tick_rate_hz"] is not None and cb["tick_rate_hz"] is not None:
            parts.append(f"ticks/s {ca['tick_rate_hz']:.1f} -> {cb['tick_rate_hz']:.1f}")
        parts.append(f"top reasons (% of the window): {top_reasons(ca)} -> {top_reasons(cb)}")
        lines.append(";  ".join(parts))
    acpus = {c["cpu"] for c in a["cpus"]}
    for side, only in ((labels[0], acpus - set(bcpus)), (labels[1], set(bcpus) - acpus)):
        if only:
            lines.append(f"CPU {cpu_list(only)}: only in {side}, not compared")
    return [f"{labels[0]} ({seconds(a):.3f} s window) -> {labels[1]} ({seconds(b):.3f} s window)"] \
        + lines


def draw_compare(fig, a: dict, b: dict, labels: tuple[str, str]) -> None:
    bcpus = {c["cpu"]: c for c in b["cpus"]}
    pairs = [(ca, bcpus[ca["cpu"]]) for ca in a["cpus"] if ca["cpu"] in bcpus]
    if not pairs:
        raise InputError(f"the reports have no CPU in common ({labels[0]}: "
                         f"{cpu_list(c['cpu'] for c in a['cpus'])}, {labels[1]}: "
                         f"{cpu_list(bcpus)})")
    grid = fig.add_gridspec(3, len(COMPARED), height_ratios=[3, 0.25, 1.2])
    cpus = [f"CPU{ca['cpu']}" for ca, _ in pairs]
    x = list(range(len(pairs)))
    names = [f"{plain(labels[0])} ({seconds(a):.3f} s window)",
             f"{plain(labels[1])} ({seconds(b):.3f} s window)"]
    for col, (title, key, scale, unit) in enumerate(COMPARED):
        ax = fig.add_subplot(grid[0, col])
        for off, side, label in ((-0.2, 0, labels[0]), (0.2, 1, labels[1])):
            colour = None
            for i, pair in zip(x, pairs):
                v = pair[side][key]
                if v is None:
                    # unknown is not zero: no bar, a mark that says so
                    na = ax.text(i + off, 0, "n/a", ha="center", va="bottom", fontsize=7)
                    na.set_gid(f"compare-na:{key}:{label}:{cpus[i]}")
                    continue
                bar = ax.bar([i + off], [v * scale], width=0.4, color=colour,
                             label=None if colour else names[side])[0]
                colour = bar.get_facecolor()
                bar.set_gid(f"compare:{key}:{label}:{cpus[i]}")
        ax.set_xticks(x)
        ax.set_xticklabels(cpus)
        ax.set_ylim(0, max(ax.get_ylim()[1], 1))
        ax.set_ylabel(unit, fontsize=8)
        ax.set_title(title, fontsize=9)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    text = fig.add_subplot(grid[2, :])
    text.axis("off")
    t = text.text(0, 1, "\n".join(map(plain, callouts(a, b, labels))), va="top", family="monospace",
                  fontsize=7, transform=text.transAxes)
    t.set_gid("compare-callouts")
    fig.suptitle(f"Before and after: {names[0]}, {names[1]}", fontsize=10)
    warning = window_warning(a, b, labels)
    if warning:
        note = fig.text(0.5, 0.93, plain(warning), ha="center", fontsize=8, color="#b2182b")
        note.set_gid("compare-window-warning")


def summary(fig, report: dict, tl: Timeline) -> None:
    grid = fig.add_gridspec(2, 2, height_ratios=[1.3, 1], hspace=0.4)
    draw_timeline(fig.add_subplot(grid[0, :]), tl, [c["cpu"] for c in report["cpus"]],
                  co_runner_names(report))
    draw_reasons(fig.add_subplot(grid[1, 0]), report)
    draw_durations(fig.add_subplot(grid[1, 1]), report)
    src = report["source"]
    fig.suptitle(plain(f"tickstat: {src.get('kind')} on kernel {src.get('kernel') or '?'}, "
                       f"window {report['window']['duration_ns'] / 1e9:.3f} s"), fontsize=10)


# --- the output ----------------------------------------------------------------------------

def check_output(out: Path, inputs: list[Path]) -> str:
    """Before any work: the output's format from its name, and never an input."""
    fmt = Path(out).suffix.lower()[1:]
    if fmt not in ("png", "svg"):
        raise UsageError(f"{out}: the output must be a .png or .svg file")
    for i in inputs:
        try:
            if os.path.samefile(out, i):
                raise UsageError(f"{out}: is also an input")
        except OSError:
            pass                        # a new output, or an input that will say why
    parent = Path(out).parent
    if not parent.is_dir():
        raise OutputError(f"{out}: {parent}: no such directory")
    return fmt


def write_output(data: bytes, out: Path) -> None:
    """A regular file (or a new name) is replaced at once, by a rename: a
    failed write leaves the old picture; anything else (a FIFO, a device, a
    symlink's target) is written in place."""
    try:
        st = os.lstat(out)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(f"{out}: {e.strerror}") from e
    if st is not None and stat.S_ISREG(st.st_mode) and not os.access(out, os.W_OK):
        # the rename would replace it: do as a write would, refuse
        raise OutputError(f"{out}: Permission denied")
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{out}: is a directory")
        try:
            with open(out, "wb") as f:
                f.write(data)
        except OSError as e:
            raise OutputError(f"{out}: {e.strerror}") from e
        return
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=Path(out).parent, prefix=f".{Path(out).name}.")
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, (st.st_mode & 0o777) if st else 0o666 & ~umask)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, out)
        tmp = None
    except OSError as e:
        raise OutputError(f"{out}: {e.strerror}") from e
    finally:
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def save(fig, out: Path, fmt: str | None = None) -> None:
    fmt = fmt or check_output(out, [])
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=110, bbox_inches="tight")
    plt.close(fig)
    write_output(buf.getvalue(), out)


# --- the command line ----------------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line ("tickplot: ...") and exit EXIT_USAGE."""

    def error(self, message: str):
        sub = self.prog.split(" ", 1)[1:]
        where = f"{sub[0]}: " if sub else ""
        self.exit(EXIT_USAGE, f"tickplot: {where}{one_line(message)} "
                              f"(tickplot {sub[0] + ' ' if sub else ''}--help)\n")


def parse_labels(text: str) -> tuple[str, str]:
    labels = tuple(s.strip() for s in text.split(","))
    if len(labels) != 2 or not all(labels) or labels[0] == labels[1]:
        raise UsageError(f"--labels {one_line(text)!r}: two different names, "
                         "separated by a comma")
    return labels


def make_parser() -> Parser:
    p = Parser(prog="tickplot", description=__doc__.splitlines()[0],
               epilog="exit status: 0 written; 1 an input cannot be read, is malformed or "
                      "empty, or the JSON and CSV are not of the same report; 2 a usage error; "
                      "3 the output cannot be written")
    sub = p.add_subparsers(dest="cmd", required=True)
    for name, help_ in (("timeline", "tick state per CPU over time"),
                        ("reasons", "tick state and time per reason, per CPU (%% of the window)"),
                        ("durations", "histogram of stopped intervals"),
                        ("summary", "one page: timeline, reasons, durations"),
                        ("compare", "two reports side by side")):
        s = sub.add_parser(name, help=help_, description=help_)
        s.add_argument("-o", "--output", required=True, type=Path, help="a .png or .svg file")
        if name in ("reasons", "durations", "summary"):
            s.add_argument("--json", required=True, type=Path, help="tickstat report --json")
        if name in ("timeline", "summary"):
            s.add_argument("--csv", required=True, type=Path, help="tickstat --csv timeline")
        if name == "timeline":
            s.add_argument("--json", type=Path,
                           help="report JSON of the same run: its CPUs, checked against the CSV")
        if name == "durations":
            s.add_argument("--merge", action="store_true", help="one histogram for all CPUs")
        if name == "compare":
            s.add_argument("before", type=Path)
            s.add_argument("after", type=Path)
            s.add_argument("--labels", default="before,after",
                           help="names of the two reports, A,B (default before,after)")
    return p


def load_pair(jpath: Path, cpath: Path) -> tuple[dict, Timeline]:
    report, tl = load_json(jpath), load_csv(cpath)
    check_same_report(report, jpath, tl, cpath)
    return report, tl


def render(opts) -> None:
    inputs = [v for k in ("json", "csv", "before", "after") if (v := getattr(opts, k, None))]
    fmt = check_output(opts.output, inputs)
    if opts.cmd == "timeline":
        if opts.json:
            report, tl = load_pair(opts.json, opts.csv)
            cpus = [c["cpu"] for c in report["cpus"]]
        else:
            report, tl, cpus = None, load_csv(opts.csv), None
        fig, ax = plt.subplots(figsize=(12, 1.8 + 0.5 * max(2, len(cpus or tl.cpus()))))
        draw_timeline(ax, tl, cpus, co_runner_names(report))
    elif opts.cmd == "reasons":
        fig, ax = plt.subplots(figsize=(8, 5))
        draw_reasons(ax, load_json(opts.json))
    elif opts.cmd == "durations":
        fig, ax = plt.subplots(figsize=(8, 5))
        draw_durations(ax, load_json(opts.json), opts.merge)
    elif opts.cmd == "summary":
        fig = plt.figure(figsize=(13, 9))
        summary(fig, *load_pair(opts.json, opts.csv))
    else:
        labels = parse_labels(opts.labels)
        a, b = load_json(opts.before), load_json(opts.after)
        fig = plt.figure(figsize=(15, 8))
        draw_compare(fig, a, b, labels)
        warning = window_warning(a, b, labels)
        if warning:
            print(f"tickplot: warning: {one_line(warning)}", file=sys.stderr)
    save(fig, opts.output, fmt)


def main(argv: list[str] | None = None) -> int:
    opts = make_parser().parse_args(argv)
    try:
        render(opts)
    except InputError as e:
        plt.close("all")
        print(f"tickplot: {one_line(e)}", file=sys.stderr)
        return e.status
    return 0
