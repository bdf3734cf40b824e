#!/usr/bin/python3
"""Check that the diagnosis covers every name tickstat can print.

Every reason name in names.c (dependency bits, retain reasons, IDLE_REFUSED,
the names by number DEP_BIT<n> and RETAIN_<n>), analysis.c (UNREPORTED,
NOT_NOHZ_FULL), every cause type and every x86 vector kind (vector:KIND)
must have a rule in diagnosis.c's rules
table; every rule must name something tickstat prints (or one of the
diagnosis' own verdicts) and point at an anchor that docs/cookbook.md has.
Each anchor must be defined once.
"""
import argparse
import re
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
OWN = {"UNKNOWN", "TICKLESS"}  # the diagnosis' own verdicts, not reasons


def array(text: str, name: str, path: Path) -> list[str]:
    """The string literals of a static array of names in C source."""
    m = re.search(r"static const char \* const " + name + r"\[[^\]]*\] = \{(.*?)\};", text, re.S)
    if not m:
        raise SystemExit(f"{path}: no array {name}[]")
    return re.findall(r'"([^"]+)"', m.group(1))


def function(text: str, name: str, path: Path) -> str:
    """The body of a C function defined at the start of a line."""
    m = re.search(r"^[^\n]*\b" + name + r"\([^)]*\)\n\{\n(.*?)\n\}\n", text, re.S | re.M)
    if not m:
        raise SystemExit(f"{path}: no function {name}()")
    return m.group(1)


def printed_names(src: Path) -> list[str]:
    """Every reason and cause-type name tickstat can print."""
    names_c = src / "names.c"
    text = names_c.read_text()
    names = array(text, "dep_names", names_c) + array(text, "retain_names", names_c)
    names += array(text, "cause_type_names", names_c)
    # the x86 vectors: the diagnosis links each kind's own section
    names += ["vector:" + k for k in array(text, "vector_names", names_c)]
    for fn in ("ts_dep_name", "ts_retain_name"):
        body = function(text, fn, names_c)
        names += re.findall(r'return "([A-Za-z_0-9]+)";', body)
        names += [p + "*" for p in re.findall(r'number_name\("([A-Za-z_]+)"', body)]
    analysis_c = src / "analysis.c"
    names += array(analysis_c.read_text(), "none_names", analysis_c)
    return names


def rules(src: Path) -> list[tuple[str, str]]:
    """(name, anchor) of each rule in diagnosis.c, between its BEGIN and END RULES marks."""
    path = src / "diagnosis.c"
    text = path.read_text()
    m = re.search(r"BEGIN RULES(.*?)END RULES", text, re.S)
    if not m:
        raise SystemExit(f"{path}: no BEGIN RULES ... END RULES block")
    found = re.findall(r'\{\s*"([^"]+)",\s*"([^"]*)",', m.group(1))
    if not found:
        raise SystemExit(f"{path}: no rules between the marks")
    return found


def other_anchors(src: Path) -> list[str]:
    """Anchors diagnosis.c sets as literals outside the rules (a fallback)."""
    text = (src / "diagnosis.c").read_text()
    return re.findall(r'->anchor = (?:[^;"]*: )?"([a-z0-9-]+)"', text)


def rules_asked(src: Path) -> list[str]:
    """The rules diagnosis.c looks up by a literal name."""
    text = (src / "diagnosis.c").read_text()
    return re.findall(r'ts_diag_rule_of\("([^"]+)"\)', text)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, default=TOP / "tools/tickstat/src")
    ap.add_argument("--cookbook", type=Path, default=TOP / "docs/cookbook.md")
    args = ap.parse_args()

    errors = []
    defined = re.findall(r'<a id="([a-z0-9-]+)"></a>', args.cookbook.read_text())
    anchors = set(defined)
    for a in sorted(anchors):
        if defined.count(a) > 1:
            errors.append(f"{args.cookbook}: anchor {a} defined {defined.count(a)} times")
    names = printed_names(args.src)
    table = rules(args.src)
    by_name: dict[str, str] = {}
    for name, anchor in table:
        if name in by_name:
            errors.append(f"diagnosis.c: two rules for {name}")
        by_name[name] = anchor
    for name in names:
        if name not in by_name:
            errors.append(f"no diagnosis rule for {name} (diagnosis.c, rules[])")
    for name, anchor in table:
        if name not in names and name not in OWN:
            errors.append(f"diagnosis.c: the rule for {name} names nothing tickstat prints")
        if anchor not in anchors:
            errors.append(f"{args.cookbook}: no anchor {anchor} (the rule for {name})")
    for anchor in other_anchors(args.src):
        if anchor not in anchors:
            errors.append(f"{args.cookbook}: no anchor {anchor} (diagnosis.c)")
    for name in rules_asked(args.src):
        if name not in by_name:
            errors.append(f"diagnosis.c asks for the rule of {name}, which has none")
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        return 1
    print(f"ok: {len(names)} names, {len(table)} rules, "
          f"{len(set(by_name.values()))} anchors in {args.cookbook.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
