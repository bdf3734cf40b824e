#!/usr/bin/python3
"""kernel-matrix.py - measure what tickstat can tell on each kernel, write docs/kernels.md.

usage: scripts/kernel-matrix.py [-o FILE] [--keep DIR] [KERNEL ...]   (make kernels-doc)

For each kernel (default: patched, debian-6.1, debian-6.1-rt, debian-6.12,
debian-6.12-rt) it boots the guest once with nothing to do (the boot time),
then runs the same short conformance scenarios, lone-task, two-tasks and
posix-timer, in one boot (tests/conformance/run, which judges them), and
tabulates the kernel's tick events, what tickstat knows there and the
figures of the scenarios.  On the Debian kernels (PROBE_RUNS) it runs
two-tasks and posix-timer once more with tickstat record --probes=on, for the
table of what the probes add; on 6.1 posix-timer alone, on one emulator
thread (run-guest --tcg-thread single), where the scenarios that need their
CPUs to run side by side on time cannot work.
Needs the patched kernel and the image built (make kernel-patched image);
Debian's images are fetched on first use.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
KERNELS = ("patched", "patched-6.12", "debian-6.1", "debian-6.1-rt", "debian-6.12",
           "debian-6.12-rt")
PATCHED = ("patched", "patched-6.12")   # built here, with a series
SCENARIOS = ("lone-task", "two-tasks", "posix-timer")
# With probes: the emulator's threading and the scenarios.  Placing and
# removing kprobes crashes 6.1 under QEMU's multi-threaded TCG, not on one
# thread, where two-tasks misses its timing (docs/tickstat.md, "Caution").
PROBE_SCENARIOS = ("two-tasks", "posix-timer")
PROBE_RUNS = {
    "debian-6.1": ("single", ("posix-timer",)),
    "debian-6.1-rt": ("single", ("posix-timer",)),
    "debian-6.12": ("multi", PROBE_SCENARIOS),
    "debian-6.12-rt": ("multi", PROBE_SCENARIOS),
}
TICK_EVENTS = ("tick_stop", "tick_retain", "tick_restart", "tick_dep_set", "tick_dep_clear")


def boot_seconds(kernel: str) -> float:
    """Wall seconds of a guest run with nothing to do: boot, job, power off."""
    t = time.monotonic()
    res = subprocess.run([str(TOP / "guest-image/run-guest"), "-q", "--tree", kernel, "--", "true"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if res.returncode:
        raise SystemExit(f"kernel-matrix: {kernel} did not boot ({res.returncode}): "
                         f"{res.stderr.strip()[-500:]}")
    return time.monotonic() - t


def run_scenarios(kernel: str, keep: Path, scenarios=SCENARIOS, probes: bool = False,
                  tcg_thread: str = "multi") -> tuple[dict[str, str], float]:
    """The conformance verdict line of each scenario, and the run's seconds."""
    t = time.monotonic()
    res = subprocess.run([str(TOP / "tests/conformance/run"), "--tree", kernel,
                          "--keep", str(keep), *(["--probes", "on"] if probes else []),
                          "--tcg-thread", tcg_thread, *scenarios], capture_output=True, text=True)
    keep.mkdir(parents=True, exist_ok=True)
    (keep / "conformance.txt").write_text(res.stdout + res.stderr)   # what failed, if any
    verdicts = {}
    for line in res.stdout.splitlines():
        m = re.match(r"(ok|not ok) (\S+) \(\S+\): (\d+)/(\d+) expectations", line)
        if m:
            verdicts[m.group(2)] = f"{m.group(3)}/{m.group(4)}"
    for name in scenarios:
        if name not in verdicts:
            raise SystemExit(f"kernel-matrix: no verdict for {name} on {kernel}:\n"
                             f"{res.stdout[-2000:]}{res.stderr[-1000:]}")
    return verdicts, time.monotonic() - t


def cpu(rep: dict, n: int) -> dict:
    return next(c for c in rep["cpus"] if c["cpu"] == n)


