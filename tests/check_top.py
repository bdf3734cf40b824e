#!/usr/bin/python3
"""check_top.py - judge the results of tests/scenarios/top.sh (tickstat top).

usage: check_top.py OUTDIR

OUTDIR is the runner's --out folder.  The screens are the bytes tickstat top
wrote to a pseudo-terminal (ptyrun): each frame starts at ESC[H; FILE.marks
says when each key and resize came and how many bytes had come before.
Every assertion prints what it expected and what it saw.
"""
import re
import sys
from dataclasses import dataclass
from pathlib import Path

failures: list[str] = []
WATCHED = [1, 2, 3]            # the guest's nohz_full CPUs
HIDDEN = re.compile(r"^\((\d+) more CPUs? not shown: too few rows; the worst are above\)$")
ROW = re.compile(r"^\s*(\d+)\s+(stopped|running|unknown|offline)\s+(\S+)\s+(\S+)\s+(\d+\+?)\s\s(.*)$")
UP = re.compile(r"\bup (\d+\.\d) s\b")


def expect(what: str, ok: bool, seen) -> None:
    if not ok:
        failures.append(f"{what}: saw {seen!r}")


@dataclass
class Frame:
    offset: int                # where it starts in the screen's bytes
    lines: list[str]


@dataclass
class Row:
    cpu: int
    tick: str
    rate: float | None
    tickless: float | None
    lost: str
    rest: str


def num(text: str) -> float | None:
    return None if text == "-" else float(text)


def rows(lines: list[str]) -> list[Row]:
    out = []
    for line in lines[2:]:
        m = ROW.match(line)
        if m:
            out.append(Row(int(m[1]), m[2], num(m[3]), num(m[4]), m[5], m[6]))
    return out


def frames(data: bytes) -> list[Frame]:
    """Each frame drawn in place: from ESC[H (not the clearing at the start),
    its lines apart by CR LF."""
    out = []
    for m in re.finditer(rb"\x1b\[H(?!\x1b\[2J)(.*?)(?=\x1b\[H|\Z)", data, re.S):
        body = m[1].split(b"\x1b[J")[0]
        text = body.decode("utf-8", "replace").replace("\x1b[K", "")
        out.append(Frame(m.start(), text.split("\r\n")))
    return out


def marks(path: Path) -> tuple[dict[str, tuple[float, int]], int | None]:
    """ACTION -> (seconds, byte offset), and the command's exit status."""
    acts, status = {}, None
    for line in path.read_text().splitlines():
        f = line.split()
        if f[0] == "exit":
            status = int(f[1])
        else:
            acts[f[1]] = (float(f[0]), int(f[2]))
    return acts, status


def rc_of(files: Path) -> dict[str, str]:
    return dict(l.split("=", 1) for l in (files / "rc.txt").read_text().split())


def check_frame(name: str, fr: Frame, rows_max: int, cols: int) -> None:
    expect(f"{name}: at most {rows_max} lines", len(fr.lines) <= rows_max, len(fr.lines))
    for line in fr.lines:
        expect(f"{name}: no line wider than {cols} columns", len(line) <= cols, line)
        expect(f"{name}: no escape left in a line", "\x1b" not in line, line)


def screen(files: Path, name: str) -> tuple[bytes, list[Frame], dict, int | None]:
    data = (files / f"{name}.screen").read_bytes()
    acts, status = marks(files / f"{name}.screen.marks")
    expect(f"{name}: tickstat top exits 0", status == 0, status)
    expect(f"{name}: nothing on stderr", not (files / f"{name}.err").read_text().strip(),
           (files / f"{name}.err").read_text()[:300])
    expect(f"{name}: the screen is cleared and the cursor hidden first",
           data.startswith(b"\x1b[H\x1b[2J\x1b[?25l"), data[:20])
    expect(f"{name}: the last frame stays, the cursor below it and shown at the end",
           data.endswith(b"\x1b[J\r\n\x1b[?25h"), data[-20:])
    return data, frames(data), acts, status


