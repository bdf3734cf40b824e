#!/usr/bin/python3
"""grow-tracedat.py - make a large trace.dat from a small real one.

usage: grow-tracedat.py SMALL.dat BIG.dat COPIES

SMALL.dat must be trace-cmd file version 6 (trace-cmd record --file-version 6),
recorded in the guest.  BIG.dat gets the same headers and each CPU's ring-
buffer pages COPIES times, every copy shifted in time past the previous one
(a page holds an absolute timestamp; its events hold deltas).  The events
are real kernel events; only their number grows.
"""
import struct
import sys


class Reader:
    def __init__(self, data: bytes):
        self.d, self.o = data, 0

    def take(self, n: int) -> bytes:
        if self.o + n > len(self.d):
            raise SystemExit("grow-tracedat: truncated file")
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


def main() -> int:
    small, big, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(small, "rb").read()
    r = Reader(data)
    if r.take(10) != b"\x17\x08\x44tracing" or r.cstr() != b"6":
        raise SystemExit("grow-tracedat: not a trace-cmd file of version 6")
    endian, long_size = r.take(1)[0], r.take(1)[0]
    page = r.u32()
    if endian != 0:
        raise SystemExit("grow-tracedat: big-endian files are not handled")
    for name in (b"header_page", b"header_event"):
        if r.cstr() != name:
            raise SystemExit(f"grow-tracedat: expected {name!r}")
        r.take(r.u64())
    for _ in range(r.u32()):                    # ftrace formats
        r.take(r.u64())
    for _ in range(r.u32()):                    # event systems
        r.cstr()
        for _ in range(r.u32()):
            r.take(r.u64())
    r.take(r.u32())                             # kallsyms
    r.take(r.u32())                             # printk formats
    r.take(r.u64())                             # saved cmdlines
    cpus = r.u32()
    tag = r.take(10)
    if tag == b"options  \0":
        while True:
            oid = r.u16()
            if oid == 0:
                break
            r.take(r.u32())
        tag = r.take(10)
    if tag != b"flyrecord\0":
        raise SystemExit(f"grow-tracedat: expected flyrecord, saw {tag!r}")
    head = data[:r.o]
    table = [(r.u64(), r.u64()) for _ in range(cpus)]

    first, last = None, 0
    pages = []
    for off, size in table:
        cpu_pages = [bytearray(data[p:p + page]) for p in range(off, off + size, page)]
        pages.append(cpu_pages)
        for pg in cpu_pages:
            ts = struct.unpack_from("<Q", pg, 0)[0]
            first = ts if first is None else min(first, ts)
            last = max(last, ts)
    span = (last - first) + 1_000_000_000     # a second past the last page

    out = open(big, "wb")
    out.write(head)
    pos = len(head) + 16 * cpus
    pos = (pos + page - 1) // page * page
    new_table = []
    for cpu_pages in pages:
        size = len(cpu_pages) * page * copies
        new_table.append((pos, size))
        pos += size
    for off, size in new_table:
        out.write(struct.pack("<QQ", off, size))
    out.write(b"\0" * (new_table[0][0] - out.tell()) if new_table else b"")
    for cpu_pages in pages:
        for k in range(copies):
            for pg in cpu_pages:
                ts = struct.unpack_from("<Q", pg, 0)[0]
                struct.pack_into("<Q", pg, 0, ts + k * span)
                out.write(pg)
                struct.pack_into("<Q", pg, 0, ts)
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