def reason(c: dict, name: str) -> dict | None:
    return next((r for r in c["reasons"] if r["reason"] == name), None)


def held(c: dict, name: str) -> str:
    r = reason(c, name)
    if not r:
        return "none"
    return f"{r['time_ns'] / 1e9:.2f} s, {r['events']} dec., scope {r['scope']}" + \
        (f" {r['detail']}" if r.get("detail") else "")


def co_runners(c: dict) -> str:
    """The two tasks that ran most while SCHED held the tick: 'spin(57) 0.78 s, ...'."""
    if c.get("co_runners") is None:
        return "unknown (no sched_switch)"
    top = sorted((t for t in c["co_runners"] if t["sched_ns"]), key=lambda t: -t["sched_ns"])
    return ", ".join(f"{t['comm']}({t['pid']}) {t['sched_ns'] / 1e9:.2f} s" for t in top[:2]) \
        or "none"


def build_flags(version: str) -> str:
    """The flags uname -v shows: '#1 SMP PREEMPT_RT Debian ...' -> SMP PREEMPT_RT"""
    return " ".join(w for w in version.split() if w == "SMP" or w.startswith("PREEMPT"))


def tick_timer(files: Path) -> str:
    """The tick's hrtimer callback tickstat record found (in its recording's
    kallsyms section, which holds just the symbols the report needs)."""
    m = re.search(rb"[0-9a-f]+ [tT] (tick_sched_timer|tick_nohz_handler)\n",
                  (files / "two-tasks/rec.dat").read_bytes())
    return m.group(1).decode() if m else "none"


def package(kernel: str) -> str:
    if kernel in PATCHED:
        base = "6.12" if kernel == "patched-6.12" else "6.1"
        src = subprocess.run(["dpkg-query", "-W", "-f=${Version}", f"linux-source-{base}"],
                             capture_output=True, text=True).stdout.strip()
        series = "kernel-patches/linux-6.12/" if base == "6.12" else "kernel-patches/"
        return f"linux-source-{base} {src} + {series}, tinyconfig + guest-image/config"
    return (TOP / "build/debian" / kernel / "package").read_text().strip()


def measure(kernel: str, work: Path) -> dict:
    print(f"kernel-matrix: {kernel}", file=sys.stderr)
    if kernel not in PATCHED:  # fetched before the boot is timed
        subprocess.run([str(TOP / "scripts/debian-kernel.py"), kernel], check=True,
                       stdout=subprocess.DEVNULL)
    boot = boot_seconds(kernel)
    try:
        verdicts, secs = run_scenarios(kernel, work / kernel)
    except SystemExit as e:  # a starved guest; a second run, said so
        (work / kernel).rename(work / f"{kernel}-first-attempt")
        print(f"{e}\nkernel-matrix: {kernel}: running the scenarios again (the first "
              f"attempt is in {work / kernel}-first-attempt)", file=sys.stderr)
        verdicts, secs = run_scenarios(kernel, work / kernel)
    files = work / kernel / f"{kernel}-0" / "files"
    facts = {f.name: f.read_text().split() for f in (files / "kernel").iterdir()}
    facts["version"] = [(files / "kernel/version").read_text().strip()]
    reps = {n: json.loads((files / n / "report.json").read_text()) for n in SCENARIOS}
    locs = {n: (files / n / "loc.txt").read_text().split() for n in SCENARIOS}
    fair = dict(line.split() for line in (files / "kernel/fair-server").read_text().splitlines())
    probes = None
    if kernel in PROBE_RUNS:
        thread, names = PROBE_RUNS[kernel]
        keep = work / f"{kernel}-probes"
        pverdicts, _ = run_scenarios(kernel, keep, names, probes=True, tcg_thread=thread)
        pfiles = keep / f"{kernel}-0" / "files"
        probes = {"verdicts": pverdicts, "thread": thread,
                  "reps": {n: json.loads((pfiles / n / "report.json").read_text())
                           for n in names}}
    return {"kernel": kernel, "boot": boot, "run": secs, "verdicts": verdicts, "facts": facts,
            "reps": reps, "locs": locs, "package": package(kernel), "fair_cpu1": fair.get("cpu1"),
            "tick_timer": tick_timer(files), "load": os.getloadavg()[0], "probes": probes}


