#!/usr/bin/python3
"""grow-recording.py - make a large recording from a small real one.

usage: grow-recording.py SMALL.dat BIG.dat COPIES

SMALL.dat is a trace.dat of version 6: a tickstat recording (tickstat record
-o) or trace-cmd's (trace-cmd record --file-version 6).  BIG.dat gets the same
header and each CPU's ring-buffer pages COPIES times, every copy shifted in
time past the previous one (a page holds an absolute timestamp; its events
hold deltas).  The events are real kernel events; only their number grows.

A tickstat recording keeps its start marks (the first copy's; the copies'
are ignored by readers), and gets new end marks: its old end-mark page is
left out of every copy and one page with "end", "pages" (the new page counts
and sums: fletcher128, or the CRC-32 of an older recording) and "done" is
appended, so that tickstat report checks it as any recording.
"""
import re
import struct
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import pagesum  # noqa: E402  (tests/pagesum.py)

PAGE_HDR = 16           # u64 timestamp, u64 commit (64-bit kernels)


class Reader:
    def __init__(self, data: bytes):
        self.d, self.o = data, 0

    def take(self, n: int) -> bytes:
        if self.o + n > len(self.d):
            raise SystemExit("grow-recording: truncated file")
        b = self.d[self.o:self.o + n]
        self.o += n
        return b

    def u16(self): return struct.unpack("<H", self.take(2))[0]
    def u32(self): return struct.unpack("<I", self.take(4))[0]
    def u64(self): return struct.unpack("<Q", self.take(8))[0]

    def cstr(self) -> bytes:
        end = self.d.index(b"\0", self.o)
        s = self.d[self.o:end]
        self.o = end + 1
        return s


def parse(data: bytes):
    """The header (up to the CPU table), the print event's id, the CPU
    count, whether a clock follows the table, where the table is."""
    r = Reader(data)
    if r.take(10) != b"\x17\x08\x44tracing" or r.cstr() != b"6":
        raise SystemExit("grow-recording: not a trace.dat of version 6")
    endian, long_size = r.take(1)[0], r.take(1)[0]
    page = r.u32()
    if endian != 0 or long_size != 8:
        raise SystemExit("grow-recording: only little-endian 64-bit files")
    for name in (b"header_page", b"header_event"):
        if r.cstr() != name:
            raise SystemExit(f"grow-recording: expected {name!r}")
        r.take(r.u64())
    print_id = None
    for _ in range(r.u32()):                    # ftrace formats
        fmt = r.take(r.u64())
        m = re.match(rb"name: print\nID: (\d+)\n", fmt)
        if m:
            print_id = int(m.group(1))
    for _ in range(r.u32()):                    # event systems
        r.cstr()
        for _ in range(r.u32()):
            r.take(r.u64())
    r.take(r.u32())                             # kallsyms
    r.take(r.u32())                             # printk formats
    r.take(r.u64())                             # saved cmdlines
    cpus = r.u32()
    tag = r.take(10)
    clock = False
    if tag == b"options  \0":
        while True:
            oid = r.u16()
            if oid == 0:
                break
            clock |= oid == 4                   # TRACECLOCK: a clock follows the table
            r.take(r.u32())
        tag = r.take(10)
    if tag != b"flyrecord\0":
        raise SystemExit(f"grow-recording: expected flyrecord, saw {tag!r}")
    head = data[:r.o]
    table = [(r.u64(), r.u64()) for _ in range(cpus)]
    clock_block = data[r.o:r.o + 8 + struct.unpack_from("<Q", data, r.o)[0]] if clock else b""
    return head, page, print_id, table, clock_block


def used(pg: bytes, page: int) -> int:
    """The bytes of a page in use, which the end marks' page sums cover:
    header, events, and a stored missed-events count."""
    flags = struct.unpack_from("<Q", pg, 8)[0]
    return min(page, PAGE_HDR + (flags & ((1 << 27) - 1)) + (8 if flags & (1 << 30) else 0))


def page_marks(pg: bytes, print_id) -> list[str]:
    """The tickstat marks in a page (print events whose text starts so)."""
    if print_id is None:
        return []
    return [m.decode() for m in re.findall(rb"tickstat v1 [a-z]+: [^\n\0]*", pg)]


def event(data: bytes) -> bytes:
    """A ring-buffer event with a zero time delta around data (type_len 0:
    the length in array[0], data 4-byte aligned)."""
    data += b"\0" * (-len(data) % 4)
    return struct.pack("<II", 0, len(data) + 4) + data