def full_frames(frs: list[Frame]) -> list[Frame]:
    """Frames with numbers (not the first, which says when they come)."""
    return [f for f in frs if len(f.lines) > 2 and rows(f.lines)]


def check_tty(files: Path) -> None:
    _, frs, acts, _ = screen(files, "tty")
    for i, fr in enumerate(frs):
        check_frame(f"tty frame {i}", fr, 24, 100)
    expect("tty: the first frame says when the numbers come",
           bool(frs) and "the first numbers come in 1 s" in frs[0].lines[0], frs[:1])
    q = acts.get("k:q", (0, 0))[1]
    done = [f for f in full_frames(frs) if f.offset < q]
    expect("tty: at least 3 refreshes in 6.5 s", len(done) >= 3, len(done))
    if not done:
        return
    last = done[-1]
    expect("tty: the title names the CPUs, the interval and q",
           "CPUs 1-3" in last.lines[0] and "every 1 s" in last.lines[0] and "q quits" in last.lines[0],
           last.lines[0])
    expect("tty: the header", last.lines[1].split()[:4] == ["CPU", "TICK", "TICKS/S", "TICKLESS"],
           last.lines[1])
    rs = rows(last.lines)
    expect("tty: every watched CPU, in CPU order", [r.cpu for r in rs] == WATCHED,
           [r.cpu for r in rs])
    expect("tty: no hidden line when all fit", not any(HIDDEN.match(l) for l in last.lines),
           last.lines)
    ups = [float(UP.search(f.lines[0])[1]) for f in done]
    expect("tty: the elapsed time grows a second a refresh",
           all(0.5 <= b - a <= 2.5 for a, b in zip(ups, ups[1:])), ups)
    by = {r.cpu: r for r in rs}
    if set(by) != set(WATCHED):
        return
    for fr in done[1:]:
        one = {r.cpu: r for r in rows(fr.lines)}
        lone, two = one.get(1), one.get(2)
        expect("tty: the lone task's CPU 1 is stopped, tickless near 1.0, no ticks",
               lone and lone.tick == "stopped" and (lone.tickless or 0) >= 0.95
               and (lone.rate or 0) <= 5, lone)
        expect("tty: the two tasks' CPU 2 runs its tick for SCHED, tickless near 0",
               two and two.tick == "running" and two.tickless is not None and two.tickless <= 0.1
               and (two.rate or 0) >= 50 and two.rest.startswith("SCHED"), two)
        expect("tty: no lost events", all(r.lost == "0" for r in one.values()), fr.lines)


def check_small(files: Path) -> None:
    _, frs, acts, _ = screen(files, "small")
    q = acts.get("k:q", (0, 0))[1]
    done = [f for f in full_frames(frs) if f.offset < q]
    expect("small: at least 2 refreshes in 6 s", len(done) >= 2, len(done))
    for i, fr in enumerate(frs):
        check_frame(f"small frame {i}", fr, 4, 60)
    for fr in done:
        rs = rows(fr.lines)
        expect("small: one CPU fits, the worst: CPU 2 (SCHED)",
               [r.cpu for r in rs] == [2], fr.lines)
        expect("small: the header cut at 60 columns", len(fr.lines) > 1 and len(fr.lines[1]) == 60,
               fr.lines[1:2])
        last = fr.lines[3] if len(fr.lines) == 4 else ""
        expect("small: the last line says 2 CPUs are hidden (cut at 60 columns)",
               last.startswith("(2 more CPUs not shown: too few rows; th"), fr.lines)


def check_resize(files: Path) -> None:
    _, frs, acts, _ = screen(files, "resize")
    at, after = acts.get("r:4x100", (0, 0))[1], acts.get("m:", (0, 0))[1]
    before = [f for f in full_frames(frs) if f.offset < at]
    redrawn = [f for f in frs if at <= f.offset < after]
    expect("resize: a refresh before the resize (at 5 s)", len(before) >= 1, len(before))
    expect("resize: redrawn within 0.8 s of the resize, before the next refresh",
           len(redrawn) >= 1, len(redrawn))
    for i, fr in enumerate(f for f in frs if f.offset >= at):
        check_frame(f"resize: frame {i} after the resize", fr, 4, 100)
    if before and redrawn:
        fr = redrawn[0]
        expect("resize: the redrawn frame has 4 rows, the worst CPU and the hidden line",
               len(fr.lines) == 4 and [r.cpu for r in rows(fr.lines)] == [2]
               and HIDDEN.match(fr.lines[3]) is not None, fr.lines)
        up0, up1 = UP.search(before[-1].lines[0]), UP.search(fr.lines[0])
        expect("resize: the same numbers redrawn (not a new refresh)",
               up0 and up1 and up0[1] == up1[1], (before[-1].lines[0], fr.lines[0]))


