"""pagesum.py - the sums of a recording's pages that its end marks carry,
as tickstat computes them (tools/tickstat/src/pagesum.c): Fletcher-64 where
the start mark says page_sum=fletcher64, zlib's CRC-32 in a recording of a
tickstat before it.  For the tests and benches that rewrite recordings."""
import re
import struct
import zlib

MOD = 0xffffffff


def kind(data: bytes) -> str:
    """The sum a recording's pages carry: "fletcher64" or "crc32"."""
    m = re.search(rb"tickstat v1 start: [^\n\0]*?page_sum=(\w+)", data)
    return m.group(1).decode() if m else "crc32"


def parts(data: bytes) -> tuple[int, int, int]:
    """(n, S, T) of data's little-endian 32-bit words w (zero padded):
    n words, S = sum of w, T = sum of (n - i) * w[i]; appending data to a
    Fletcher-64 state (a, b) gives (a + S, b + n * a + T), modulo 2^32 - 1."""
    pad = bytes(data) + b"\0" * (-len(data) % 4)
    w = struct.unpack(f"<{len(pad) // 4}I", pad)
    n = len(w)
    return n, sum(w), sum((n - i) * x for i, x in enumerate(w))


def fletcher64_add(state: int, n: int, s: int, t: int) -> int:
    """A Fletcher-64 state (b * 2^32 + a) carried on over words of parts()."""
    a, b = state & MOD, state >> 32
    a, b = (a + s) % MOD, (b + n * a + t) % MOD
    return b << 32 | a


def add(k: str, state: int, data: bytes) -> int:
    """The sum of kind k carried on over data."""
    if k == "crc32":
        return zlib.crc32(data, state)
    return fletcher64_add(state, *parts(data))


def text(k: str, state: int) -> str:
    """As the pages mark writes it."""
    return f"{state:016x}" if k == "fletcher64" else f"{state:08x}"