def mark_page(ts: int, print_id: int, pid: int, texts: list[str], page: int) -> bytes:
    body = b"".join(event(struct.pack("<HBBiQ", print_id, 0, 0, pid, 0) + t.encode() + b"\n\0")
                    for t in texts)
    return (struct.pack("<QQ", ts, len(body)) + body).ljust(page, b"\0")


def shifted(cpu_pages, k: int, span: int):
    """A CPU's pages as copy k holds them: each page's time stamp k spans on."""
    for pg in cpu_pages:
        ts = struct.unpack_from("<Q", pg, 0)[0]
        out = bytearray(pg)
        struct.pack_into("<Q", out, 0, ts + k * span)
        yield bytes(out)


def copy_sums(kind: str, cpu_pages: list, copies: int, span: int, page: int):
    """The sum of a CPU's pages copied COPIES times, each copy's time stamps
    shifted by span.  fletcher128 is linear in the words: a page's sums are
    taken once, and each copy changes only its time stamp's two words."""
    state = pagesum.start(kind)
    if kind == "crc32":
        for k in range(copies):
            for pg in shifted(cpu_pages, k, span):
                state = pagesum.add(kind, state, pg[:used(pg, page)])
        return state
    taken = []
    for pg in cpu_pages:
        n, s, t = pagesum.parts(pg[:used(pg, page)])
        taken.append((n, s, t, struct.unpack_from("<Q", pg, 0)[0]))
    for k in range(copies):
        for n, s, t, ts in taken:
            new = ts + k * span
            d0 = (new & 0xffffffff) - (ts & 0xffffffff)
            d1 = (new >> 32) - (ts >> 32)
            state = pagesum.fletcher128_add(state, n, s + d0 + d1, t + n * d0 + (n - 1) * d1)
    return state


def main() -> int:
    small, big, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(small, "rb").read()
    head, page, print_id, table, clock_block = parse(data)

    first, last = None, 0
    pages, end_cpu, end_text, pid = [], None, None, 0
    for cpu, (off, size) in enumerate(table):
        cpu_pages = [bytearray(data[p:p + page]) for p in range(off, off + size, page)]
        for i, pg in enumerate(cpu_pages):
            marks = page_marks(bytes(pg), print_id)
            if any(m.startswith("tickstat v1 end:") for m in marks):
                end_cpu, end_text = cpu, marks[0]
                tl = struct.unpack_from("<I", pg, PAGE_HDR)[0] & 0x1f
                pid = struct.unpack_from("<i", pg, PAGE_HDR + (8 if tl == 0 else 4) + 4)[0]
                cpu_pages = cpu_pages[:i]       # the end marks' pages go
                break
        pages.append(cpu_pages)
        for pg in cpu_pages:
            ts = struct.unpack_from("<Q", pg, 0)[0]
            first = ts if first is None else min(first, ts)
            last = max(last, ts)
    span = (last - first) + 1_000_000_000     # a second past the last page

    extra = {}
    if end_cpu is not None:
        counts = {c: len(p) * copies for c, p in enumerate(pages)}
        kind = pagesum.kind(data)
        sums = {}
        for c, cpu_pages in enumerate(pages):
            sums[c] = copy_sums(kind, cpu_pages, copies, span, page)
        end_ns = int(re.search(r"end_ns=(\d+)", end_text).group(1)) + (copies - 1) * span
        texts = ["tickstat v1 end: " + re.sub(r"end_ns=\d+", f"end_ns={end_ns}",
                                               end_text[len("tickstat v1 end: "):]),
                 "tickstat v1 pages: " + " ".join(f"{c}={counts[c]}:{pagesum.text(kind, sums[c])}"
                                                  for c in range(len(pages)))]
        crc = 0
        for t in texts:
            crc = zlib.crc32(t.encode(), crc)
        texts.append(f"tickstat v1 done: markers=2 crc={crc:08x}")
        extra[end_cpu] = mark_page(end_ns + 1000, print_id, pid, texts, page)

    out = open(big, "wb")
    out.write(head)
    pos = len(head) + 16 * len(table) + len(clock_block)
    pos = (pos + page - 1) // page * page
    new_table = []
    for c, cpu_pages in enumerate(pages):
        size = len(cpu_pages) * page * copies + (page if c in extra else 0)
        new_table.append((pos, size))
        pos += size
    for off, size in new_table:
        out.write(struct.pack("<QQ", off, size))
    out.write(clock_block)
    out.write(b"\0" * (new_table[0][0] - out.tell()) if new_table else b"")
    for c, cpu_pages in enumerate(pages):
        for k in range(copies):
            for pg in shifted(cpu_pages, k, span):
                out.write(pg)
        if c in extra:
            out.write(extra[c])
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
