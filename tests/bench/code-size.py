#!/usr/bin/python3
"""code-size - what the series adds to the kernel's text, stock against patched,
from the objects of the same config (make kernel).

usage: tests/bench/code-size.py [--markdown] STOCK_OBJ PATCHED_OBJ
       (build/kernel/obj/stock-nohz_full, build/kernel/obj/patched-nohz_full)

Prints the size in bytes of every function of kernel/time/tick-sched.o that
differs, of the scheduler functions the series changes, the text and data
of vmlinux (size(1)), and the size of struct tick_sched (the per-CPU
tick_cpu_sched).
"""
import argparse
import subprocess
import sys
from pathlib import Path

SCHED = ("sched_can_stop_tick", "sched_tick_dependency", "activate_task", "deactivate_task",
         "enqueue_task_fair", "dequeue_task_fair", "ttwu_do_activate")


def symbols(path: Path) -> dict[str, int]:
    """Function (text) symbols and their sizes; a static function that the
    compiler copied keeps its .isra/.constprop suffix."""
    out = subprocess.run(["nm", "--size-sort", "-S", str(path)], capture_output=True, text=True,
                         check=True).stdout
    sizes: dict[str, int] = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            sizes[parts[3]] = sizes.get(parts[3], 0) + int(parts[1], 16)
    return sizes


def data_size(vmlinux: Path, name: str) -> int:
    out = subprocess.run(["nm", "-S", str(vmlinux)], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] == name:
            return int(parts[1], 16)
    raise SystemExit(f"code-size: {name} not in {vmlinux}")


def berkeley(vmlinux: Path) -> tuple[int, int]:
    """text and data of size(1): the .text section alone ends in padding."""
    out = subprocess.run(["size", str(vmlinux)], capture_output=True, text=True,
                         check=True).stdout.splitlines()[1].split()
    return int(out[0]), int(out[1])


def rows(stock: Path, patched: Path) -> list[tuple[str, int | None, int | None]]:
    out = []
    a, b = symbols(stock / "kernel/time/tick-sched.o"), symbols(patched / "kernel/time/tick-sched.o")
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            out.append((f"tick-sched.o {name}", a.get(name), b.get(name)))
    out.append(("tick-sched.o all functions", sum(a.values()), sum(b.values())))
    a, b = symbols(stock / "kernel/sched/core.o"), symbols(patched / "kernel/sched/core.o")
    fa, fb = symbols(stock / "kernel/sched/fair.o"), symbols(patched / "kernel/sched/fair.o")
    a.update(fa)
    b.update(fb)
    for name in SCHED:
        if name in a or name in b:
            out.append((f"sched {name}", a.get(name), b.get(name)))
    (ta, da), (tb, db) = berkeley(stock / "vmlinux"), berkeley(patched / "vmlinux")
    out.append(("vmlinux text (size)", ta, tb))
    out.append(("vmlinux data (size)", da, db))
    out.append(("struct tick_sched (per CPU)", data_size(stock / "vmlinux", "tick_cpu_sched"),
                data_size(patched / "vmlinux", "tick_cpu_sched")))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--markdown", action="store_true")
    p.add_argument("stock", type=Path)
    p.add_argument("patched", type=Path)
    opts = p.parse_args()
    table = rows(opts.stock, opts.patched)
    fmt = (lambda v: "-" if v is None else str(v))
    if opts.markdown:
        print("| bytes | stock | patched | change |\n|---|---:|---:|---:|")
    for what, a, b in table:
        change = "" if a is None or b is None else f"{b - a:+d}"
        if opts.markdown:
            print(f"| {what} | {fmt(a)} | {fmt(b)} | {change} |")
        else:
            print(f"{what:<52} {fmt(a):>9} {fmt(b):>9} {change:>7}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