def knows(ev: dict) -> str:
    """What tickstat reports on a kernel with these events."""
    out = ["tick stopped/running time and the first reason"]
    out.append("tick count and rate" if ev["tick_expiry"] else "no tick count")
    if ev["sched_switch"]:
        out.append("busy/idle split")
    if ev["tick_stop_scopes"]:
        out.append("every reason with its scope")
    if ev["tick_retain"]:
        out.append("idle-entry refusals")
    if ev["tick_restart"]:
        out.append("restarts and stopped durations")
    if ev["tick_dep"]:
        out.append("culprits, SCHED sub-reason")
    return ", ".join(out)


def culprit(c: dict, dep: str) -> str:
    """The setter of a dependency on a CPU the report lists first (the most
    sets): 'cputimer(161) at set_cpu_itimer+0x11a'."""
    if c.get("culprits") is None:
        return "unknown"
    k = next((k for k in c["culprits"] if k["dependency"] == dep and k["sets"]), None)
    if not k:
        return "none"
    who = f"{k['comm']}({k['pid']})" if k.get("pid") is not None else "?"
    return f"{who} at `{k['caller'] or k['caller_addr']}`"


def restarts(c: dict) -> str:
    r = c.get("restarts")
    return "unknown" if r is None else str(r.get("DEPENDENCY", 0))


def probes_rows(label: str, reps: dict, verdicts: dict) -> str:
    posix = reps["posix-timer"]
    two = reps.get("two-tasks")
    twos = [held(cpu(two, 1), "SCHED"), culprit(cpu(two, 1), "SCHED"),
            restarts(cpu(two, 1))] if two else ["not run"] * 3
    return row([label, *twos, held(cpu(posix, 1), "POSIX_TIMER"),
                culprit(cpu(posix, 1), "POSIX_TIMER"), held(cpu(posix, 2), "POSIX_TIMER"),
                culprit(cpu(posix, 2), "POSIX_TIMER"),
                ", ".join(verdicts.get(n, "-") for n in PROBE_SCENARIOS)])


def probes_section(results: list[dict]) -> list[str]:
    """Patched, stock without probes and stock with probes, side by side."""
    with_probes = [r for r in results if r["probes"]]
    if not with_probes:
        return []
    lines = [
        "",
        "## What the probes add",
        "",
        "The same two-tasks and posix-timer on the Debian kernels, once more with "
        "`tickstat record --probes=on` (docs/tickstat.md), beside the patched kernel and the "
        "same kernel without probes. "
        "Culprit: the task and call site (`caller`) that set the dependency on the CPU most "
        "often (the report's first; on 6.12 often the fair server, `enqueue_dl_entity`, run "
        "from the idle task); restarts: restarts of a stopped tick by a dependency. On debian-6.1 and debian-6.1-rt the probes' "
        "run has all vCPUs on one emulator thread (`run-guest --tcg-thread single`), since "
        "placing and removing kprobes crashes 6.1 under QEMU's multi-threaded TCG; two-tasks, "
        "whose CPUs must run side by side on time, is not run there (docs/tickstat.md, "
        "\"Caution\").",
        "",
        row(["kernel", "two-tasks: CPU1 SCHED", "two-tasks: culprit", "two-tasks: restarts",
             "posix-timer: CPU1 POSIX_TIMER", "posix-timer: CPU1 culprit",
             "posix-timer: CPU2 POSIX_TIMER", "posix-timer: CPU2 culprit",
             "expectations held (two, posix)"]),
        row(["---"] * 9),
    ]
    for r in results:
        if r["kernel"] in PATCHED:
            lines.append(probes_rows(f"`{r['kernel']}`", r["reps"], r["verdicts"]))
    for r in with_probes:
        lines.append(probes_rows(f"`{r['kernel']}`, no probes", r["reps"], r["verdicts"]))
        lines.append(probes_rows(f"`{r['kernel']}`, `--probes=on`", r["probes"]["reps"],
                                 r["probes"]["verdicts"]))
    return lines


