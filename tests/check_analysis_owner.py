#!/usr/bin/python3
"""check_analysis_owner.py - the analysis state is written only by analysis.c.

struct ts_analysis and struct ts_cpu (tools/tickstat/src/analysis.h) are
the state every report is made of.  They are written only through
analysis.c's functions, so that each number a report shows can be traced to
one place.  A few members belong to another module, which alone writes them
(OWNERS below, as analysis.h documents them).

The check is a C-aware grep, made simple by C's const: outside analysis.c,
the code may hold the state only through `const` pointers, except in the
variables and members declared with a non-const `struct ts_analysis` or
`struct ts_cpu` type.  Through those names it looks for
  - an assignment (=, op=, ++, --) to a member, or to anything reached
    through one (`an->cpus[c]->active = 1`, `an->culprits[i].sets++`);
  - a member's address taken (`&an->snapshot_ts`), except to initialise a
    const pointer;
  - a member passed as the destination of a C library writer (memset,
    snprintf, sscanf, ...);
and names the file and line of each.  Comments and strings are ignored.

usage: check_analysis_owner.py SRC_DIR    (exit 1 on any write found)
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

# member -> the files that own it (besides analysis.c), and why
OWNERS: dict[str, dict[str, str]] = {
    "ts_analysis": {
        # the queue a watcher keeps behind the state machine's door
        "hold": {"hold.c": "hold.c's queue (struct ts_hold)"},
        # what the source can tell: the decoder fills it (decode.c,
        # probedec.c) through the pointer stream.c hands it
        "caps": {"stream.c": "the decoder's (ts_decoder_init)"},
        # the audit a recording stored: docrec.c parses the doctor marks into it
        "doctor": {"docrec.c": "docrec.c's stored audit (struct ts_doctor_rec)"},
    },
    "ts_cpu": {},
}

ASSIGN = r"(?:=(?!=)|\+=|-=|\*=|/=|%=|&=|\|=|\^=|<<=|>>=|\+\+|--)"
# what may follow a member on the way to what is written: [i], .x, ->x
CHAIN = r"(?:\s*\[[^\]\[;]*\]|\s*(?:->|\.)\s*\w+)*"
# C library functions that write to their first argument, or to those after the format
WRITE_FIRST = r"(?:memset|memcpy|memmove|strcpy|strncpy|strcat|strncat|sprintf|snprintf|" \
              r"vsnprintf|vsprintf|fgets|fread|read|pread|readlink|getline)"
WRITE_LATER = r"(?:sscanf|fscanf|scanf|vsscanf)"


def strip_c(text: str) -> str:
    """Comments, string and character literals blanked; lines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def struct_members(header: str, name: str) -> set[str]:
    """The member names of `struct NAME { ... };` in a (stripped) header."""
    m = re.search(r"\bstruct\s+" + name + r"\s*\{", header)
    if not m:
        sys.exit(f"check_analysis_owner: struct {name} not found in analysis.h")
    depth, i, start = 1, m.end(), m.end()
    body_end = None
    while i < len(header):
        if header[i] == "{":
            depth += 1
        elif header[i] == "}":
            depth -= 1
            if depth == 0:
                body_end = i
                break
        i += 1
    body = header[start:body_end]
    # flatten nested braces: `struct x { ... } *name;` declares name
    flat, depth = [], 0
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            flat.append(ch)
    members = set()
    for decl in "".join(flat).split(";"):
        decl = re.sub(r"\[[^\]]*\]", "", decl).strip()
        for part in decl.split(","):
            ids = re.findall(r"[A-Za-z_]\w*", part)
            if ids:
                members.add(ids[-1])
    if not members:
        sys.exit(f"check_analysis_owner: struct {name} has no members?")
    return members


def declared_names(text: str, struct: str) -> set[str]:
    """Variables, parameters and members declared with a non-const struct type."""
    names = set()
    for m in re.finditer(r"(\bconst\s+)?\bstruct\s+" + struct + r"\b\s*((?:\*\s*)*)(\w+)", text):
        if m.group(1) or m.group(3) in ("const",):
            continue
        names.add(m.group(3))
    return names


def line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def writes(path: Path, text: str, headers: str, members: dict[str, set[str]]) -> list[str]:
    found = []
    for struct, fields in members.items():
        # this file's names, anywhere; other files' members, as members (s->an->x)
        names = sorted(declared_names(text, struct))
        members_elsewhere = sorted(declared_names(headers, struct))
        alts = []
        if names:
            alts.append(r"(?<![\w.>])(?:" + "|".join(names) + r")\b")
        if members_elsewhere:
            alts.append(r"(?:->|\.)\s*(?:" + "|".join(members_elsewhere) + r")\b")
        if not alts:
            continue
        owned = {f for f, owners in OWNERS[struct].items() if path.name in owners}
        field_re = "|".join(sorted(fields - owned))
        base = r"(?:" + "|".join(alts) + r")\s*(?:->|\.)\s*(?:" + field_re + r")\b" + CHAIN
        rules = [
            ("assignment", base + r"\s*" + ASSIGN),
            ("assignment", r"(?:\+\+|--)\s*" + base),
            ("address taken", r"&\s*" + base),
            ("written by a C library call", r"\b" + WRITE_FIRST + r"\s*\(\s*&?\s*" + base),
            ("written by a C library call", r"\b" + WRITE_LATER + r"\s*\([^;]*?,[^;]*?,[^;]*?&?\s*" + base),
        ]
        for what, rule in rules:
            for m in re.finditer(rule, text):
                if what == "address taken":
                    before = text[:m.start()].rstrip()
                    if not re.search(r"(?:[(,=?:]|\breturn)$", before):
                        continue		# a binary & or &&
                    stmt_start = max(text.rfind(";", 0, m.start()), text.rfind("{", 0, m.start()),
                                     text.rfind("}", 0, m.start()))
                    if re.match(r"\s*const\b[^=;]*=\s*$", text[stmt_start + 1:m.start()]):
                        continue		# a const pointer's initialiser: a read
                snippet = " ".join(m.group(0).split())
                found.append(f"{path}:{line_of(text, m.start())}: struct {struct}: {what}: {snippet}")
    return sorted(set(found), key=lambda s: (s.split(":")[0], int(s.split(":")[1])))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", type=Path, help="tools/tickstat/src")
    args = ap.parse_args()
    header = args.src / "analysis.h"
    if not header.is_file():
        print(f"check_analysis_owner: {header}: not found", file=sys.stderr)
        return 2
    stripped = strip_c(header.read_text())
    members = {s: struct_members(stripped, s) for s in ("ts_analysis", "ts_cpu")}
    stale = [f"check_analysis_owner: OWNERS names struct {struct} member '{field}', "
             "which analysis.h does not have" for struct, owned in OWNERS.items()
             for field in owned if field not in members[struct]]
    headers = "".join(strip_c(h.read_text()) for h in sorted(args.src.glob("*.h"))
                      if h.name != "analysis.h")
    found = []
    for path in sorted(args.src.glob("*.c")):
        if path.name == "analysis.c":
            continue
        found += writes(path, strip_c(path.read_text()), headers, members)
    for line in found:
        print(line)
    if found:
        print(f"check_analysis_owner: {len(found)} write(s) to the analysis state outside "
              "analysis.c: add or use a function of analysis.c", file=sys.stderr)
    for line in stale:
        print(line, file=sys.stderr)
    return 1 if found or stale else 0


if __name__ == "__main__":
    sys.exit(main())
