"""pagesum.py - the sums of a recording's pages that its end marks carry,
as tickstat computes them (tools/tickstat/src/pagesum.c): fletcher128 where
the start mark says page_sum=fletcher128, zlib's CRC-32 in a recording of a
tickstat before it.  For the tests and benches that write or rewrite
recordings."""
import re
import struct
import zlib

MASK = (1 << 64) - 1
KINDS = ("crc32", "fletcher128")


def kind(data: bytes) -> str:
    """The sum a recording's pages carry: "fletcher128" or "crc32"."""
    m = re.search(rb"tickstat v1 start: (?:[^\n\0]*? )?page_sum=(\w+)", data)
    return m.group(1).decode() if m else "crc32"


def parts(data: bytes) -> tuple[int, int, int]:
    """(n, S, T) of data's little-endian 32-bit words w (zero padded):
    n words, S = sum of w, T = sum of (n - i) * w[i]; appending data to a
    state (a, b) gives (a + S, b + n * a + T), modulo 2^64."""
    pad = bytes(data) + b"\0" * (-len(data) % 4)
    w = struct.unpack(f"<{len(pad) // 4}I", pad)
    n = len(w)
    return n, sum(w), sum((n - i) * x for i, x in enumerate(w))


def fletcher128_add(state: tuple, n: int, s: int, t: int) -> tuple:
    """A fletcher128 state (a, b) carried on over words of parts()."""
    a, b = state
    return (a + s) & MASK, (b + n * a + t) & MASK


def start(k: str):
    """The sum of no page."""
    if k not in KINDS:
        raise ValueError(f"pagesum: no sum {k!r}")
    return (0, 0) if k == "fletcher128" else 0


def add(k: str, state, data: bytes):
    """The sum of kind k carried on over data."""
    if k == "crc32":
        return zlib.crc32(data, state)
    if k == "fletcher128":
        return fletcher128_add(state, *parts(data))
    raise ValueError(f"pagesum: no sum {k!r}")


def text(k: str, state) -> str:
    """As the pages mark writes it: b then a, 32 hex digits; 8 for a CRC-32."""
    if k == "fletcher128":
        return f"{state[1]:016x}{state[0]:016x}"
    if k == "crc32":
        return f"{state:08x}"
    raise ValueError(f"pagesum: no sum {k!r}")