def row(cells: list) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def render(results: list[dict]) -> str:
    lines = [
        "# The kernels tickstat runs on",
        "",
        "Generated by `scripts/kernel-matrix.py` (`make kernels-doc`) on "
        f"{date.today().isoformat()}; do not edit by hand. Each kernel booted in the "
        "project's guest (QEMU TCG, 4 vCPUs, `nohz_full=1-3 rcu_nocbs=1-3`) on this 2-core "
        "host: once with nothing to do (the boot time), then once for the three short "
        "conformance scenarios of docs/scenarios/ (lone-task, two-tasks, posix-timer), judged "
        "by `tests/conformance/run` as on a stock kernel (all but `patched` and "
        "`patched-6.12`, built from Debian's linux-source-6.1 and -6.12 with the series). "
        "Debian's images "
        "come from the archive with `apt-get download` (`scripts/debian-kernel.py`); "
        "`make check` runs the stock side on `debian-6.1`, the short scenarios and the "
        "causes (causes, work-irq) on `debian-6.12`, `debian-6.1-rt` and `debian-6.12-rt` "
        "(tests/guest/debian-kernels.test).",
        "",
        "## Kernels",
        "",
        row(["kernel", "package", "release", "`uname -v` flags", "guest run with nothing to do",
             "tick's hrtimer (tickstat's pick)", "in kallsyms"]),
        row(["---"] * 7),
    ]
    for r in results:
        f = r["facts"]
        lines.append(row([f"`{r['kernel']}`", r["package"], f["release"][0],
                          build_flags(f["version"][0]), f"{r['boot']:.1f} s",
                          f"`{r['tick_timer']}`",
                          ", ".join(f"`{x}`" for x in f["tick-functions"]) or "none"]))
    lines += [
        "",
        "Host load average (1 min) when each kernel was measured: "
        + ", ".join(f"{r['kernel']} {r['load']:.1f}" for r in results)
        + ": boot times grow with it (other jobs shared the 2 cores).",
    ]
    lines += [
        "",
        "## Tick events and what tickstat knows",
        "",
        row(["kernel"] + [f"`{e}`" for e in TICK_EVENTS] + ["osnoise, timerlat tracers",
                                                           "tickstat reports"]),
        row(["---"] * (len(TICK_EVENTS) + 3)),
    ]
    for r in results:
        have = set(r["facts"]["timer-events"])
        tracers = set(r["facts"]["tracers"])
        ev = r["reps"]["two-tasks"]["source"]["events"]
        lines.append(row([f"`{r['kernel']}`"] + ["yes" if e in have else "no" for e in TICK_EVENTS]
                         + ["yes" if {"osnoise", "timerlat"} <= tracers else "no", knows(ev)]))
    lines += [
        "",
        "## The short scenario",
        "",
        "lone-task: one busy task alone on CPU 1, recorded 5 s. two-tasks: a second task joins "
        "it for 1.5 s. posix-timer: a process-wide (`setitimer`) POSIX CPU timer on CPU 1 and a "
        "per-thread one on CPU 2, each armed 0.6 s of a 1.2 s run. LOC: the /proc/interrupts "
        "timer interrupts of the CPU while the command ran. dec.: tick-stop decisions. "
        "Expectations: how many of the scenario's checks (docs/scenarios/) held.",
        "",
        row(["kernel", "lone-task: CPU1 busy tickless, ticks, LOC",
             "two-tasks: CPU1 SCHED", "two-tasks: CPU1 co-runners under SCHED",
             "two-tasks: CPU1 ticks, LOC",
             "posix-timer: CPU1 POSIX_TIMER", "posix-timer: CPU2 POSIX_TIMER",
             "expectations held (lone, two, posix)"]),
        row(["---"] * 8),
    ]
    for r in results:
        lone, two, posix = (r["reps"][n] for n in SCENARIOS)
        c1 = cpu(lone, 1)
        share = c1["busy_tickless_share"]
        ticks = lambda c: "unknown" if c["ticks"] is None else c["ticks"]  # noqa: E731
        lines.append(row([
            f"`{r['kernel']}`",
            f"{share:.4f}, {ticks(c1)}, {r['locs']['lone-task'][1]}" if share is not None
            else f"unknown, {ticks(c1)}, {r['locs']['lone-task'][1]}",
            held(cpu(two, 1), "SCHED"),
            co_runners(cpu(two, 1)),
            f"{ticks(cpu(two, 1))}, {r['locs']['two-tasks'][1]}",
            held(cpu(posix, 1), "POSIX_TIMER"),
            held(cpu(posix, 2), "POSIX_TIMER"),
            ", ".join(r["verdicts"][n] for n in SCENARIOS)]))
    lines += [
        "",
        "Scope `UNKNOWN`: a kernel without the series' events says which dependency held the "
        "tick, not at which scope (docs/tickstat.md). The runs took "
        + ", ".join(f"{r['kernel']} {r['run']:.0f} s" for r in results)
        + " (boot included).",
    ]
    lines += probes_section(results)
    lines += notes(results)
    return "\n".join(lines) + "\n"


