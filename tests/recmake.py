"""recmake.py - a small tickstat recording made from a list of events, for host tests.

The committed fixtures are guest captures of a kernel whose recordings
predate some of what tickstat now writes (the causes' events, the doctor
marks).  This writes a version 6 trace.dat (trace-cmd.dat.v6(5)) as
tickstat record does: the formats and ring-buffer headers of patched.dat
(the guest's 6.1), the causes' formats as the kernel writes them, a
kallsyms of the functions named, tickstat's marks on CPU 0 (start, the
caller's extra start marks, initial, ready, then end, pages, done with the
page counts and sums its reader checks: fletcher128, or CRC-32 as a tickstat
before it) and each CPU's events in pages.
"""
import struct
import zlib
from pathlib import Path

import pagesum
from datfix import MAGIC

PAGE = 4096
LONG = 8

COMMON = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")
IRQ_ENTRY, WORK_START, HRTIMER_EXIT = 900, 901, 902
EXTRA_FORMATS = [
    ("irq", "name: irq_handler_entry\nID: %d\nformat:\n" % IRQ_ENTRY + COMMON +
     "\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
     "\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n\n"
     "print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n"),
    ("workqueue", "name: workqueue_execute_start\nID: %d\nformat:\n" % WORK_START + COMMON +
     "\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
     "\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n\n"
     "print fmt: \"work struct %p: function %ps\", REC->work, REC->function\n"),
    ("timer", "name: hrtimer_expire_exit\nID: %d\nformat:\n" % HRTIMER_EXIT + COMMON +
     "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n\n"
     "print fmt: \"hrtimer=%p\", REC->hrtimer\n"),
]


# the guest kernels' own formats of the causes' events (tests/fixtures/formats/README.md)
FORMATS = Path(__file__).resolve().parent / "fixtures/formats"
VECTORS = ("local_timer", "reschedule", "call_function", "call_function_single", "irq_work",
           "x86_platform_ipi", "spurious_apic", "error_apic", "thermal_apic", "threshold_apic",
           "deferred_error_apic")
FIRST_REAL_ID = 1000


def real_format(version: str, system: str, name: str, eid: int) -> str:
    """A guest's format of system:name, as it wrote it, under another id: the
    base fixture's ids are another boot's and would collide."""
    text = (FORMATS / version / system / name).read_text()
    lines = text.split("\n")
    assert lines[1].startswith("ID: ")
    lines[1] = "ID: %d" % eid
    return "\n".join(lines)


def _sized(b: bytes, p: int, size: int) -> tuple[bytes, int]:
    n = int.from_bytes(b[p:p + size], "little")
    return bytes(b[p + size:p + size + n]), p + size + n


def base_parts(fixture: bytes) -> dict:
    """header_page, header_event and the formats ((system, text)) of a v6 file."""
    assert fixture[:10] == MAGIC
    p = 18
    parts = {}
    for tag in (b"header_page\0", b"header_event\0"):
        p += len(tag)
        parts[tag[:-1].decode()], p = _sized(fixture, p, 8)
    formats = []
    n = struct.unpack_from("<I", fixture, p)[0]
    p += 4
    for _ in range(n):
        text, p = _sized(fixture, p, 8)
        formats.append(("ftrace", text))
    systems = struct.unpack_from("<I", fixture, p)[0]
    p += 4
    for _ in range(systems):
        end = fixture.index(b"\0", p)
        system = fixture[p:end].decode()
        p = end + 1
        n = struct.unpack_from("<I", fixture, p)[0]
        p += 4
        for _ in range(n):
            text, p = _sized(fixture, p, 8)
            formats.append((system, text))
    parts["formats"] = formats
    return parts


def event_id(formats, name: str) -> int:
    for _, text in formats:
        lines = text.split(b"\n")
        if lines[0] == b"name: " + name.encode():
            return int(lines[1].split()[1])
    raise KeyError(name)