def blocks(text: str) -> list[list[str]]:
    return [b.splitlines() for b in text.split("\n\n") if b.strip()]


def check_plain(files: Path) -> None:
    for name, cpus, lo, hi in (("plain", WATCHED, 3, 4), ("plain-c2", [2], 2, 3)):
        raw = (files / f"{name}.txt").read_bytes()
        expect(f"{name}: no escape in plain mode", b"\x1b" not in raw and b"\r" not in raw,
               raw[:80])
        expect(f"{name}: nothing on stderr", not (files / f"{name}.err").read_text().strip(),
               (files / f"{name}.err").read_text()[:300])
        text = raw.decode("utf-8", "replace")
        bs = blocks(text)
        expect(f"{name}: one block per refresh, the last at the duration ({lo}..{hi})",
               lo <= len(bs) <= hi, len(bs))
        expect(f"{name}: blocks apart by one empty line", "\n\n\n" not in text and text.endswith("\n"),
               text[-40:])
        for b in bs:
            expect(f"{name}: a block is a title, a header and CPUs {cpus}",
                   b[0].startswith("tickstat top  CPUs ") and "q quits" not in b[0]
                   and [r.cpu for r in rows(b)] == cpus and len(b) == 2 + len(cpus), b)
        if name == "plain" and bs:
            one = {r.cpu: r for r in rows(bs[1] if len(bs) > 1 else bs[0])}
            expect("plain: CPU 2 shown with SCHED", 2 in one and one[2].rest.startswith("SCHED"),
                   one.get(2))


def check_state_and_codes(files: Path) -> None:
    def norm(p: str) -> str:
        return "".join(l.split(" (expanded")[0] + "\n" for l in (files / p).read_text().splitlines())

    rc = rc_of(files)
    want = {"devpts": "0", "tty-ptyrun": "0", "intr-ptyrun": "0", "small-ptyrun": "0",
            "resize-ptyrun": "0", "plain": "0", "plain-c2": "0", "bad-option": "1",
            "bad-interval": "1", "bad-cpu": "1"}
    for k, v in want.items():
        expect(f"exit status of {k} is {v}", rc.get(k) == v, rc.get(k))
    _, status = marks(files / "intr.screen.marks")
    expect("Ctrl-C: tickstat top exits 0", status == 0, status)
    for name, pattern in (("err-option", "not an option of 'tickstat top'"),
                          ("err-interval", "is not a duration from 100ms to 1d"),
                          ("err-cpu", "CPU 9")):
        text = (files / f"{name}.txt").read_text()
        expect(f"{name}: one line saying why", pattern in text and text.count("\n") == 1, text)
    before = norm("state-before.txt")
    for after in ("q", "intr", "small", "resize", "plain", ""):
        p = f"state-after-{after}.txt" if after else "state-after.txt"
        expect(f"the tracing state after {p[12:-4] or 'all'} equals the state before",
               norm(p) == before, norm(p))


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    files = Path(sys.argv[1]) / "files"
    check_state_and_codes(files)
    check_tty(files)
    check_small(files)
    check_resize(files)
    check_plain(files)
    for f in failures:
        print("  FAIL: " + f, file=sys.stderr)
    if failures:
        print(f"tickstat top: {len(failures)} assertion(s) failed", file=sys.stderr)
        return 1
    print("tickstat top: terminal, q, Ctrl-C, too few rows, resize, plain mode, tracing state")
    return 0


if __name__ == "__main__":
    sys.exit(main())
