"""datfix.py - broken copies of the committed trace.dat fixtures, made in the test.

The fixtures are guest captures; the tests of the gate need the same data
damaged in one precise way each (pages out of order, a time stamp that
goes back, a CPU without data, no buffer statistics, an event format
missing).  Rather than commit more binaries, these functions make them
from a version 6 file (tickstat's recordings: patched.dat, stock.dat) in a
few byte edits, following trace-cmd.dat.v6(5) and docs/recording-format.md.
A recording keeps its own checks valid: after a page changes, its "pages"
and "done" marks get the sums its reader will compute.
"""
import re
import struct
import zlib

import pagesum

MAGIC = b"\x17\x08\x44tracing"


class V6:
    """Where the parts of a version 6 trace.dat lie."""

    def __init__(self, b: bytes):
        if b[:10] != MAGIC or b[10:12] != b"6\0":
            raise ValueError("not a version 6 trace.dat")
        self.long_size = b[13]
        self.page_size = struct.unpack_from("<I", b, 14)[0]
        self.formats: dict[bytes, int] = {}       # "name: X" line -> offset of the text
        self.options: list[tuple[int, int, bytes]] = []  # (id, offset of the id, data)
        p = 18
        for tag in (b"header_page\0", b"header_event\0"):
            assert b[p:p + len(tag)] == tag
            p += len(tag)
            p += 8 + struct.unpack_from("<Q", b, p)[0]
        p = self._formats(b, p + 4, struct.unpack_from("<I", b, p)[0])
        systems = struct.unpack_from("<I", b, p)[0]
        p += 4
        for _ in range(systems):
            p = b.index(b"\0", p) + 1
            p = self._formats(b, p + 4, struct.unpack_from("<I", b, p)[0])
        for size in (4, 4, 8):                   # kallsyms, printk, cmdlines
            self.cmdlines = p                    # (the last: the 8-byte size's offset)
            p += size + int.from_bytes(b[p:p + size], "little")
        cpus = struct.unpack_from("<I", b, p)[0]
        p += 4
        if b[p:p + 10] == b"options  \0":
            p += 10
            while (oid := struct.unpack_from("<H", b, p)[0]) != 0:
                n = struct.unpack_from("<I", b, p + 2)[0]
                self.options.append((oid, p, bytes(b[p + 6:p + 6 + n])))
                p += 6 + n
            p += 2
        assert b[p:p + 10] == b"flyrecord\0"
        self.table = p + 10
        self.cpus = [struct.unpack_from("<QQ", b, self.table + 16 * i) for i in range(cpus)]

    def _formats(self, b: bytes, p: int, count: int) -> int:
        for _ in range(count):
            n = struct.unpack_from("<Q", b, p)[0]
            self.formats[bytes(b[p + 8:p + 8 + n].split(b"\n", 1)[0])] = p + 8
            p += 8 + n
        return p

    def page(self, cpu: int, n: int) -> slice:
        off = self.cpus[cpu][0] + n * self.page_size
        return slice(off, off + self.page_size)


def page_used(page: bytes, long_size: int) -> int:
    """The bytes of a page its header counts, as the reader's page sum covers them."""
    flags = int.from_bytes(page[8:8 + long_size], "little")
    used = 8 + long_size + (flags & ((1 << 27) - 1)) + (long_size if flags & (1 << 30) else 0)
    return min(used, len(page))


def records(page: bytes, long_size: int):
    """(offset, type_len) of each record of a ring-buffer page."""
    hdr = 8 + long_size
    end = hdr + (int.from_bytes(page[8:8 + long_size], "little") & ((1 << 27) - 1))
    off = hdr
    while off < end:
        tl = struct.unpack_from("<I", page, off)[0] & 31
        if tl == 0:
            size = 8 + ((struct.unpack_from("<I", page, off + 4)[0] - 4 + 3) & ~3)
        elif tl == 29:                            # padding
            size = 4 + struct.unpack_from("<I", page, off + 4)[0]
        elif tl >= 30:                            # time extend, time stamp
            size = 8
        else:
            size = 4 + 4 * tl
        yield off, tl
        off += size


def mark(b: bytes, kind: bytes) -> tuple[int, bytes]:
    """(offset, text) of tickstat's one mark of this kind, as its reader sums it."""
    at = b.index(b"tickstat v1 " + kind + b": ")
    end = at
    while b[end] not in (0, 10):
        end += 1
    return at, bytes(b[at:end])


def fix_marks(b: bytearray, lay: V6) -> None:
    """Give a recording the page sums of its pages as they are now."""
    at, text = mark(b, b"pages")
    kind = pagesum.kind(bytes(b))
    sums = []
    for field in text.split(b": ", 1)[1].split():
        cpu, rest = field.split(b"=")
        count = int(rest.split(b":")[0])
        s = pagesum.start(kind)
        for n in range(count):
            page = bytes(b[lay.page(int(cpu), n)])
            s = pagesum.add(kind, s, page[:page_used(page, lay.long_size)])
        sums.append(b"%s=%d:%s" % (cpu, count, pagesum.text(kind, s).encode()))
    new = b"tickstat v1 pages: " + b" ".join(sums)
    assert len(new) == len(text)
    b[at:at + len(new)] = new
    crc = zlib.crc32(new, zlib.crc32(mark(b, b"end")[1]))
    at, done = mark(b, b"done")
    at += done.index(b"crc=") + 4
    b[at:at + 8] = b"%08x" % crc


