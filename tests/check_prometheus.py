#!/usr/bin/python3
"""check_prometheus.py - judge tests/guest/prometheus.test through Prometheus's HTTP API.

usage: check_prometheus.py PROMETHEUS_URL OUTDIR TICKSTAT

Takes the first and the last scrape inside the guest's recording (each
scrape carries tickstat_monitor_clock_seconds, the guest's CLOCK_MONOTONIC
its counters are charged up to), asks PromQL for CPU 2's SCHED seconds
between the two, and compares them with tickstat's report of the recording
over exactly that span: within 5%.  Also: the scrapes succeeded, the SCHED
alert of docs/prometheus/tickstat.rules.yml went pending for CPU 2, nothing was
lost.  Failures are printed last.
"""
import json
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

failures: list[str] = []


def expect(what: str, ok: bool, seen) -> None:
    if not ok:
        failures.append(f"{what}: saw {seen}")


def query(base: str, promql: str, at: float | None = None) -> list:
    args = {"query": promql}
    if at is not None:
        args["time"] = f"{at:.3f}"
    url = f"{base}/api/v1/query?{urllib.parse.urlencode(args)}"
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            body = json.load(r)
    except urllib.error.HTTPError as e:
        raise SystemExit(f"FAIL: {promql}: HTTP {e.code}: {e.read().decode(errors='replace')}")
    if body.get("status") != "success":
        raise SystemExit(f"FAIL: {promql}: {body}")
    return body["data"]["result"]


def report(tickstat: str, rec: Path, *args: str) -> dict:
    res = subprocess.run([tickstat, "report", "--json", *args, str(rec)], capture_output=True,
                         text=True)
    if res.returncode:
        raise SystemExit(f"FAIL: tickstat report {' '.join(args)}: {res.stderr.strip()}")
    return json.loads(res.stdout)


def sched_ns(rep: dict, cpu: int) -> int:
    for c in rep["cpus"]:
        if c["cpu"] == cpu:
            return sum(r["time_ns"] for r in c["reasons"] if r["reason"] == "SCHED")
    raise SystemExit(f"FAIL: CPU {cpu} missing from the report")


def main() -> int:
    base, out, tickstat = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
    files = out / "files"
    rc = dict(line.strip().split("=") for line in open(files / "rc.txt"))
    expect("the recording ended with status 0", rc.get("record") == "0", rc.get("record"))
    expect("the monitor ended with status 0 after SIGTERM", rc.get("monitor") == "0",
           rc.get("monitor"))
    rec = files / "rec.dat"
    whole = report(tickstat, rec)
    start_ns, end_ns = whole["window"]["start_ns"], whole["window"]["end_ns"]

    ups = query(base, 'up{job="tickstat"}[1h]')
    up_values = [float(v) for _, v in ups[0]["values"]] if ups else []
    expect("at least 10 successful scrapes", sum(up_values) >= 10, up_values)
    clock = query(base, "tickstat_monitor_clock_seconds[1h]")
    if not clock:
        failures.append("no tickstat_monitor_clock_seconds in Prometheus")
        return finish()
    samples = [(float(t), round(float(v) * 1e9)) for t, v in clock[0]["values"]]
    inside = [(t, mono) for t, mono in samples if start_ns <= mono <= end_ns]
    if len(inside) < 2:
        failures.append(f"fewer than 2 scrapes inside the recording {start_ns}..{end_ns}: "
                        f"{samples}")
        return finish()
    (t_a, mono_a), (t_b, mono_b) = inside[0], inside[-1]
    offset_ms = round((t_b - t_a) * 1000)
    sched = 'tickstat_reason_seconds_total{cpu="2",reason="SCHED"}'
    # a reason's series appears with its first second: absent before is 0
    promql = f"sum({sched}) - (sum({sched} offset {offset_ms}ms) or vector(0))"
    result = query(base, promql, t_b)
    span = query(base, f"tickstat_monitor_clock_seconds - tickstat_monitor_clock_seconds "
                       f"offset {offset_ms}ms", t_b)
    expect("PromQL's span is the two scrapes' span",
           span and abs(float(span[0]["value"][1]) * 1e9 - (mono_b - mono_a)) < 1000, span)
    want = sched_ns(report(tickstat, rec, "--time-range", f"{mono_a},{mono_b}"), 2)
    got = float(result[0]["value"][1]) * 1e9 if result else None
    print(f"{promql} at {t_b:.3f}: {got / 1e9 if got is not None else None} s; tickstat report "
          f"--time-range {mono_a},{mono_b}: {want / 1e9:.6f} s")
    expect("the report's SCHED seconds on CPU 2 cover the 6 s of two tasks (>= 4 s)",
           want >= 4e9, want / 1e9)
    expect(f"PromQL's SCHED seconds within 5% of the report's {want / 1e9:.6f} s",
           got is not None and abs(got - want) <= 0.05 * want, got)

    # the rule matched: pending (its for: is 5 minutes, the run 6 s of two tasks)
    alerts = query(base, 'ALERTS{alertname="TickstatReasonOnIsolatedCpu",cpu="2",'
                         'reason="SCHED",alertstate=~"pending|firing"}[1h]')
    expect("TickstatReasonOnIsolatedCpu pending for SCHED on CPU 2", bool(alerts), alerts)
    lost = query(base, 'ALERTS{alertname="TickstatLostEvents"}[1h]')
    expect("TickstatLostEvents never fired", not lost, lost)
    return finish()


def finish() -> int:
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
