"""Tests of tickplot: render from committed fixtures and check what was drawn.

The fixtures (tests/fixtures/demo.json, demo.csv) come from a guest run of
make demo: a lone task on CPU 1, two tasks on CPU 2, a POSIX CPU timer on
CPU 3.  Each test reads the drawn artists back by their gid.  The tests of
JSON and CSV pairs also use the reports tickstat writes today of the
committed recordings (tests/fixtures/*.dat): the tickstat binary is found at
$TICKSTAT or build/tools/tickstat/tickstat (tests/host/tickplot.test
requires it; run directly without it, those tests are skipped).
"""
import contextlib
import csv
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import matplotlib.pyplot as plt  # noqa: E402

import tickplot  # noqa: E402

TOP = HERE.parents[2]
FIX = TOP / "tests" / "fixtures"
TICKSTAT = Path(os.environ.get("TICKSTAT") or TOP / "build" / "tools" / "tickstat" / "tickstat")
SCRIPT = HERE.parent / "tickplot"


def timeline_of(rows: str) -> "tickplot.Timeline":
    """The timeline of a CSV with tickplot's header and these rows."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.csv"
        path.write_text(",".join(tickplot.CSV_HEADER) + "\n" + rows)
        return tickplot.load_csv(path)


def private_device(path: Path, minor: int) -> Path:
    """A device node of our own (1, MINOR: 3 null, 7 full) for a test to write
    through: were tickplot ever to replace what a link points to, it would
    replace this one, not the machine's /dev/null or /dev/full."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except PermissionError:
        raise unittest.SkipTest("a device node of the test's own needs root (mknod)")
    return path


def run(argv):
    """tickplot's main() as the command line runs it: (exit status, stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            rc = tickplot.main([str(a) for a in argv])
        except SystemExit as e:
            rc = e.code
    plt.close("all")
    return rc, err.getvalue()


def tickstat_report(out: Path, dat: str, *args: str) -> tuple[Path, Path]:
    """The JSON report and CSV timeline of one run of tickstat report."""
    name = dat.replace(".dat", "") + "".join(a.replace(",", "_") for a in args)
    j, c = out / f"{name}.json", out / f"{name}.csv"
    with open(j, "w") as f:
        subprocess.run([str(TICKSTAT), "report", "-q", *args, "--json", "--csv", str(c),
                        str(FIX / dat)], stdout=f, stderr=subprocess.PIPE, check=True)
    return j, c


def without_notes(err: str) -> str:
    """stderr without tickplot's notes (one on a pair of an older tickstat)."""
    return "".join(line for line in err.splitlines(keepends=True)
                   if not line.startswith("tickplot: note: "))


def strip_identity(j: Path, c: Path, out: Path) -> tuple[Path, Path]:
    """Copies of a JSON report without window.id and of a CSV without its
    window row: the files an older tickstat wrote."""
    report = json.loads(j.read_text())
    del report["window"]["id"]
    oj, oc = out / f"old-{j.name}", out / f"old-{c.name}"
    oj.write_text(json.dumps(report))
    oc.write_text("".join(r for r in c.read_text().splitlines(keepends=True)
                          if not r.startswith("window,")))
    return oj, oc


def by_gid(fig, prefix):
    found = {}
    for ax in fig.axes:
        for artist in list(ax.collections) + list(ax.patches):
            gid = artist.get_gid()
            if gid and gid.startswith(prefix):
                found.setdefault(gid, []).append(artist)
    return found


def span_widths(collection):
    """Total width of the rectangles of a broken_barh collection."""
    total = 0.0
    for path in collection.get_paths():
        xs = [v[0] for v in path.vertices]
        total += max(xs) - min(xs)
    return total


