"""Tests of tickplot: render from committed fixtures and check what was drawn.

The fixtures (tests/fixtures/demo.json, demo.csv) come from a guest run of
make demo: a lone task on CPU 1, two tasks on CPU 2, a POSIX CPU timer on
CPU 3.  Each test reads the drawn artists back by their gid.
"""
import contextlib
import csv
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import matplotlib.pyplot as plt  # noqa: E402

import tickplot  # noqa: E402

FIX = HERE.parents[2] / "tests" / "fixtures"


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


class CliTest(unittest.TestCase):
    def test_help(self):
        """--help of tickplot and of each picture prints its usage, exit 0."""
        for argv in (["--help"], *([name, "--help"] for name in
                                   ("timeline", "reasons", "durations", "summary", "compare"))):
            out = io.StringIO()
            with contextlib.redirect_stdout(out), self.assertRaises(SystemExit) as e:
                tickplot.main(argv)
            self.assertEqual(e.exception.code, 0, argv)
            self.assertIn("usage: tickplot", out.getvalue())

    def test_bad_input(self):
        with tempfile.TemporaryDirectory() as d:
            bad = Path(d) / "bad.json"
            bad.write_text('{"schema": "tickstat-report/9", "cpus": []}')
            with self.assertRaises(tickplot.InputError) as e:
                tickplot.load_json(bad)
            self.assertIn("tickstat-report/9", str(e.exception))
            bad.write_text("{not json")
            with self.assertRaises(tickplot.InputError):
                tickplot.load_json(bad)
            csvf = Path(d) / "bad.csv"
            csvf.write_text("kind,cpu\nspan,1\n")
            with self.assertRaises(tickplot.InputError):
                tickplot.load_csv(csvf)
            self.assertEqual(tickplot.main(["reasons", "--json", str(Path(d) / "none.json"),
                                            "-o", str(Path(d) / "x.png")]), 1)
            self.assertEqual(tickplot.main(["reasons", "--json", str(FIX / "demo.json"),
                                            "-o", str(Path(d) / "x.pdf")]), 1)


if __name__ == "__main__":
    unittest.main()
