#!/usr/bin/python3
"""check_coverage.py - does a tickstat recording hold every event of its window?

usage: check_coverage.py [--from-mark KIND] [--cpus LIST] RECORDING TRACE_DAT

RECORDING is tickstat's, TRACE_DAT trace-cmd's of the same run, with the same
events (tests/scenarios/fixture.sh and tickstat-basic.sh record both at once).
Each of trace-cmd's events of the kinds tickstat records (the tick's own
hrtimer expiries only), on any CPU, between the recording's window start
(start_ns of its "ready" mark) and end (end_ns of its "end" mark), must be in
the recording too, in the same order.  The two files decode the same event
from two ring buffers: each buffer stamps it on its own (a few ms apart under
emulation), so events are matched by CPU, kind, pid and fields within TOL_NS,
and the first and last MARGIN_NS of the window are left out (when tracing
went on and off in tickstat's instance is only known to within that).

A recorder that switched tracing on before its events were enabled opened a
window whose first part lacks events (tests/fixtures/patched.dat of 3 Dec
2026: CPU 2's kcompactd0 runs at 11.4966 s and 12.0717 s); the analysis takes
the data as complete from the window start, so that is wrong numbers, with
no lost event to say so.

--from-mark KIND compares from the time of that mark of the recording
(start, initial, ready) on, instead of from start_ns; --cpus 2,3 only these
CPUs.

A CPU whose ring buffer overran (the "end" mark's overrun.CPU) is not
compared: its oldest events are gone, and the recording says so.

Prints one line per CPU; exit status 0 when nothing is missing, 1 when
something is (each missing event named), 2 on bad usage or input.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

# the events tickstat records (tools/tickstat/src/session.c, events[])
KINDS = {"tick_stop", "tick_retain", "tick_restart", "tick_dep_set", "tick_dep_clear",
         "tick_dep_sched", "sched_switch", "hrtimer_expire_entry"}
TOL_NS = 50_000_000
MARGIN_NS = 50_000_000
SHOW = 5        # missing events named per CPU

LINE = re.compile(r"^\s*\S.*?-(\d+)\s+\[(\d{3})\]\s+(\d+)\.(\d{9}):\s+(\w+):\s+(.*?)\s*$", re.M)


class BadInput(Exception):
    """A file this check cannot use: exit status 2."""


class Event:
    """One event as trace-cmd decodes it: when, where, what."""

    def __init__(self, ns: int, cpu: int, kind: str, key: str) -> None:
        self.ns, self.cpu, self.kind, self.key = ns, cpu, kind, key


def report(dat: Path) -> str:
    """trace-cmd report -t of a whole file (ns timestamps)."""
    run = subprocess.run(["trace-cmd", "report", "-t", "-i", str(dat)],
                         capture_output=True, text=True)
    if run.returncode:
        raise BadInput(f"trace-cmd cannot read {dat}: {run.stderr.strip()[:200]}")
    return run.stdout


def tick_function(dat: Path) -> str | None:
    """The tick's hrtimer function tickstat filtered on: tick_sched_timer,
    else tick_nohz_handler (tools/tickstat/src/ksym.c), from the recording's
    kallsyms."""
    text = subprocess.run(["trace-cmd", "dump", "--kallsyms", "-i", str(dat)],
                          capture_output=True, text=True).stdout
    names = set(re.findall(r"^[0-9a-f]+ \w (tick_sched_timer|tick_nohz_handler)$", text, re.M))
    for name in ("tick_sched_timer", "tick_nohz_handler"):
        if name in names:
            return name
    return None


def events(text: str, tick_fn: str | None) -> list[Event]:
    """The events of the kinds tickstat records, in file order per CPU.  The
    pid stands for the task (the files' command lines differ); a caller is
    left out (a symbol in one file's kallsyms may be an address in the
    other's)."""
    out = []
    for m in LINE.finditer(text):
        pid, cpu, kind, fields = m.group(1), int(m.group(2)), m.group(5), m.group(6)
        if kind not in KINDS:
            continue
        if kind == "hrtimer_expire_entry":
            f = re.search(r"function=(\w+)", fields)
            if not f or f.group(1) != tick_fn:
                continue
        fields = re.sub(r"caller=\S+", "caller=", fields)
        out.append(Event(int(m.group(3)) * 1_000_000_000 + int(m.group(4)), cpu, kind,
                         f"{kind} {pid} {fields}"))
    return out


def window(text: str, from_mark: str | None) -> tuple[int, int, dict[int, int]]:
    """The recording's window (start_ns, end_ns) and its overruns, from its
    marks; with from_mark, the window starts at that mark."""
    ready = re.search(r"tickstat v1 ready: .*?\bstart_ns=(\d+)", text)
    end = re.search(r"tickstat v1 end: end_ns=(\d+)(.*)", text)
    if not ready or not end:
        raise BadInput("not a complete tickstat recording (no ready or end mark)")
    start = int(ready.group(1))
    if from_mark:
        m = re.search(r"\s(\d+)\.(\d{9}):\s+print:\s+.*?tickstat v1 " + from_mark + ":", text)
        if not m:
            raise BadInput(f"the recording has no {from_mark} mark")
        start = int(m.group(1)) * 1_000_000_000 + int(m.group(2))
    overrun = {int(c): int(n) for c, n in re.findall(r"overrun\.(\d+)=(\d+)", end.group(2))}
    return start, int(end.group(1)), overrun


def missing(theirs: list[Event], ours: list[Event]) -> list[Event]:
    """theirs' events not in ours, matched in order within TOL_NS."""
    out, j = [], 0
    for e in theirs:
        k = j
        while k < len(ours) and ours[k].ns <= e.ns + TOL_NS:
            if ours[k].key == e.key and ours[k].ns >= e.ns - TOL_NS:
                break
            k += 1
        if k < len(ours) and ours[k].ns <= e.ns + TOL_NS:
            j = k + 1
        else:
            out.append(e)
    return out


def coverage(rec: Path, dat: Path, from_mark: str | None = None,
             cpus: set[int] | None = None) -> tuple[list[str], int]:
    """One line per CPU (cpus: only those), and how many events of the
    window the recording lacks."""
    rec_text = report(rec)
    start, end, overrun = window(rec_text, from_mark)
    tick_fn = tick_function(rec)
    ours, theirs = events(rec_text, tick_fn), events(report(dat), tick_fn)
    lines, lacking = [], 0
    for cpu in sorted({e.cpu for e in theirs} | {e.cpu for e in ours} | (cpus or set())):
        if cpus is not None and cpu not in cpus:
            continue
        want = [e for e in theirs if e.cpu == cpu and
                start + MARGIN_NS <= e.ns <= end - MARGIN_NS]
        have = [e for e in ours if e.cpu == cpu]
        if overrun.get(cpu):
            lines.append(f"CPU {cpu}: not compared, the ring buffer overran "
                         f"({overrun[cpu]} events)")
            continue
        lack = missing(want, have)
        lacking += len(lack)
        line = f"CPU {cpu}: {len(want) - len(lack)} of trace-cmd's {len(want)} events"
        if lack:
            line += ", missing: " + "; ".join(f"{e.ns / 1e9:.6f} {e.key}" for e in lack[:SHOW])
            line += f" (and {len(lack) - SHOW} more)" if len(lack) > SHOW else ""
        lines.append(line)
    return lines, lacking


def cpu_list(text: str) -> set[int]:
    """--cpus: CPU numbers, comma-separated."""
    if not re.fullmatch(r"\d+(,\d+)*", text):
        raise argparse.ArgumentTypeError(f"not a list of CPU numbers: {text}")
    return {int(c) for c in text.split(",")}


def main() -> int:
    ap = argparse.ArgumentParser(description="Does a tickstat recording hold every event "
                                 "trace-cmd recorded in its window?")
    ap.add_argument("--from-mark", choices=("start", "initial", "ready"),
                    help="compare from this mark of the recording on")
    ap.add_argument("--cpus", type=cpu_list, help="only these CPUs (2,3)")
    ap.add_argument("recording", type=Path)
    ap.add_argument("trace_dat", type=Path)
    a = ap.parse_args()
    for p in (a.recording, a.trace_dat):
        if not p.is_file():
            print(f"check_coverage: {p}: no such file", file=sys.stderr)
            return 2
    try:
        lines, lacking = coverage(a.recording, a.trace_dat, a.from_mark, a.cpus)
    except BadInput as e:
        print(f"check_coverage: {a.recording}: {e}", file=sys.stderr)
        return 2
    print("\n".join(f"{a.recording.name}: {line}" for line in lines))
    return 1 if lacking else 0


if __name__ == "__main__":
    sys.exit(main())
