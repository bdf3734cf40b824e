#!/usr/bin/python3
"""grow-recording.py - make a large tickstat recording from a small real one.

usage: grow-recording.py SMALL.tickstat BIG.tickstat COPIES

Copies every ring-buffer page COPIES times, each copy shifted in time past
the previous one, recomputes the CRC32 of each section, and moves end_ns.
See docs/recording-format.md for the layout.
"""
import re
import struct
import sys
import zlib


def sections(data: bytes):
    off = 12
    while off < len(data):
        typ, cpu, length, _crc = struct.unpack_from("<IIII", data, off)
        yield typ, cpu, data[off + 16:off + 16 + length]
        off += 16 + length


def put(out, typ: int, cpu: int, body: bytes) -> None:
    out.write(struct.pack("<IIII", typ, cpu, len(body), zlib.crc32(body)) + body)


def main() -> int:
    small, big, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(small, "rb").read()
    if data[:8] != b"TICKSTAT" or struct.unpack_from("<I", data, 8)[0] != 1:
        raise SystemExit("grow-recording: not a version 1 tickstat recording")
    secs = list(sections(data))
    meta = next(b for t, _, b in secs if t == 1).decode()
    end = next(b for t, _, b in secs if t == 5).decode()
    start = int(re.search(r"^start_ns=(\d+)$", meta, re.M).group(1))
    end_ns = int(re.search(r"^end_ns=(\d+)$", end, re.M).group(1))
    span = end_ns - start + 1_000_000_000
    pages = [(cpu, bytearray(b)) for t, cpu, b in secs if t == 4]
    with open(big, "wb") as out:
        out.write(data[:12])
        for typ, cpu, body in secs:
            if typ in (1, 2, 3):
                put(out, typ, cpu, body)
        # per CPU in order, so each CPU's events stay in time order
        for want in sorted({cpu for cpu, _ in pages}):
            for k in range(copies):
                for cpu, pg in pages:
                    if cpu != want:
                        continue
                    ts = struct.unpack_from("<Q", pg, 0)[0]
                    struct.pack_into("<Q", pg, 0, ts + k * span)
                    put(out, 4, cpu, bytes(pg))
                    struct.pack_into("<Q", pg, 0, ts)
        new_end = re.sub(r"^end_ns=\d+$", f"end_ns={end_ns + (copies - 1) * span}", end, flags=re.M)
        put(out, 5, 0, new_end.encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
