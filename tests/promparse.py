"""promparse.py - read Prometheus's text exposition format, for the tests.

Strict on purpose: a line that is not a comment, a HELP/TYPE line or a
well-formed sample is an error, and so is a family whose samples are not
together, so that a test reading tickstat's output also checks its syntax.
"""
import re

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)')

Key = tuple[str, tuple[tuple[str, str], ...]]


class Exposition:
    """Samples by (name, sorted labels), and each family's TYPE."""

    def __init__(self, text: str):
        self.samples: dict[Key, float] = {}
        self.types: dict[str, str] = {}
        seen_families: list[str] = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.startswith("# TYPE "):
                _, _, name, kind = line.split(" ", 3)
                if name in self.types:
                    raise ValueError(f"line {n}: second TYPE for {name}")
                self.types[name] = kind
                seen_families.append(name)
                continue
            if line.startswith("#") or not line:
                continue
            m = SAMPLE.match(line)
            if not m:
                raise ValueError(f"line {n}: not a sample: {line!r}")
            name, labels, value = m.groups()
            if seen_families and name != seen_families[-1]:
                raise ValueError(f"line {n}: {name} outside its family")
            pairs = []
            rest = labels or ""
            while rest:
                lm = LABEL.match(rest)
                if not lm:
                    raise ValueError(f"line {n}: bad labels: {labels!r}")
                pairs.append((lm.group(1), lm.group(2)))
                rest = rest[lm.end():]
            key = (name, tuple(sorted(pairs)))
            if key in self.samples:
                raise ValueError(f"line {n}: duplicate sample {line!r}")
            self.samples[key] = float(value)

    def get(self, name: str, **labels: str) -> float | None:
        """The sample with exactly these labels, or None."""
        return self.samples.get((name, tuple(sorted(labels.items()))))

    def select(self, name: str, **labels: str) -> dict[Key, float]:
        """Samples of a family whose labels include these."""
        return {k: v for k, v in self.samples.items()
                if k[0] == name and all((a, b) in k[1] for a, b in labels.items())}

    def sum(self, name: str, **labels: str) -> float:
        return sum(self.select(name, **labels).values())


def labels_of(key: Key) -> dict[str, str]:
    return dict(key[1])