class Pages:
    """One CPU's ring-buffer pages, filled with records in time order."""

    def __init__(self):
        self.pages: list[bytes] = []
        self.cur = bytearray()
        self.base = 0
        self.last = 0

    def _flush(self) -> None:
        if self.cur:
            head = struct.pack("<QQ", self.base, len(self.cur))
            self.pages.append((head + bytes(self.cur)).ljust(PAGE, b"\0"))
        self.cur = bytearray()

    def add(self, ts: int, data: bytes) -> None:
        data = data.ljust((len(data) + 3) // 4 * 4, b"\0")
        need = 8 + len(data) + 8
        if not self.cur or 16 + len(self.cur) + need > PAGE:
            self._flush()
            self.base = ts
            self.last = ts
        delta = ts - self.last
        if delta >= 1 << 27:                      # a time extend carries the high bits
            self.cur += struct.pack("<II", 30 | (delta & ((1 << 27) - 1)) << 5, delta >> 27)
            delta = 0
        if len(data) <= 112:                      # the length in the header's type_len
            self.cur += struct.pack("<I", (len(data) // 4) | delta << 5) + data
        else:                                     # type_len 0: the length in array[0]
            self.cur += struct.pack("<II", delta << 5, len(data) + 4) + data
        self.last = ts

    def close(self) -> list[bytes]:
        self._flush()
        return self.pages


def common(eid: int, pid: int, flags: int = 0) -> bytes:
    """The common fields; flags is common_flags (0x08 hardirq, 0x10 softirq)."""
    return struct.pack("<HBBi", eid, flags, 0, pid)


def used(page: bytes) -> int:
    return 16 + struct.unpack_from("<Q", page, 8)[0] & ((1 << 27) - 1)


class Recording:
    """A tickstat recording: CPUs 0..ncpus-1, marks on CPU 0."""

    def __init__(self, fixture: bytes, ncpus: int):
        self.parts = base_parts(fixture)
        self.formats = self.parts["formats"] + [(s, t.encode()) for s, t in EXTRA_FORMATS]
        self.ncpus = ncpus
        self.events: list[list[tuple[int, bytes]]] = [[] for _ in range(ncpus)]
        self.syms: dict[str, int] = {}
        self.comms: dict[int, str] = {}

    def real_formats(self, version: str, events: list[tuple[str, str]]) -> None:
        """Add the guest's own formats of these events (not those the file has)."""
        have = {text.split(b"\n")[0] for _, text in self.formats}
        for system, name in events:
            if b"name: " + name.encode() in have:
                continue
            eid = FIRST_REAL_ID + len(self.formats)
            self.formats.append((system, real_format(version, system, name, eid).encode()))

    def causes_formats(self, version: str = "6.1", vectors: tuple[str, ...] = VECTORS,
                       arming: bool = True) -> None:
        """The x86 vectors' formats (those named), the timers' and softirqs'; with
        arming, timer_start and hrtimer_start."""
        events = [("irq_vectors", v + x) for v in vectors for x in ("_entry", "_exit")]
        events += [("timer", "timer_expire_entry"), ("timer", "timer_expire_exit"),
                   ("irq", "softirq_entry"), ("irq", "softirq_exit")]
        if arming:
            events += [("timer", "timer_start"), ("timer", "hrtimer_start")]
        self.real_formats(version, events)

    def vector(self, cpu: int, ts: int, kind: str, exit: bool = False, pid: int = 0,
               number: int = 0xfd) -> None:
        """An x86 vector's entry (or exit): irq_vectors:KIND_entry, its vector number."""
        eid = event_id(self.formats, kind + ("_exit" if exit else "_entry"))
        self.events[cpu].append((ts, common(eid, pid, 0x08) + struct.pack("<i", number)))

    def timer_start(self, cpu: int, ts: int, fn: str, timer: int, target: int, pid: int,
                    flags: int = 0) -> None:
        """timer_start on cpu (6.1's layout): timer armed to fire on target
        (TIMER_CPUMASK of its flags; 0x00100000 is TIMER_PINNED, bits 22 up
        the wheel's index); flags are common_flags."""
        data = common(event_id(self.formats, "timer_start"), pid, flags) + \
            struct.pack("<QQQQI", timer, self.sym(fn), 1000, 999, 0x00100000 | 3 << 22 | target)
        self.events[cpu].append((ts, data))

    def hrtimer_start(self, cpu: int, ts: int, fn: str, hrtimer: int, pid: int,
                      flags: int = 0) -> None:
        """hrtimer_start on cpu, where the hrtimer is queued (6.1.192's layout)."""
        data = common(event_id(self.formats, "hrtimer_start"), pid, flags) + \
            struct.pack("<QQqqIB", hrtimer, self.sym(fn), ts + 1000, ts + 1000, 0, 0)
        self.events[cpu].append((ts, data))

    def timer_expire(self, cpu: int, ts: int, fn: str, timer: int, exit: bool = False) -> None:
        """timer_expire_entry (or _exit) of timer, in softirq context."""
        if exit:
            data = common(event_id(self.formats, "timer_expire_exit"), 0, 0x10) + \
                struct.pack("<Q", timer)
        else:
            data = common(event_id(self.formats, "timer_expire_entry"), 0, 0x10) + \
                struct.pack("<QQQQ", timer, 1000, self.sym(fn), 1000)
        self.events[cpu].append((ts, data))

    def hrtimer_at(self, cpu: int, ts: int, fn: str, hrtimer: int, exit: bool = False) -> None:
        """hrtimer_expire_entry (or _exit) of the hrtimer at that address."""
        if exit:
            data = common(HRTIMER_EXIT, 0, 0x08) + struct.pack("<Q", hrtimer)
        else:
            data = common(event_id(self.formats, "hrtimer_expire_entry"), 0, 0x08) + \
                struct.pack("<QqQ", hrtimer, ts, self.sym(fn))
        self.events[cpu].append((ts, data))

    def sym(self, name: str) -> int:
        """The address of a function, in the file's kallsyms."""
        if name not in self.syms:
            self.syms[name] = 0xffffffff81100000 + 0x1000 * len(self.syms)
        return self.syms[name]

    def mark(self, ts: int, text: str) -> None:
        data = common(event_id(self.formats, "print"), 1) + struct.pack("<Q", 0)
        self.events[0].append((ts, data + text.encode() + b"\n\0"))

    def irq(self, cpu: int, ts: int, irq: int, name: str) -> None:
        s = name.encode() + b"\0"
        data = common(IRQ_ENTRY, 0) + struct.pack("<iI", irq, 16 | len(s) << 16) + s
        self.events[cpu].append((ts, data))

    def work(self, cpu: int, ts: int, fn: str, pid: int) -> None:
        data = common(WORK_START, pid) + struct.pack("<QQ", 0xffff888000100000, self.sym(fn))
        self.events[cpu].append((ts, data))

    def hrtimer(self, cpu: int, ts: int, fn: str) -> None:
        data = common(event_id(self.formats, "hrtimer_expire_entry"), 0) + \
            struct.pack("<QqQ", 0xffff888000200000, ts, self.sym(fn))
        self.events[cpu].append((ts, data))

    def hrtimer_exit(self, cpu: int, ts: int, pid: int = 0) -> None:
        """The exit of the hrtimer hrtimer() started (the same address)."""
        data = common(HRTIMER_EXIT, pid) + struct.pack("<Q", 0xffff888000200000)
        self.events[cpu].append((ts, data))

    def switch(self, cpu: int, ts: int, prev: tuple[int, str], nxt: tuple[int, str]) -> None:
        for pid, comm in (prev, nxt):
            if pid:
                self.comms[pid] = comm
        data = common(event_id(self.formats, "sched_switch"), prev[0]) + \
            struct.pack("<16siiq16sii", prev[1].encode(), prev[0], 120, 0 if not prev[0] else 1,
                        nxt[1].encode(), nxt[0], 120)
        self.events[cpu].append((ts, data))

    def write(self, path, start: int, end: int, start_marks: list[str], initial: str,
              monitored: str, causes: str = "work,timer,hrtimer,irq,softirq",
              armers: str | None = None, end_tokens: str = "", page_sum: str = "fletcher128",
              split_start: bool = False, sum_text=None) -> None:
        """The file: marks from start to end around the events, as tickstat writes
        them; armers (the start mark's armers=) None: a tickstat before them;
        end_tokens more of the end mark's (" quota.PID=..."); page_sum the
        pages' sum ("crc32": none named, as a tickstat before them); split_start:
        the start text in two marks, page_sum in the second, as a long one
        comes; sum_text(cpu, text) what the pages mark says instead."""
        cpus = "0-%d" % (self.ncpus - 1)
        self.sym("tick_sched_timer")
        named = "" if page_sum == "crc32" else "page_sum=%s " % page_sum
        starttext = "cpus=%s nohz_full=%s monitored=%s causes=%s%s" % (
            cpus, monitored, monitored, causes, "" if armers is None else " armers=" + armers)
        t = start
        if split_start:
            self.mark(t, "tickstat v1 start: " + starttext)
            self.mark(t + 500, "tickstat v1 start: " + named)
        else:
            self.mark(t, "tickstat v1 start: " + named + starttext)
        for m in start_marks:
            t += 1000
            self.mark(t, "tickstat v1 " + m)
        self.mark(t + 1000, "tickstat v1 initial: " + initial)
        self.mark(t + 2000, "tickstat v1 ready: start_ns=%d snapshot_ns=%d initial=%d"
                  % (start, t + 2000, self.ncpus))
        pages = []
        for cpu in range(self.ncpus):
            p = Pages()
            for ts, data in sorted(self.events[cpu], key=lambda e: e[0]):
                p.add(ts, data)
            pages.append(p.close())
        # the end marks, on a page of their own after CPU 0's others
        endtext = "tickstat v1 end: end_ns=%d " % end + \
            " ".join("overrun.%d=0" % c for c in range(self.ncpus)) + end_tokens
        sums = []
        kind = page_sum if page_sum in pagesum.KINDS else "crc32"
        for cpu in range(self.ncpus):
            s = pagesum.start(kind)
            for page in pages[cpu]:
                s = pagesum.add(kind, s, page[:used(page)])
            text = pagesum.text(kind, s)
            sums.append("%d=%d:%s" % (cpu, len(pages[cpu]),
                                      sum_text(cpu, text) if sum_text else text))
        pagestext = "tickstat v1 pages: " + " ".join(sums)
        done = "tickstat v1 done: markers=2 crc=%08x" % zlib.crc32(
            pagestext.encode(), zlib.crc32(endtext.encode()))
        p = Pages()
        for i, text in enumerate((endtext, pagestext, done)):
            data = common(event_id(self.formats, "print"), 1) + struct.pack("<Q", 0)
            p.add(end + 1000 * (i + 1), data + text.encode() + b"\n\0")
        pages[0] += p.close()
        self._write(path, pages)

    def write_plain(self, path) -> None:
        """The events alone, no tickstat mark: a trace.dat as trace-cmd record writes it."""
        self.sym("tick_sched_timer")
        pages = []
        for cpu in range(self.ncpus):
            p = Pages()
            for ts, data in sorted(self.events[cpu], key=lambda e: e[0]):
                p.add(ts, data)
            pages.append(p.close())
        self._write(path, pages, b"3.1.6")

    def _write(self, path, pages, recorder: bytes = b"tickstat 0.1") -> None:
        out = bytearray(MAGIC + b"6\0" + bytes([0, LONG]) + struct.pack("<I", PAGE))
        for tag in ("header_page", "header_event"):
            out += tag.encode() + b"\0" + struct.pack("<Q", len(self.parts[tag])) + \
                self.parts[tag]
        ftrace = [t for s, t in self.formats if s == "ftrace"]
        out += struct.pack("<I", len(ftrace))
        for t in ftrace:
            out += struct.pack("<Q", len(t)) + t
        systems: dict[str, list[bytes]] = {}
        for s, t in self.formats:
            if s != "ftrace":
                systems.setdefault(s, []).append(t)
        out += struct.pack("<I", len(systems))
        for s, texts in systems.items():
            out += s.encode() + b"\0" + struct.pack("<I", len(texts))
            for t in texts:
                out += struct.pack("<Q", len(t)) + t
        ks = b"".join(b"%016x T %s\n" % (a, n.encode()) for n, a in sorted(self.syms.items()))
        out += struct.pack("<I", len(ks)) + ks
        out += struct.pack("<I", 0)
        cl = b"".join(b"%d %s\n" % (p, c.encode()) for p, c in sorted(self.comms.items()))
        out += struct.pack("<Q", len(cl)) + cl
        out += struct.pack("<I", self.ncpus) + b"options  \0"
        for oid, text in ((4, b"local global [mono]"), (5, b"Linux test 6.1.192 x86_64"),
                          (9, recorder)):
            out += struct.pack("<HI", oid, len(text) + 1) + text + b"\0"
        out += struct.pack("<H", 0) + b"flyrecord\0"
        clock = b"[mono]"
        off = len(out) + 16 * self.ncpus + 8 + len(clock)
        off = (off + PAGE - 1) // PAGE * PAGE
        for cpu in range(self.ncpus):
            size = PAGE * len(pages[cpu])
            out += struct.pack("<QQ", off, size)
            off += size
        out += struct.pack("<Q", len(clock)) + clock
        out += b"\0" * (-len(out) % PAGE)
        for cpu in range(self.ncpus):
            out += b"".join(pages[cpu])
        with open(path, "wb") as f:
            f.write(out)


def enc(value: str) -> str:
    """A doctor mark's value: space, '%', control and non-ASCII bytes as %XX."""
    return "".join(chr(c) if 0x20 < c < 0x7f and c != 0x25 else "%%%02X" % c
                   for c in value.encode())


def doctor_marks(header: dict, findings: list[dict], limit: int = 1000) -> list[str]:
    """The doctor marks of an audit (docs/recording-format.md), split as tickstat splits
    them: as many tokens as fit a mark of `limit` bytes."""
    tokens = ["%s=%s" % (k, enc(str(v))) for k, v in header.items()]
    tokens.append("findings=%d" % len(findings))
    for j, f in enumerate(findings):
        tokens += ["f%d.%s=%s" % (j, k, enc(str(v))) for k, v in f.items()]
    marks, cur = [], "doctor:"
    for t in tokens:
        if len("tickstat v1 " + cur) + 1 + len(t) > limit:
            marks.append(cur)
            cur = "doctor:"
        cur += " " + t
    return marks + [cur]