class TimelineTest(unittest.TestCase):
    def setUp(self):
        self.tl = tickplot.load_csv(FIX / "demo.csv")
        with open(FIX / "demo.csv") as f:
            self.rows = list(csv.DictReader(f))

    def test_spans_match_the_csv(self):
        fig, ax = plt.subplots()
        tickplot.draw_timeline(ax, self.tl, [1, 2, 3])
        spans = by_gid(fig, "span:")
        for cpu in (1, 2, 3):
            want = {}
            for r in self.rows:
                if r["kind"] == "span" and int(r["cpu"]) == cpu:
                    cat = tickplot.span_category(r)
                    want[cat] = want.get(cat, 0) + (int(r["end_ns"]) - int(r["start_ns"])) / 1e9
            for cat, seconds in want.items():
                drawn = sum(span_widths(c) for c in spans[f"span:{cpu}:{cat}"])
                self.assertAlmostEqual(drawn, seconds, places=6, msg=f"CPU{cpu} {cat}")
        plt.close(fig)

    def test_reasons_and_ticks_drawn(self):
        fig, ax = plt.subplots()
        tickplot.draw_timeline(ax, self.tl, [1, 2, 3])
        spans = by_gid(fig, "span:")
        self.assertIn("span:2:SCHED@CPU", spans)
        self.assertIn("span:3:POSIX_TIMER@PROCESS", spans)
        ticks = by_gid(fig, "ticks:")
        n_csv = sum(1 for r in self.rows if r["kind"] == "tick" and r["cpu"] == "2")
        n_drawn = sum(len(c.get_segments()) for c in ticks["ticks:2"])
        self.assertEqual(n_drawn, n_csv)
        self.assertGreater(n_drawn, 300)        # 2 s of SCHED at HZ=250
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertIn("SCHED", labels)
        self.assertIn("stopped", labels)
        self.assertEqual([t.get_text() for t in ax.get_yticklabels()], ["CPU1", "CPU2", "CPU3"])
        plt.close(fig)

    def test_co_runners_coloured(self):
        """The tasks that ran most while the tick ran get their own colour in
        the busy strip, named from the report."""
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "t.csv"
            path.write_text("kind,cpu,start_ns,end_ns,tick,idle,reasons,task\n"
                            "span,2,0,1000000,stopped,busy,,100\n"
                            "span,2,1000000,3000000,running,busy,SCHED@CPU,100\n"
                            "span,2,3000000,4000000,running,busy,SCHED@CPU,200\n"
                            "tick,2,3500000,3500000,,,,\n"
                            "span,2,4000000,5000000,stopped,idle,,0\n")
            tl = tickplot.load_csv(path)
        report = {"cpus": [{"cpu": 2, "co_runners": [
            {"pid": 100, "comm": "spin", "run_ns": 3000000, "held_ns": 2000000,
             "sched_ns": 2000000}]}]}
        fig, ax = plt.subplots()
        tickplot.draw_timeline(ax, tl, [2], tickplot.co_runner_names(report))
        tasks = by_gid(fig, "task:")
        self.assertAlmostEqual(span_widths(tasks["task:2:100"][0]), 0.003)
        self.assertAlmostEqual(span_widths(tasks["task:2:200"][0]), 0.001)
        labels = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
        self.assertEqual(labels["task-label:2:100"], "spin(100)")
        self.assertEqual(labels["task-label:2:200"], "pid 200")
        self.assertEqual(len(by_gid(fig, "ticks:2")["ticks:2"][0].get_segments()), 1)
        plt.close(fig)

    def test_unknown_task_state_is_not_idle(self):
        """Spans whose busy/idle state is unknown get their own strip, grey
        and hatched, not the "idle" of no strip; busy and idle spans none of it."""
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "t.csv"
            path.write_text("kind,cpu,start_ns,end_ns,tick,idle,reasons,task\n"
                            "span,2,0,1500000,stopped,unknown,,0\n"
                            "span,2,1500000,2000000,stopped,busy,,41\n"
                            "span,2,2000000,3000000,stopped,idle,,0\n"
                            "span,2,3000000,3250000,running,unknown,SCHED@CPU,\n")
            tl = tickplot.load_csv(path)
        fig, ax = plt.subplots()
        tickplot.draw_timeline(ax, tl, [2])
        strips = by_gid(fig, "idle-unknown:")
        self.assertEqual(list(strips), ["idle-unknown:2"])
        self.assertAlmostEqual(span_widths(strips["idle-unknown:2"][0]), 0.00175)
        self.assertAlmostEqual(span_widths(by_gid(fig, "busy:2")["busy:2"][0]), 0.0005)
        self.assertIn("busy or idle unknown",
                      [t.get_text() for t in ax.get_legend().get_texts()])
        self.assertEqual(ax.get_xlabel(), "seconds from the start of the window")
        plt.close(fig)

    def test_window_row(self):
        """A CSV's window row: its CPUs are the timeline's, drawn without --json
        even when one has no row; its window sets the time axis."""
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "w.csv"
            path.write_text(",".join(tickplot.CSV_HEADER) + "\n"
                            "window,\"1-2,3\",5000000000,7000000000,,,0123456789abcdef,\n"
                            "span,1,0,2000000000,stopped,idle,,0\n"
                            "span,2,0,1000000000,running,busy,SCHED@CPU,7\n"
                            "span,2,1000000000,2000000000,stopped,busy,,7\n")
            tl = tickplot.load_csv(path)
        self.assertEqual(tl.window, (frozenset({1, 2, 3}), 5000000000, 7000000000,
                                     "0123456789abcdef"))
        self.assertEqual(tl.cpus(), {1, 2, 3})
        self.assertEqual(tl.rows, 3)
        fig, ax = plt.subplots()
        tickplot.draw_timeline(ax, tl)
        self.assertIn("no-rows:3", [t.get_gid() for t in ax.texts])
        self.assertEqual(ax.get_xlim(), (0, 2.0))
        plt.close(fig)

    def test_causes_drawn(self):
        """Cause rows: a marker per cause at its start, one collection per CPU and
        type, in the legend; an exit not seen (empty end) is an instant; a CSV
        without them draws none and says none in the legend."""
        tl = timeline_of("window,1-2,5000000000,7000000000,,,0123456789abcdef,\n"
                         "span,1,0,2000000000,stopped,busy,,7\n"
                         "cause,1,500000000,500010000,,,hrtimer:perf_mux_hrtimer_handler,7\n"
                         "cause,1,900000000,,,,irq:24 virtio0-input.0,7\n"
                         "cause,1,1500000000,1500020000,,,hrtimer:perf_mux_hrtimer_handler,7\n"
                         "cause,1,1600000000,1600001000,,,vector:reschedule,7\n"
                         "span,2,0,2000000000,stopped,idle,,0\n"
                         "cause,2,1000000000,1000005000,,,\"work:vmstat_update\",0\n")
        self.assertEqual(dict(tl.causes[1]), {
            "hrtimer": [(0.5, "perf_mux_hrtimer_handler"), (1.5, "perf_mux_hrtimer_handler")],
            "irq": [(0.9, "24 virtio0-input.0")], "vector": [(1.6, "reschedule")]})
        self.assertEqual(dict(tl.causes[2]), {"work": [(1.0, "vmstat_update")]})
        fig, ax = plt.subplots()
        tickplot.draw_timeline(ax, tl)
        marks = by_gid(fig, "causes:")
        self.assertEqual(sorted(marks), ["causes:1:hrtimer", "causes:1:irq", "causes:1:vector",
                                         "causes:2:work"])
        # CPU 1 is the first row (y 0), CPU 2 the second (y 1)
        self.assertEqual([tuple(p) for p in marks["causes:1:hrtimer"][0].get_offsets()],
                         [(0.5, 0.225), (1.5, 0.225)])
        self.assertEqual([tuple(p) for p in marks["causes:2:work"][0].get_offsets()],
                         [(1.0, 1.225)])
        self.assertEqual(marks["causes:1:irq"][0].get_offsets()[0][0], 0.9)
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertEqual([t for t in legend if t.startswith("cause")],
                         ["cause: work", "cause: hrtimer", "cause: irq", "cause: vector"])
        plt.close(fig)
        fig, ax = plt.subplots()
        tickplot.draw_timeline(ax, tickplot.load_csv(FIX / "demo.csv"), [1, 2, 3])
        self.assertEqual(by_gid(fig, "causes:"), {})
        self.assertFalse([t for t in ax.get_legend().get_texts() if "cause" in t.get_text()])
        plt.close(fig)

    def test_bad_cause_rows(self):
        """A cause row of an unknown type, without a name, or with a tick state."""
        head = ",".join(tickplot.CSV_HEADER) + "\nspan,1,0,2000,stopped,busy,,7\n"
        for row, what in (("cause,1,5,6,,,nmi:x,7", "is not TYPE:NAME"),
                          ("cause,1,5,6,,,irq:,7", "is not TYPE:NAME"),
                          ("cause,1,5,6,stopped,,irq:4 x,7", "a cause row with a tick"),
                          ("cause,1,5,x,,,irq:4 x,7", "end_ns 'x' is not a number"),
                          ("cause,1,6,5,,,irq:4 x,7", "ends before it starts")):
            with self.subTest(row), tempfile.TemporaryDirectory() as d:
                path = Path(d) / "bad.csv"
                path.write_text(head + row + "\n")
                with self.assertRaisesRegex(tickplot.InputError, rf":3: .*{what}"):
                    tickplot.load_csv(path)

    def test_verdict_rows(self):
        """Verdict rows after the timeline: each CPU's diagnosis and SCHED's
        explanation label its row; the labels are tickstat's own."""
        tl = timeline_of("window,1-3,5000000000,7000000000,,,0123456789abcdef,\n"
                         "span,1,0,2000000000,stopped,busy,,7\n"
                         "span,2,0,1000000000,running,busy,SCHED@CPU,8\n"
                         "span,2,1000000000,2000000000,stopped,busy,,8\n"
                         "span,3,0,2000000000,stopped,idle,,0\n"
                         "diagnosis,1,2000000000,2000000000,,,TICKLESS,\n"
                         "why,1,2000000000,2000000000,,,SCHED:fair-server,\n"
                         "diagnosis,2,2000000000,2000000000,,,SCHED,\n"
                         "why,2,2000000000,2000000000,,,SCHED:shared,\n")
        self.assertEqual(tl.diagnosis, {1: "TICKLESS", 2: "SCHED"})
        self.assertEqual(tl.sched_why, {1: "fair-server", 2: "shared"})
        fig, ax = plt.subplots()
        tickplot.draw_timeline(ax, tl)
        self.assertEqual([t.get_text() for t in ax.get_yticklabels()],
                         ["CPU1\nTICKLESS\nSCHED: fair-server", "CPU2\nSCHED: shared", "CPU3"])
        plt.close(fig)
        # a file of seven columns (no task) takes them too
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "v1.csv"
            path.write_text(",".join(tickplot.CSV_HEADER_V1) + "\n"
                            "span,1,0,2000,stopped,busy,\ndiagnosis,1,2000,2000,,,TICKLESS\n")
            self.assertEqual(tickplot.load_csv(path).diagnosis, {1: "TICKLESS"})
        # the labels are those tickstat writes (ts_sched_whys in diagnosis.c), in order
        sys.path.insert(0, str(TOP / "tests"))
        from sched_whys import sched_whys
        self.assertEqual(sched_whys(), tickplot.SCHED_WHYS)

    def test_bad_verdict_rows(self):
        """A verdict row with a time, of another CPU, twice, of an unknown label,
        or a timeline row after the verdicts."""
        head = (",".join(tickplot.CSV_HEADER) + "\nwindow,1,0,5000,,,0123456789abcdef,\n"
                "span,1,0,2000,stopped,busy,,7\n")
        for rows, what in (("diagnosis,1,0,0,,,SCHED,", "not at the window's end"),
                           ("diagnosis,1,5000,4000,,,SCHED,", "not at the window's end"),
                           ("diagnosis,1,,,,,SCHED,", "start_ns '' is not a number"),
                           ("why,1,5000,5000,,,SCHED:shared,7", "with a tick, idle or task"),
                           ("diagnosis,2,5000,5000,,,SCHED,", "which the window row does not name"),
                           ("diagnosis,1,5000,5000,,,SCHED,\ndiagnosis,1,5000,5000,,,SCHED,",
                            "a second"),
                           ("diagnosis,1,5000,5000,,,SCHED x,", "is not a cause name"),
                           ("why,1,5000,5000,,,SCHED:lonely,", "is not SCHED:LABEL"),
                           ("why,1,5000,5000,,,RCU:shared,", "is not SCHED:LABEL"),
                           ("diagnosis,1,5000,5000,,,SCHED,\ntick,1,5,5,,,,",
                            "after the verdict rows")):
            with self.subTest(rows), tempfile.TemporaryDirectory() as d:
                path = Path(d) / "bad.csv"
                path.write_text(head + rows + "\n")
                with self.assertRaisesRegex(tickplot.InputError, rf":\d: .*{what}"):
                    tickplot.load_csv(path)

    def test_many_cpus(self):
        """64 rows still render, with smaller labels."""
        tl = tickplot.Timeline()
        for cpu in range(64):
            tl.spans[cpu]["stopped"].append((0.0, 60.0))
            tl.ticks[cpu].extend([1.0, 2.0])
        tl.end = 60.0
        fig, ax = plt.subplots(figsize=(12, 20))
        tickplot.draw_timeline(ax, tl)
        self.assertEqual(len(by_gid(fig, "span:")), 64)
        self.assertEqual(len(ax.get_yticklabels()), 64)
        plt.close(fig)