def swap_pages(b: bytes, cpu: int, n: int) -> bytearray:
    """Pages n and n + 1 of a CPU in the wrong order: the second goes back in time."""
    c, lay = bytearray(b), V6(b)
    first, second = bytes(c[lay.page(cpu, n)]), bytes(c[lay.page(cpu, n + 1)])
    c[lay.page(cpu, n)], c[lay.page(cpu, n + 1)] = second, first
    if b"tickstat v1 start: " in c:
        fix_marks(c, lay)
    return c


def stamp_back(b: bytes, cpu: int, n: int) -> bytearray:
    """The first time extend after the page's first record made an absolute time
    stamp (as newer kernels write): its small value sends time back inside the page."""
    c, lay = bytearray(b), V6(b)
    s = lay.page(cpu, n)
    page = bytes(c[s])
    off = next(o for o, tl in records(page, lay.long_size) if tl == 30 and o > 8 + lay.long_size)
    h = struct.unpack_from("<I", page, off)[0]
    struct.pack_into("<I", c, s.start + off, (h & ~31) | 31)
    if b"tickstat v1 start: " in c:
        fix_marks(c, lay)
    return c


def plain(b: bytes) -> bytearray:
    """A recording as a trace.dat of another writer: no start mark, no tickstat VERSION."""
    c = bytearray(b)
    at, _ = mark(c, b"start")
    c[at:at + 17] = b"tickstat v1 Start"
    for _, off, data in V6(c).options:
        if data.startswith(b"tickstat"):
            c[off + 6:off + 14] = b"TICKSTAT"
    return c


def without_data(b: bytes, cpus) -> bytearray:
    """These CPUs' data sections emptied (size 0): no event of them."""
    c, lay = bytearray(b), V6(b)
    for cpu in cpus:
        struct.pack_into("<Q", c, lay.table + 16 * cpu + 8, 0)
    return c


def without_option(b: bytes, oid: int) -> bytearray:
    """Options of this id renamed to one no reader knows (2: CPUSTAT)."""
    c = bytearray(b)
    for o, off, _ in V6(c).options:
        if o == oid:
            struct.pack_into("<H", c, off, 0x7ff0)
    return c


def without_event(b: bytes, name: bytes) -> bytearray:
    """An event format renamed (same length): the reader does not know that event."""
    c = bytearray(b)
    at = c.index(b"name: " + name + b"\n")
    c[at + 6] ^= 0x20                              # its first letter in upper case
    return c


def field_offset(b: bytes, lay: V6, event: bytes, name: bytes) -> tuple[int, int]:
    """(event id, offset of a field in its records), from the file's format."""
    text = bytes(b[lay.formats[b"name: " + event]:]).split(b"print fmt", 1)[0]
    eid = int(re.search(rb"\nID: (\d+)", text).group(1))
    return eid, int(re.search(rb"field:[^;]* " + name + rb";\toffset:(\d+);", text).group(1))


def retarget_deps(b: bytes, target: int) -> bytearray:
    """Every tick_dep_set of CPU scope aimed at another CPU (one the file may not have)."""
    c, lay = bytearray(b), V6(b)
    eid, scope = field_offset(c, lay, b"tick_dep_set", b"scope")
    _, tgt = field_offset(c, lay, b"tick_dep_set", b"target")
    for cpu, (_, size) in enumerate(lay.cpus):
        for n in range(size // lay.page_size):
            s = lay.page(cpu, n)
            page = bytes(c[s])
            for off, tl in records(page, lay.long_size):
                data = s.start + off + (8 if tl == 0 else 4)
                if 0 <= tl <= 28 and struct.unpack_from("<H", c, data)[0] == eid and \
                        struct.unpack_from("<i", c, data + scope)[0] == 2:  # the kernel's CPU scope
                    struct.pack_into("<i", c, data + tgt, target)
    if b"tickstat v1 start: " in c:
        fix_marks(c, lay)
    return c


def discard_event(b: bytes, cpu: int, name: bytes) -> tuple[bytearray, int]:
    """The middle record of this event on this CPU discarded, as the kernel
    discards one (padding of the same length, its time delta kept): trace-cmd
    and tickstat skip it.  Returns the copy and the record's time (ns)."""
    c, lay = bytearray(b), V6(b)
    eid, _ = field_offset(c, lay, name, b"common_type")
    found = []
    for n in range(lay.cpus[cpu][1] // lay.page_size):
        s = lay.page(cpu, n)
        page = bytes(c[s])
        ts = struct.unpack_from("<Q", page, 0)[0]
        for off, tl in records(page, lay.long_size):
            h = struct.unpack_from("<I", page, off)[0]
            if tl == 30:                          # time extend: the high bits of a delta
                ts += struct.unpack_from("<I", page, off + 4)[0] << 27
            if tl not in (29, 31):                # padding keeps its delta; 31 is absolute
                ts += h >> 5
            if 1 <= tl <= 28 and struct.unpack_from("<H", page, off + 4)[0] == eid:
                found.append((s.start + off, tl, ts))
    at, tl, ts = found[len(found) // 2]
    h = struct.unpack_from("<I", c, at)[0]
    struct.pack_into("<II", c, at, (max(h >> 5, 1) << 5) | 29, 4 * tl)
    if b"tickstat v1 start: " in c:
        fix_marks(c, lay)
    return c, ts