def notes(results: list[dict]) -> list[str]:
    """What sets a kernel apart in these figures, from its facts."""
    out = ["", "## Notes", ""]
    fair = [r for r in results if r["fair_cpu1"] and int(r["fair_cpu1"])]
    if fair:
        out.append(
            "- A fair server (6.12's deadline server, which reserves CFS tasks "
            f"{int(fair[0]['fair_cpu1']) / 1e6:g} ms a second against RT tasks) runs on CPU 1 of "
            + ", ".join(f"`{r['kernel']}`" for r in fair)
            + ": about once a second it holds the lone task's tick as SCHED for a tick or two ("
            + ", ".join(f"{r['kernel']}: {cpu(r['reps']['lone-task'], 1)['ticks']} ticks in 5 s"
                        for r in fair)
            + "); with its runtime set to 0 (`/sys/kernel/debug/sched/fair_server/cpu1/runtime`) "
            "debian-6.12 gave none (docs/scenarios/lone-task.md).")
    rt = [r for r in results if "PREEMPT_RT" in r["facts"]["version"][0]]
    if rt:
        out.append(
            "- PREEMPT_RT (" + ", ".join(f"`{r['kernel']}`" for r in rt) + "): the tick wakes "
            "the FIFO threads `rcuc/N` and `ktimers/N`, and while one is queued two CFS tasks do "
            "not need the tick, so in two-tasks it stops for a moment during the shared phase ("
            + ", ".join(f"{r['kernel']}: {cpu(r['reps']['two-tasks'], 1)['tick_stop_success']} "
                        "tick_stop successes" for r in rt)
            + "; traced on debian-6.1-rt: a stop right after the tick woke `rcuc/1`; "
            "docs/scenarios/two-tasks.md). These kernels also have the osnoise and timerlat "
            "tracers rtla needs.")
    out.append(
        "- Co-runners: the tasks that ran on CPU 1 while SCHED held its tick, with their run "
        "time in those stretches, from `sched_switch` on every kernel; in two-tasks the two "
        "`spin` processes, each about half of the SCHED time (docs/metrics.md, co-runners).")
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-o", "--output", type=Path, default=TOP / "docs/kernels.md")
    p.add_argument("--keep", type=Path, help="keep the guests' output here")
    p.add_argument("kernels", nargs="*", default=list(KERNELS), metavar="KERNEL")
    opts = p.parse_args()
    for k in opts.kernels:
        if k not in KERNELS:
            p.error(f"unknown kernel {k} (known: {', '.join(KERNELS)})")
    work = opts.keep or Path(tempfile.mkdtemp(prefix="kernel-matrix."))
    results = [measure(k, work) for k in opts.kernels]
    opts.output.write_text(render(results))
    print(f"kernel-matrix: wrote {opts.output} (guest output in {work})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