class ReasonsDurationsTest(unittest.TestCase):
    def setUp(self):
        self.report = tickplot.load_json(FIX / "demo.json")

    def test_reason_bars_are_time_shares(self):
        fig, ax = plt.subplots()
        tickplot.draw_reasons(ax, self.report)
        bars = by_gid(fig, "reason:")
        c2 = next(c for c in self.report["cpus"] if c["cpu"] == 2)
        sched = next(r for r in c2["reasons"] if r["reason"] == "SCHED")
        bar = bars["reason:2:SCHED@CPU"][0]
        self.assertAlmostEqual(bar.get_height(), sched["time_ns"] / c2["window_ns"] * 100, places=6)
        plt.close(fig)

    def test_reasons_never_exceed_the_running_time(self):
        """Reasons are side by side, each at most the running time; the state
        bar shows stopped, running and unknown."""
        report = json.loads(json.dumps(self.report))
        c2 = next(c for c in report["cpus"] if c["cpu"] == 2)
        # RCU held the tick during most of SCHED's time: they overlap
        c2["reasons"].append({"reason": "RCU", "scope": "CPU", "time_ns": c2["running_ns"] // 2,
                              "events": 10, "share": 0.5})
        c3 = next(c for c in report["cpus"] if c["cpu"] == 3)
        c3.update(unknown_ns=c3["window_ns"], stopped_ns=0, running_ns=0, reasons=[],
                  tickless_share=None)
        fig, ax = plt.subplots()
        tickplot.draw_reasons(ax, report)
        bars = by_gid(fig, "reason:")
        states = by_gid(fig, "state:")
        for c in report["cpus"]:
            running = states[f"state:{c['cpu']}:running"][0].get_height()
            for gid, (bar,) in bars.items():
                if gid.startswith(f"reason:{c['cpu']}:"):
                    self.assertLessEqual(bar.get_height(), running + 1e-9, gid)
            total = sum(states[f"state:{c['cpu']}:{s}"][0].get_height()
                        for s in ("stopped", "running", "unknown"))
            self.assertAlmostEqual(total, 100, places=3)
        self.assertAlmostEqual(states["state:3:unknown"][0].get_height(), 100)
        self.assertEqual(states["state:3:stopped"][0].get_height(), 0)
        labels = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
        # the overlap is said in the plot's unit: % of the window, with the running time
        held = sum(r["time_ns"] for r in c2["reasons"]) / c2["window_ns"] * 100
        self.assertIn(f"CPU2 {held:.1f}% (running {c2['running_ns'] / c2['window_ns'] * 100:.1f}%)",
                      labels["reasons-overlap"])
        plt.close(fig)

    def test_labels_and_bars_share_one_denominator(self):
        """Each reason's label is its bar's height, in the axis's unit (% of the
        CPU's window), for every CPU of every fixture; the axis says so."""
        reports = [self.report]
        # a CPU whose running time is a small part of the window: shares of the
        # running time and of the window differ most
        c2 = json.loads(json.dumps(self.report))
        for c in c2["cpus"]:
            c["reasons"] = [dict(r, time_ns=r["time_ns"] // 4) for r in c["reasons"]]
        reports.append(c2)
        for report in reports:
            fig, ax = plt.subplots()
            tickplot.draw_reasons(ax, report)
            labels = {t.get_gid(): t for t in ax.texts if t.get_gid()}
            bars = by_gid(fig, "reason:")
            self.assertTrue(bars)
            for gid, (bar,) in bars.items():
                label = labels[gid.replace("reason:", "reason-share:")]
                self.assertEqual(label.get_text(), f"{bar.get_height():.1f}%", gid)
                self.assertAlmostEqual(label.get_position()[1], bar.get_height())
                cpu = next(c for c in report["cpus"] if gid.startswith(f"reason:{c['cpu']}:"))
                t = sum(r["time_ns"] for r in cpu["reasons"]
                        if gid == f"reason:{cpu['cpu']}:{tickplot.reason_name(r)}")
                self.assertAlmostEqual(bar.get_height(), t / cpu["window_ns"] * 100)
            self.assertIn("% of the CPU's window", ax.get_ylabel())
            self.assertIn("labels", ax.get_ylabel())
            plt.close(fig)

    def test_open_intervals_apart(self):
        """A CPU tickless for the whole window has no complete interval, but
        its open one is drawn, hatched, apart from the complete ones."""
        report = json.loads(json.dumps(self.report))
        c1 = next(c for c in report["cpus"] if c["cpu"] == 1)
        c1["stopped_intervals"].update(count=0, log2_histogram=[], open=1,
                                       open_total_ns=c1["window_ns"])
        fig, ax = plt.subplots()
        tickplot.draw_durations(ax, report)
        opened = by_gid(fig, "open:")
        self.assertEqual(opened["open:CPU1"][0].get_height(), 1)
        self.assertAlmostEqual(opened["open:CPU1"][0].get_x() + opened["open:CPU1"][0].get_width()
                               / 2, c1["window_ns"] / 1e9, places=6)
        for c in report["cpus"]:
            if c["stopped_intervals"]["open"]:
                self.assertIn(f"open:CPU{c['cpu']}", opened)
        self.assertFalse([t for t in ax.texts if t.get_gid() == "never-stopped"])
        plt.close(fig)

    def test_duration_histogram_counts(self):
        fig, ax = plt.subplots()
        tickplot.draw_durations(ax, self.report)
        bars = by_gid(fig, "duration:")
        for c in self.report["cpus"]:
            for h in c["stopped_intervals"]["log2_histogram"]:
                bar = bars[f"duration:CPU{c['cpu']}:{h['lt_ns']}"][0]
                self.assertEqual(bar.get_height(), h["count"])
        total = sum(b[0].get_height() for b in bars.values())
        self.assertEqual(total, sum(c["stopped_intervals"]["count"] for c in self.report["cpus"]))
        plt.close(fig)

    def test_duration_bars_cover_their_buckets(self):
        """A bucket holds lengths from lt/2 up to lt (docs/metrics.md): its bar
        spans exactly that, on the axis of interval lengths in seconds."""
        for merge in (False, True):
            fig, ax = plt.subplots()
            tickplot.draw_durations(ax, self.report, merge)
            bars = by_gid(fig, "duration:")
            self.assertTrue(bars)
            for gid, (bar,) in bars.items():
                lt = int(gid.rsplit(":", 1)[1])
                self.assertAlmostEqual(bar.get_x(), lt / 2e9, places=12, msg=gid)
                self.assertAlmostEqual(bar.get_x() + bar.get_width(), lt / 1e9, places=12,
                                       msg=gid)
            plt.close(fig)


def demo_with(**window):
    """demo.json with another window length, every CPU's fields scaled along."""
    report = tickplot.load_json(FIX / "demo.json")
    report = json.loads(json.dumps(report))
    old = report["window"]["duration_ns"]
    new = window["duration_ns"]
    report["window"]["duration_ns"] = new
    for c in report["cpus"]:
        c["window_ns"] = new
        c["stopped_ns"] += new - old
    return report


class CompareTest(unittest.TestCase):
    def test_compare_rows(self):
        a = tickplot.load_json(FIX / "demo.json")
        b = json.loads(json.dumps(a))
        b["cpus"][1]["tickless_share"] = 0.99
        rows = tickplot.compare_rows(a, b)
        self.assertEqual([r[0] for r in rows], ["CPU1", "CPU2", "CPU3"])
        self.assertEqual(rows[1][2], "99.00%")
        self.assertIn("SCHED@CPU", rows[1][7])

    def test_compare_calls_out_differences(self):
        a = tickplot.load_json(FIX / "demo.json")
        b = json.loads(json.dumps(a))
        b["cpus"][0]["tickless_share"] = 0.5
        b["cpus"][0]["tick_rate_hz"] = 250.0
        fig = plt.figure()
        tickplot.draw_compare(fig, a, b, ("old", "new"))
        bars = by_gid(fig, "compare:tick_rate_hz:new:CPU1")
        self.assertEqual(bars["compare:tick_rate_hz:new:CPU1"][0].get_height(), 250.0)
        texts = [t for ax in fig.axes for t in ax.texts if t.get_gid() == "compare-callouts"]
        self.assertEqual(len(texts), 1)
        old = a["cpus"][0]
        want = (f"CPU1: tickless {old['tickless_share'] * 100:.2f}% -> 50.00% of the known time "
                f"({(0.5 - old['tickless_share']) * 100:+.1f} points);  "
                f"ticks/s {old['tick_rate_hz']:.1f} -> 250.0")
        self.assertIn(want, texts[0].get_text())
        plt.close(fig)

    def test_compare_draws_null_as_unknown(self):
        """A rate or share a kernel could not give (null) is no bar, not 0."""
        a = tickplot.load_json(FIX / "demo.json")
        b = json.loads(json.dumps(a))
        for c in b["cpus"]:
            c["tick_rate_hz"] = None
        b["cpus"][0]["tickless_share"] = None
        fig = plt.figure()
        tickplot.draw_compare(fig, a, b, ("old", "new"))
        self.assertFalse(by_gid(fig, "compare:tick_rate_hz:new:"))
        self.assertNotIn("compare:tickless_share:new:CPU1", by_gid(fig, "compare:tickless_share"))
        self.assertIn("compare:tickless_share:new:CPU2", by_gid(fig, "compare:tickless_share"))
        na = {t.get_gid() for ax in fig.axes for t in ax.texts if t.get_gid()}
        self.assertIn("compare-na:tick_rate_hz:new:CPU3", na)
        self.assertIn("compare-na:tickless_share:new:CPU1", na)
        plt.close(fig)

    def test_window_lengths_shown_and_warned(self):
        """Windows of 2.4 s and 3.6 s: both lengths in every legend and the
        title, and a one-line warning on stderr and in the figure; windows
        within the tolerance draw no warning."""
        a = demo_with(duration_ns=2_400_000_000)
        b = demo_with(duration_ns=3_600_000_000)
        with tempfile.TemporaryDirectory() as d:
            for name, r in (("a", a), ("b", b)):
                (Path(d) / f"{name}.json").write_text(json.dumps(r))
            fig = plt.figure()
            tickplot.draw_compare(fig, a, b, ("old", "new"))
            for ax in fig.axes[:3]:
                legend = [t.get_text() for t in ax.get_legend().get_texts()]
                self.assertEqual(legend, ["old (2.400 s window)", "new (3.600 s window)"])
            self.assertIn("old (2.400 s window), new (3.600 s window)",
                          fig._suptitle.get_text())
            warn = [t for t in fig.texts if t.get_gid() == "compare-window-warning"]
            self.assertEqual(len(warn), 1)
            plt.close(fig)
            rc, err = run(["compare", Path(d) / "a.json", Path(d) / "b.json", "-o",
                           Path(d) / "c.png"])
            self.assertEqual(rc, 0)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertRegex(err, r"^tickplot: warning: the windows differ in length: before "
                             r"2\.400 s, after 3\.600 s \(more than 10%\)")
        # the tolerance: 10% of the longer window
        self.assertIsNone(tickplot.window_warning(demo_with(duration_ns=900_000_000),
                                                  demo_with(duration_ns=1_000_000_000), ("a", "b")))
        self.assertIsNotNone(tickplot.window_warning(demo_with(duration_ns=899_000_000),
                                                     demo_with(duration_ns=1_000_000_000),
                                                     ("a", "b")))
        self.assertEqual(tickplot.WINDOW_TOLERANCE, 0.10)

    def test_compared_numbers_normalised_and_labelled(self):
        """Every compared number has its unit and denominator: the axes name
        them, and the top reasons are a share of each report's own window, not
        seconds of windows of different length."""
        a = demo_with(duration_ns=2_400_000_000)
        b = tickplot.load_json(FIX / "demo.json")
        fig = plt.figure()
        tickplot.draw_compare(fig, a, b, ("old", "new"))
        ylabels = [ax.get_ylabel() for ax in fig.axes[:3]]
        self.assertEqual(ylabels, ["% of the known time (stopped + running)",
                                   "ticks per second of the window (Hz)", "% of the window"])
        text = next(t.get_text() for ax in fig.axes for t in ax.texts
                    if t.get_gid() == "compare-callouts")
        self.assertNotRegex(text, r"\d\.\d{3}s")
        for report, side in ((a, 0), (b, 1)):
            c2 = next(c for c in report["cpus"] if c["cpu"] == 2)
            sched = next(r for r in c2["reasons"] if r["reason"] == "SCHED")
            line = next(x for x in text.splitlines() if x.startswith("CPU2"))
            reasons = line.split("top reasons (% of the window): ")[1].split(" -> ")[side]
            self.assertIn(f"SCHED@CPU {sched['time_ns'] / c2['window_ns'] * 100:.1f}%", reasons)
        # the unknown share, the tickless share's missing denominator, is drawn
        b["cpus"][1]["unknown_share"] = 0.25
        fig2 = plt.figure()
        tickplot.draw_compare(fig2, a, b, ("old", "new"))
        bar = by_gid(fig2, "compare:unknown_share:new:CPU2")["compare:unknown_share:new:CPU2"]
        self.assertEqual(bar[0].get_height(), 25.0)
        plt.close("all")

    def test_cpus_of_one_side_are_said(self):
        a = tickplot.load_json(FIX / "demo.json")
        b = json.loads(json.dumps(a))
        b["cpus"] = b["cpus"][1:]
        fig = plt.figure()
        tickplot.draw_compare(fig, a, b, ("old", "new"))
        text = next(t.get_text() for ax in fig.axes for t in ax.texts
                    if t.get_gid() == "compare-callouts")
        self.assertIn("CPU 1: only in old, not compared", text)
        plt.close(fig)
        b["cpus"] = []
        with self.assertRaises(tickplot.InputError):
            tickplot.draw_compare(plt.figure(), a, {"cpus": [dict(a["cpus"][0], cpu=7)]},
                                  ("old", "new"))
        plt.close("all")


class SameReportTest(unittest.TestCase):
    """summary and timeline --json draw a JSON report and a CSV timeline as one:
    they must be of the same report."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def need_tickstat(self):
        if not os.access(TICKSTAT, os.X_OK):
            self.skipTest(f"no tickstat binary at {TICKSTAT}")

    def assert_refused(self, json_path, csv_path, what):
        for cmd in ("summary", "timeline"):
            out = self.dir / f"refused-{cmd}.png"
            rc, err = run([cmd, "--json", json_path, "--csv", csv_path, "-o", out])
            self.assertEqual(rc, tickplot.EXIT_INPUT, err)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertRegex(err, r"^tickplot: .* are not of the same report: " + what)
            self.assertFalse(out.exists())

    def assert_drawn(self, json_path, csv_path, note=None):
        """Drawn; without identity on one side (note: what the note names), with
        one line that says they are tied by their sums only."""
        for cmd in ("summary", "timeline"):
            out = self.dir / f"drawn-{cmd}.png"
            rc, err = run([cmd, "--json", json_path, "--csv", csv_path, "-o", out])
            if note:
                self.assertEqual(rc, 0, err)
                self.assertRegex(err, rf"^tickplot: note: {note} \(an older tickstat\): the two "
                                      r"are tied by their sums only\n\Z")
            else:
                self.assertEqual((rc, err), (0, ""))
            self.assertGreater(out.stat().st_size, 10000)

    def test_demo_pair_drawn(self):
        """demo.json and demo.csv come from a tickstat without the report's
        identity: drawn, tied by their sums, and a note says so."""
        self.assert_drawn(FIX / "demo.json", FIX / "demo.csv",
                          ".*demo.csv has no window row and .*demo.json has no window.id")

    def test_edited_timeline_refused(self):
        """One span of demo.csv with another tick state, a tick row less, the
        last span cut short: not the report's numbers."""
        rows = (FIX / "demo.csv").read_text().splitlines(keepends=True)
        i = next(k for k, r in enumerate(rows) if r.startswith("span,2,") and ",stopped," in r)
        flipped = rows[:i] + [rows[i].replace(",stopped,", ",running,")] + rows[i + 1:]
        (self.dir / "flipped.csv").write_text("".join(flipped))
        self.assert_refused(FIX / "demo.json", self.dir / "flipped.csv",
                            "CPU 2: tick stopped .* in the CSV, .* in the report")
        t = next(k for k, r in enumerate(rows) if r.startswith("tick,3,"))
        (self.dir / "tickless.csv").write_text("".join(rows[:t] + rows[t + 1:]))
        self.assert_refused(FIX / "demo.json", self.dir / "tickless.csv", "CPU 3: .* tick rows")

    def test_unknown_cpu_refused(self):
        """A CPU of the report that the CSV does not have (another CPU set)."""
        report = json.loads((FIX / "demo.json").read_text())
        report["cpus"].append(dict(report["cpus"][0], cpu=7))
        (self.dir / "cpu7.json").write_text(json.dumps(report))
        self.assert_refused(self.dir / "cpu7.json", FIX / "demo.csv",
                            r"CPU 7 of the report not in the CSV \(it has 1-3\)")

    def test_tickstat_pairs(self):
        """Every committed recording's JSON and CSV, of one run, carry one
        identity and are drawn together; those of different recordings, CPU
        sets, time ranges or nohz_full CPUs are refused, saying what differs."""
        self.need_tickstat()
        pairs = {dat: tickstat_report(self.dir, dat) for dat in
                 ("patched.dat", "stock.dat", "patched-trace-cmd.dat", "lost.dat",
                  "unflushed.dat")}
        for dat, (j, c) in pairs.items():
            with self.subTest(dat):
                self.assert_drawn(j, c)
                report, tl = json.loads(j.read_text()), tickplot.load_csv(c)
                w = report["window"]
                self.assertEqual(tl.window, ({c["cpu"] for c in report["cpus"]}, w["start_ns"],
                                             w["end_ns"], w["id"]))
                self.assertEqual(set(tl.end_ns), tl.window.cpus)
        # different recordings: the example; other CPUs; other CPUs and window
        self.assert_refused(pairs["stock.dat"][0], pairs["patched.dat"][1],
                            r"the CSV's window is 11.111974977 s to 14.729098452 s, the report's "
                            r"13.215563959 s to 15.582642321 s \(another recording or time range\?\)")
        self.assert_refused(pairs["patched-trace-cmd.dat"][0], pairs["patched.dat"][1],
                            r"the CSV is of CPU 1-3, the report of CPU 0-3")
        self.assert_refused(pairs["lost.dat"][0], pairs["unflushed.dat"][1],
                            "the CSV is of CPU 0-3, the report of CPU 2")
        # one recording in two files (trace-cmd convert): one data set, one identity
        self.assert_drawn(pairs["patched.dat"][0], tickstat_report(self.dir, "patched-v7.dat")[1])
        # report -C 2 selects the CPUs of the report and of its CSV alike
        j, c = tickstat_report(self.dir, "patched.dat", "-C", "2")
        self.assert_drawn(j, c)
        self.assertEqual(set(tickplot.load_csv(c).end_ns), {2})
        self.assert_refused(j, pairs["patched.dat"][1],
                            r"the CSV is of CPU 1-3, the report of CPU 2 \(another -C or "
                            r"--nohz-full\?\)")
        self.assert_refused(pairs["patched.dat"][0], c, "the CSV is of CPU 2, the report of CPU 1-3")
        # time ranges of the same length, 1 ms apart: same CPUs and window length
        a = tickstat_report(self.dir, "patched.dat", "--time-range", "12000000000,13000000000")
        b = tickstat_report(self.dir, "patched.dat", "--time-range", "12001000000,13001000000")
        self.assert_drawn(*a)
        self.assert_refused(a[0], b[1], r"the CSV's window is 12.001000000 s to 13.001000000 s, "
                                        r"the report's 12.000000000 s to 13.000000000 s")
        self.assert_refused(pairs["patched.dat"][0], a[1], "the CSV's window is 12.0")
        # --nohz-full of a trace.dat: same CPUs, window and tick states, other reasons
        n = tickstat_report(self.dir, "patched-trace-cmd.dat", "-C", "1-3")
        f = tickstat_report(self.dir, "patched-trace-cmd.dat", "-C", "1-3", "--nohz-full", "1-3")
        self.assert_refused(n[0], f[1], r"the CSV's identity is [0-9a-f]{16}, the report's "
                                        r"[0-9a-f]{16} \(another recording, boot or --nohz-full\?\)")
        # ... which their sums alone cannot tell: without the identity, drawn
        self.assert_drawn(strip_identity(*n, self.dir)[0], strip_identity(*f, self.dir)[1],
                          ".*has no window row and .*has no window.id")

    def test_tickstat_causes_drawn(self):
        """The causes of a recording: tickstat's CSV has a row per cause the
        report counts, and the timeline draws a marker per row, by CPU and
        type, at its start; the pair is drawn as one report."""
        self.need_tickstat()
        j, c = tickstat_report(self.dir, "unflushed.dat")
        self.assert_drawn(j, c)
        report, tl = json.loads(j.read_text()), tickplot.load_csv(c)
        counted = {}
        for cpu in report["cpus"]:
            for ctype, kind in (cpu.get("causes") or {}).items():
                n = sum(i["count"] for i in kind["items"]) + kind["other"]["count"] if kind else 0
                if n:
                    counted[f"causes:{cpu['cpu']}:{ctype}"] = n
        self.assertEqual(counted, {"causes:0:hrtimer": 40, "causes:3:hrtimer": 1})
        with open(c) as f:
            rows = [r for r in csv.DictReader(f) if r["kind"] == "cause"]
        fig, ax = plt.subplots()
        tickplot.draw_timeline(ax, tl)
        marks = by_gid(fig, "causes:")
        self.assertEqual({g: len(m[0].get_offsets()) for g, m in marks.items()}, counted)
        self.assertEqual(sorted(p[0] for p in marks["causes:3:hrtimer"][0].get_offsets()),
                         [int(r["start_ns"]) / 1e9 for r in rows if r["cpu"] == "3"])
        self.assertEqual({r["reasons"] for r in rows if r["cpu"] == "3"},
                         {"hrtimer:schedule_page_work_fn"})
        plt.close(fig)

    def test_older_files_tied_by_their_sums(self):
        """A file without the identity (an older tickstat's) pairs with one that
        has it by the sums, with a note naming it; its CSV may have more CPUs
        than the report (its timeline did not follow -C)."""
        self.need_tickstat()
        j, c = tickstat_report(self.dir, "patched.dat")
        old_j, old_c = strip_identity(j, c, self.dir)
        self.assert_drawn(old_j, c, ".*has no window.id")
        self.assert_drawn(j, old_c, ".*has no window row")
        j2, c2 = tickstat_report(self.dir, "patched.dat", "-C", "2")
        self.assert_drawn(j2, old_c, ".*has no window row")
        # and refused by them when they differ, in one line, without a note
        self.assert_refused(tickstat_report(self.dir, "stock.dat")[0], old_c,
                            "CPU 1's timeline ends at 3.617123475 s, the report's window is "
                            "2.367078362 s long")


class ErrorsTest(unittest.TestCase):
    """Every error a user can cause: one line on stderr, "tickplot: ...", the
    documented exit status, no traceback, no picture."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def json_file(self, name, edit=None, text=None):
        path = self.d / name
        if text is None:
            report = json.loads((FIX / "demo.json").read_text())
            if edit:
                edit(report)
            text = json.dumps(report)
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return path

    def csv_file(self, name, text):
        path = self.d / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return path

    def cases(self):
        d = self.d
        J, C, out = FIX / "demo.json", FIX / "demo.csv", d / "out.png"
        H = ",".join(tickplot.CSV_HEADER) + "\n"
        W = "window,1-3,1000,2000,,,0123456789abcdef,\n"
        S = "span,1,0,5,stopped,idle,,0\n"
        (d / "file").write_text("x")
        (d / "dir.png").mkdir()
        os.symlink(private_device(d / "full", 7), d / "full.png")
        shutil.copy(C, d / "timeline.png")
        cpu = lambda **kw: lambda r: r["cpus"][0].update(kw)      # noqa: E731
        I, U, O = tickplot.EXIT_INPUT, tickplot.EXIT_USAGE, tickplot.EXIT_OUTPUT
        reasons = lambda path: ["reasons", "--json", path, "-o", out]     # noqa: E731
        timeline = lambda path: ["timeline", "--csv", path, "-o", out]    # noqa: E731
        cases = [
            # the output
            ("missing output directory", ["reasons", "--json", J, "-o", d / "no/dir/x.png"], O,
             "no such directory"),
            ("output under a file", ["reasons", "--json", J, "-o", d / "file/x.png"], O,
             "no such directory"),
            ("output is a directory", ["reasons", "--json", J, "-o", d / "dir.png"], O,
             "is a directory"),
            ("unwritable output", ["reasons", "--json", J, "-o", "/proc/tickplot-test.png"], O,
             "No such file or directory"),
            ("output device full", ["reasons", "--json", J, "-o", d / "full.png"], O,
             "No space left on device"),
            # the command line
            ("output not png or svg", ["reasons", "--json", J, "-o", d / "x.pdf"], U, ".png or .svg"),
            ("output is an input", ["timeline", "--csv", d / "timeline.png", "-o",
                                    d / "timeline.png"], U, "is also an input"),
            ("one label", ["compare", J, J, "--labels", "one", "-o", out], U, "--labels"),
            ("three labels", ["compare", J, J, "--labels", "a,b,c", "-o", out], U, "--labels"),
            ("same labels", ["compare", J, J, "--labels", "a,a", "-o", out], U, "--labels"),
            ("missing option", ["summary", "--json", J, "-o", out], U, "--csv"),
            ("unknown option", ["reasons", "--json", J, "-o", out, "--bogus"], U, "--bogus"),
            ("no picture", [], U, "required"),
            ("unknown picture", ["pie", "-o", out], U, "pie"),
            # the JSON report
            ("missing JSON", reasons(d / "none.json"), I, "No such file or directory"),
            ("JSON is a directory", reasons(d), I, "Is a directory"),
            ("empty JSON", reasons(self.json_file("e.json", text="")), I, "not JSON"),
            ("malformed JSON", reasons(self.json_file("m.json", text="{not json")), I, "not JSON"),
            ("JSON not UTF-8", reasons(self.json_file("u.json", text=b'{"schema": "\xff"}')), I,
             "not UTF-8"),
            ("JSON nested deep", reasons(self.json_file("n.json", text="[" * 100000)), I,
             "tickstat report"),
            ("JSON not an object", reasons(self.json_file("l.json", text="[1]")), I, "no schema"),
            ("schema version", reasons(self.json_file("v.json", lambda r: r.update(
                schema="tickstat-report/2"))), I, "tickstat-report/2"),
            ("no cpus", reasons(self.json_file("nc.json", lambda r: r.pop("cpus"))), I,
             "cpus: missing"),
            ("empty cpus", reasons(self.json_file("ec.json", lambda r: r.update(cpus=[])))
             , I, "no CPU"),
            ("empty window", reasons(self.json_file("ew.json", lambda r: r["window"].update(
                duration_ns=0))), I, "empty"),
            ("cpu not an object", reasons(self.json_file("co.json", lambda r: r["cpus"].append(3))),
             I, r"cpus\[3\]: not an object"),
            ("field of a wrong type", reasons(self.json_file("ft.json", cpu(window_ns="5"))), I,
             "CPU 1: window_ns: expected int"),
            ("negative time", reasons(self.json_file("nt.json", cpu(stopped_ns=-1))), I,
             "stopped_ns"),
            ("states not the window", reasons(self.json_file("sw.json", cpu(stopped_ns=1))), I,
             "stopped \\+ running \\+ unknown"),
            ("share above 1", reasons(self.json_file("sh.json", cpu(tickless_share=1.5))), I,
             "tickless_share"),
            ("NaN", reasons(self.json_file("nan.json", cpu(tick_rate_hz=float("nan")))), I,
             "NaN is not a number"),
            ("duplicate CPU", reasons(self.json_file("dc.json", lambda r: r["cpus"].append(
                r["cpus"][0]))), I, "twice"),
            ("reason without time", reasons(self.json_file("rt.json", lambda r: r["cpus"][1][
                "reasons"][0].pop("time_ns"))), I, r"reasons\[0\]\.time_ns: missing"),
            ("bucket of 0 ns", ["durations", "--json", self.json_file("b0.json", lambda r: r[
                "cpus"][1]["stopped_intervals"]["log2_histogram"][0].update(lt_ns=0)), "-o", out],
             I, "lt_ns"),
            ("compare: no CPU in common", ["compare", J, self.json_file("c7.json", lambda r: [
                c.update(cpu=c["cpu"] + 4) for c in r["cpus"]]), "-o", out], I,
             r"no CPU in common \(before: 1-3, after: 5-7\)"),
            # the CSV timeline
            ("missing CSV", timeline(d / "none.csv"), I, "No such file or directory"),
            ("empty CSV", timeline(self.csv_file("e.csv", "")), I, "empty file"),
            ("CSV without rows", timeline(self.csv_file("h.csv", H)), I, "no rows"),
            ("CSV header", timeline(self.csv_file("w.csv", "a,b\n1,2\n")), I, "header"),
            ("CSV field count", timeline(self.csv_file("f.csv", H + "span,1,0,5\n")), I,
             ":2: 4 fields, expected 8"),
            ("CSV cpu not a number", timeline(self.csv_file("c.csv", H +
                                                            "span,x,0,5,stopped,idle,,0\n")),
             I, ":2: cpu 'x' is not a number"),
            ("CSV negative CPU", timeline(self.csv_file("n.csv", H +
                                                        "span,-1,0,5,stopped,idle,,0\n")),
             I, "cpu -1 is out of range"),
            ("CSV time too large", timeline(self.csv_file("t.csv", H + "span,1,0,%d,stopped,idle,,0\n"
                                                          % 2**64)), I, "end_ns"),
            ("CSV ends before start", timeline(self.csv_file("b.csv", H +
                                                             "span,1,5,4,stopped,idle,,0\n")),
             I, "ends before it starts"),
            ("CSV state", timeline(self.csv_file("s.csv", H + "span,1,0,5,maybe,idle,,0\n")), I,
             "not a state"),
            ("CSV kind", timeline(self.csv_file("k.csv", H + "blip,1,0,5,,,,\n")), I,
             "unknown kind"),
            ("CSV task", timeline(self.csv_file("p.csv", H + "span,1,0,5,stopped,busy,,x\n")), I,
             "task"),
            ("CSV overlapping spans", timeline(self.csv_file("o.csv", H +
                                                             "span,1,0,5,stopped,idle,,0\n"
                                                             "span,1,4,9,stopped,idle,,0\n")),
             I, ":3: CPU 1's span starts at 4 ns, before its previous one ends"),
            ("CSV not UTF-8", timeline(self.csv_file("u.csv", H.encode() + b"span,1,0,5,\xff\n")),
             I, ":2: not UTF-8"),
            ("CSV not CSV", timeline(self.csv_file("q.csv", H + 'span,1,0,5,"stopped"x",idle,,0\n'
                                                   'span,1,"5\n')), I, "CSV|fields"),
            ("CSV window row not first", timeline(self.csv_file("w1.csv", H + S + W)), I,
             ":3: a window row that is not the first row"),
            ("CSV two window rows", timeline(self.csv_file("w2.csv", H + W + W)), I,
             ":3: a window row that is not the first row"),
            ("CSV window id", timeline(self.csv_file("wi.csv", H + W.replace("0123456789abcdef",
                                                                             "0123456789ABCDEF"))),
             I, ":2: window id '0123456789ABCDEF' is not 16 hex digits"),
            ("CSV window CPUs", timeline(self.csv_file("wc.csv", H + W.replace(",1-3,", ",1-x,"))),
             I, "cpu '1-x' is not a CPU list"),
            ("CSV window CPUs backwards", timeline(self.csv_file("wb.csv", H + W.replace(
                ",1-3,", ",3-1,"))), I, "cpu '3-1' is not a CPU list"),
            ("CSV window backwards", timeline(self.csv_file("wt.csv", H + W.replace(
                "1000,2000", "2000,1000"))), I, "the window ends before it starts"),
            ("CSV window with a state", timeline(self.csv_file("ws.csv", H + W.replace(
                ",,,", ",stopped,,"))), I, "a window row with a tick, idle or task field"),
            ("CSV row of a CPU the window does not name", timeline(self.csv_file(
                "wn.csv", H + W + S.replace("span,1,", "span,4,"))), I,
             r":3: a row of CPU 4, which the window row does not name \(1-3\)"),
            ("CSV row past the window", timeline(self.csv_file("wp.csv", H + W + S.replace(
                ",0,5,", ",0,1001,"))), I, ":3: a row ending at 1001 ns, past the window's 1000 ns"),
            ("JSON window id", reasons(self.json_file("wi.json", lambda r: r["window"].update(
                id="0123"))), I, "window.id: '0123' is not 16 hex digits"),
            ("unknown CPU", ["summary", "--json", self.json_file("u7.json", lambda r: r[
                "cpus"].append(dict(r["cpus"][0], cpu=7))), "--csv", C, "-o", out], I,
             "CPU 7 of the report not in the CSV"),
        ]
        if os.geteuid() != 0:
            ro = d / "ro"
            ro.mkdir(mode=0o555)
            cases.append(("read-only directory", ["reasons", "--json", J, "-o", ro / "x.png"], O,
                          "Permission denied"))
            (d / "readonly.png").write_bytes(b"old")
            (d / "readonly.png").chmod(0o444)
            cases.append(("read-only output", ["reasons", "--json", J, "-o", d / "readonly.png"],
                          O, "Permission denied"))
            (d / "unreadable.json").write_text("{}")
            (d / "unreadable.json").chmod(0)
            cases.append(("unreadable JSON", reasons(d / "unreadable.json"), I,
                          "Permission denied"))
        return cases

    def test_errors_are_one_line(self):
        for name, argv, status, pattern in self.cases():
            with self.subTest(name):
                rc, err = run(argv)
                self.assertEqual(rc, status, err)
                self.assertEqual(err.count("\n"), 1, err)
                self.assertTrue(err.startswith("tickplot: "), err)
                self.assertRegex(err, pattern)
                self.assertNotIn("Traceback", err)
                self.assertFalse((self.d / "out.png").exists())
            (self.d / "out.png").unlink(missing_ok=True)
        self.assertTrue((self.d / "full.png").is_symlink())
        self.assertEqual([p.name for p in self.d.glob(".*")], [])      # no temporary left

    def test_unwritable_output_from_the_command(self):
        """The issue's case, as a user runs it: one line, exit 3."""
        p = subprocess.run(["/usr/bin/python3", str(SCRIPT), "reasons", "--json",
                            str(FIX / "demo.json"), "-o", "/proc/tickplot-test.png"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, tickplot.EXIT_OUTPUT)
        self.assertEqual(p.stderr, "tickplot: /proc/tickplot-test.png: No such file or "
                                   "directory\n")

    def test_missing_matplotlib(self):
        p = subprocess.run(["/usr/bin/python3", "-c",
                            "import runpy, sys; sys.modules['matplotlib'] = None; "
                            "sys.argv = ['tickplot', '--help']; "
                            f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr, r"^tickplot: .*matplotlib.*\n$")

    def test_no_traceback_for_any_field(self):
        """demo.json with each field of the report, the window, the source, a
        CPU, a reason, a bucket and a co-runner removed or replaced by a value
        of another type: refused with an InputError, or drawn.  Never another
        exception.  The mutations that are accepted are drawn together, one
        report per kind of value (drawing each alone takes minutes)."""
        base = json.loads((FIX / "demo.json").read_text())
        paths = [lambda r: r, lambda r: r["window"], lambda r: r["source"],
                 lambda r: r["cpus"][1], lambda r: r["cpus"][1]["reasons"][0],
                 lambda r: r["cpus"][1]["stopped_intervals"],
                 lambda r: r["cpus"][1]["stopped_intervals"]["log2_histogram"][0],
                 lambda r: r["cpus"][1]["co_runners"][0]]
        values = [KeyError, None, "x", -1, 1.5, 2**70, [], {}, True, float("nan")]

        def mutate(report, path, key, value):
            if value is KeyError:
                del path(report)[key]
            else:
                path(report)[key] = value

        accepted = {i: [] for i in range(len(values))}
        tried = refused = 0
        for path in paths:
            for key in list(path(base)):
                for i, value in enumerate(values):
                    report = json.loads(json.dumps(base))
                    mutate(report, path, key, value)
                    tried += 1
                    try:
                        tickplot.check_report(report, Path("mutated.json"))
                        accepted[i].append((path, key))
                    except tickplot.InputError:
                        refused += 1
        self.assertGreater(refused, 150)
        for i, muts in accepted.items():
            report = json.loads(json.dumps(base))
            for path, key in reversed(muts):        # the inner objects first
                mutate(report, path, key, values[i])
            with self.subTest(value=values[i], keys=[k for _, k in muts]):
                tickplot.check_report(report, Path("mutated.json"))
                fig = plt.figure()
                tickplot.draw_reasons(fig.add_subplot(1, 2, 1), report)
                tickplot.draw_durations(fig.add_subplot(1, 2, 2), report)
                tickplot.co_runner_names(report)
                tickplot.draw_compare(plt.figure(), report, base, ("a", "b"))
                plt.close("all")

    def test_text_from_the_data_drawn_as_it_is(self):
        """A kernel, task or reason name with "$...$" is text, not mathematics:
        matplotlib would fail on an unknown command and print a traceback."""
        report = json.loads((FIX / "demo.json").read_text())
        report["source"]["kernel"] = r"6.1 $\foo$"
        report["cpus"][1]["co_runners"][0]["comm"] = r"$\bar$"
        report["cpus"][1]["reasons"][0]["reason"] = r"$\baz$"
        path = self.d / "dollar.json"
        path.write_text(json.dumps(report))
        for argv in (["summary", "--json", path, "--csv", FIX / "demo.csv"],
                     ["compare", path, path, "--labels", r"$\x$,b"]):
            rc, err = run(argv + ["-o", self.d / "dollar.svg"])
            self.assertEqual((rc, without_notes(err)), (0, ""))
            self.assertIn("$\\foo$" if argv[0] == "summary" else "$\\x$",
                          (self.d / "dollar.svg").read_text())


class OutputTest(unittest.TestCase):
    def test_replaced_whole_or_not_at_all(self):
        """An existing picture is replaced by a rename (a reader never sees half
        of one), keeps its mode; a new one gets the umask's; a symlink to a
        device is written through, not replaced."""
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "r.png"
            out.write_bytes(b"old")
            out.chmod(0o640)
            inode = out.stat().st_ino
            rc, err = run(["reasons", "--json", FIX / "demo.json", "-o", out])
            self.assertEqual((rc, err), (0, ""))
            self.assertNotEqual(out.stat().st_ino, inode)
            self.assertEqual(stat.S_IMODE(out.stat().st_mode), 0o640)
            self.assertEqual(out.read_bytes()[:4], b"\x89PNG")
            umask = os.umask(0o022)
            try:
                new = Path(d) / "new.svg"
                self.assertEqual(run(["reasons", "--json", FIX / "demo.json", "-o", new])[0], 0)
                self.assertEqual(stat.S_IMODE(new.stat().st_mode), 0o644)
            finally:
                os.umask(umask)
            os.symlink(private_device(Path(d) / "null", 3), Path(d) / "null.png")
            self.assertEqual(run(["reasons", "--json", FIX / "demo.json", "-o",
                                  Path(d) / "null.png"]), (0, ""))
            self.assertTrue((Path(d) / "null.png").is_symlink())
            self.assertEqual(sorted(p.name for p in Path(d).iterdir()),
                             ["new.svg", "null", "null.png", "r.png"])
            self.assertTrue(stat.S_ISCHR((Path(d) / "null").stat().st_mode))

    def test_help(self):
        """--help of tickplot and of each picture prints its usage, exit 0."""
        for argv in (["--help"], *([name, "--help"] for name in
                                   ("timeline", "reasons", "durations", "summary", "compare"))):
            out = io.StringIO()
            with contextlib.redirect_stdout(out), self.assertRaises(SystemExit) as e:
                tickplot.main(argv)
            self.assertEqual(e.exception.code, 0, argv)
            self.assertIn("usage: tickplot", out.getvalue())

    def test_cli_writes_png_and_svg(self):
        with tempfile.TemporaryDirectory() as d:
            for ext in ("png", "svg"):
                out = Path(d) / f"summary.{ext}"
                with contextlib.redirect_stderr(io.StringIO()):     # demo's note
                    rc = tickplot.main(["summary", "--json", str(FIX / "demo.json"), "--csv",
                                        str(FIX / "demo.csv"), "-o", str(out)])
                self.assertEqual(rc, 0)
                self.assertGreater(out.stat().st_size, 10000)
            rc = tickplot.main(["compare", str(FIX / "demo.json"), str(FIX / "demo.json"),
                                "-o", str(Path(d) / "c.png")])
            self.assertEqual(rc, 0)


class ManPageTest(unittest.TestCase):
    """tickplot.1 says what tickplot --help says: each picture, each option,
    each exit status; it renders without a warning."""

    def setUp(self):
        self.man = (HERE.parent / "man" / "tickplot.1").read_text()
        self.doc = (TOP / "docs" / "tickplot.md").read_text()

    def test_every_picture_and_option(self):
        parser = tickplot.make_parser()
        sub = next(a for a in parser._actions if a.dest == "cmd")
        for name, p in sub.choices.items():
            self.assertIn(f".B {name} ", self.man)
            for action in p._actions:
                for opt in action.option_strings:
                    if opt in ("-h", "--help"):
                        continue
                    want = opt.replace("-", "\\-")
                    self.assertRegex(self.man, rf"{re.escape(want)}\b", f"{name} {opt}")
                    self.assertIn(opt, self.doc, f"docs/tickplot.md: {name} {opt}")

    def test_exit_statuses(self):
        section = self.man.split(".SH EXIT STATUS", 1)[1].split(".SH", 1)[0]
        self.assertEqual(set(re.findall(r"^\.B (\d+)$", section, re.M)),
                         {"0", str(tickplot.EXIT_INPUT), str(tickplot.EXIT_USAGE),
                          str(tickplot.EXIT_OUTPUT)})
        self.assertIn(f"{tickplot.WINDOW_TOLERANCE:.0%}", self.man)
        self.assertIn(f"{tickplot.WINDOW_TOLERANCE:.0%}", self.doc)

    def test_renders_without_warnings(self):
        if not shutil.which("groff"):
            self.skipTest("no groff")
        p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z",
                            str(HERE.parent / "man" / "tickplot.1")],
                           capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""))


if __name__ == "__main__":
    unittest.main()
