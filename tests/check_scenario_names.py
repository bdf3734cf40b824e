#!/usr/bin/python3
"""check_scenario_names.py - is every name tickstat prints shown by a scenario?

usage: check_scenario_names.py [--top DIR]

Every dependency bit, tick_retain reason and SCHED sub-reason that
tools/tickstat/src/names.c names (its tables, and the names its
ts_*_name() functions return besides) must be either

  - claimed by a conformance scenario, as "KIND:NAME" in the shows= of its
    Entry in tests/conformance/expect.py, where the scenario's check (or a
    function or Scenario method it calls) names it as a string: a claim
    its check never makes is no coverage; the scenario has its script
    (tests/conformance/scenarios/NAME.sh) and its page (docs/scenarios/NAME.md);
  - or listed in docs/scenarios/README.md's table "Names no scenario shows",
    with the reason and the kernel source that says so, and docs/cookbook.md's
    row for it links that table.

Not both.  KIND is dependency, retain or sched.  --top is the source tree
(default: this repository).  Prints one line per name; exit status 0 when
every name is accounted for, 1 when one is not (each said), 2 when a file
cannot be read or parsed.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

# KIND: (the table of names.c, the function that names a value of it)
TABLES = {
    "dependency": ("dep_names", "ts_dep_name"),
    "retain": ("retain_names", "ts_retain_name"),
    "sched": ("sched_names", "ts_sched_name"),
}
NOT_SHOWN_HEADING = "## Names no scenario shows"


class BadInput(Exception):
    """A file this check cannot read or parse: exit status 2."""


def read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError as e:
        raise BadInput(f"cannot read {path}: {e.strerror}") from e


def names_c(path: Path) -> dict[str, list[str]]:
    """Per KIND, the names names.c gives: its table's, then the other
    literals its naming function returns (IDLE_REFUSED)."""
    text = read(path)
    out: dict[str, list[str]] = {}
    for kind, (table, func) in TABLES.items():
        m = re.search(rf"static const char \* const {table}\[[^\]]*\] = \{{(.*?)\}};", text, re.S)
        if not m:
            raise BadInput(f"{path}: no table {table}")
        names = re.findall(r'"(\w+)"', m.group(1))
        body = re.search(rf"^const char \*{func}\([^)]*\)\n\{{\n(.*?)^\}}", text, re.S | re.M)
        if not body:
            raise BadInput(f"{path}: no function {func}")
        names += [n for n in re.findall(r'return "(\w+)";', body.group(1)) if n not in names]
        out[kind] = names
    return out


class Expectations:
    """What expect.py's scenarios claim, and the strings each check names."""

    def __init__(self, path: Path) -> None:
        try:
            tree = ast.parse(read(path), str(path))
        except SyntaxError as e:
            raise BadInput(f"{path}: {e}") from e
        self.functions: dict[str, ast.AST] = {}
        self.methods: dict[str, ast.AST] = {}
        self.values: dict[str, ast.AST] = {}
        scenarios = None
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                self.functions[node.name] = node
            elif isinstance(node, ast.ClassDef) and node.name == "Scenario":
                self.methods = {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        self.values[t.id] = node.value
                        if t.id == "SCENARIOS":
                            scenarios = node.value
        if not isinstance(scenarios, ast.Dict):
            raise BadInput(f"{path}: no SCENARIOS dict")
        # scenario: (its check function, the KIND:NAME it claims)
        self.scenarios: dict[str, tuple[str, list[str]]] = {}
        for key, value in zip(scenarios.keys, scenarios.values):
            if not (isinstance(key, ast.Constant) and isinstance(value, ast.Call) and value.args
                    and isinstance(value.args[0], ast.Name)):
                raise BadInput(f"{path}:{value.lineno}: a SCENARIOS entry this check cannot read")
            shows: list[str] = []
            for kw in value.keywords:
                if kw.arg == "shows":
                    try:
                        shows = list(ast.literal_eval(kw.value))
                    except ValueError as e:
                        raise BadInput(f"{path}:{kw.value.lineno}: shows= is not a literal") \
                            from e
            self.scenarios[key.value] = (value.args[0].id, shows)

    def strings(self, check: str) -> set[str]:
        """The string constants of the check and of every function, Scenario
        method and module-level value it reaches."""
        seen: set[int] = set()
        todo = [self.functions[check]] if check in self.functions else []
        found: set[str] = set()
        while todo:
            node = todo.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            for sub in ast.walk(node):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    found.add(sub.value)
                elif isinstance(sub, ast.Name):
                    for table in (self.functions, self.values):
                        if sub.id in table:
                            todo.append(table[sub.id])
                elif isinstance(sub, ast.Attribute) and sub.attr in self.methods:
                    todo.append(self.methods[sub.attr])
        return found


def not_shown(path: Path) -> dict[str, tuple[str, str]]:
    """docs/scenarios/README.md's table of the names no scenario shows:
    KIND:NAME -> (why, evidence)."""
    text = read(path)
    if NOT_SHOWN_HEADING not in text:
        raise BadInput(f"{path}: no section '{NOT_SHOWN_HEADING}'")
    section = text.split(NOT_SHOWN_HEADING, 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = re.fullmatch(r"`(\w+)`", cells[0]) if len(cells) == 4 else None
        if m:
            out[f"{cells[1]}:{m.group(1)}"] = (cells[2], cells[3])
    return out


def cookbook_row(text: str, name: str) -> str | None:
    """docs/cookbook.md's table row of a reason, by its anchor."""
    anchor = f'<a id="reason-{name.lower().replace("_", "-")}"></a>'
    return next((line for line in text.splitlines() if anchor in line), None)


def check(top: Path) -> list[str]:
    """Every problem found, one line each; prints the account of each name."""
    names = names_c(top / "tools/tickstat/src/names.c")
    exp = Expectations(top / "tests/conformance/expect.py")
    readme = top / "docs/scenarios/README.md"
    listed = not_shown(readme)
    cookbook = read(top / "docs/cookbook.md")
    known = {f"{k}:{n}" for k, ns in names.items() for n in ns}
    problems = []
    claims: dict[str, list[str]] = {}
    for scen, (fn, shows) in exp.scenarios.items():
        if fn not in exp.functions:
            problems.append(f"scenario {scen}: its check {fn} is not a function of expect.py")
            continue
        for f in (f"tests/conformance/scenarios/{scen}.sh", f"docs/scenarios/{scen}.md"):
            if not (top / f).is_file():
                problems.append(f"scenario {scen}: no {f}")
        strings = exp.strings(fn)
        for claim in shows:
            if claim not in known:
                problems.append(f"scenario {scen} claims {claim}, which names.c does not name "
                                f"(KIND:NAME, KIND one of {', '.join(TABLES)})")
            elif claim.split(":", 1)[1] not in strings:
                problems.append(f"scenario {scen} claims {claim}, but {fn} never names it")
            else:
                claims.setdefault(claim, []).append(scen)
    for claim in listed:
        if claim not in known:
            problems.append(f"{readme.name} lists {claim} as not shown; names.c does not name it")
    for kind, ns in names.items():
        for n in ns:
            claim = f"{kind}:{n}"
            if claim in claims and claim in listed:
                problems.append(f"{claim}: shown by {', '.join(claims[claim])}, and yet listed "
                                f"in {readme.name} as not shown")
            elif claim in claims:
                print(f"ok {claim}: {', '.join(claims[claim])}")
            elif claim in listed:
                why, evidence = listed[claim]
                if not why or not evidence:
                    problems.append(f"{claim}: listed in {readme.name} without a reason and "
                                    f"its source")
                    continue
                row = cookbook_row(cookbook, n) if kind != "sched" else ""
                if row is not None and kind != "sched" and "scenarios/README.md" not in row:
                    problems.append(f"{claim}: docs/cookbook.md's row does not link "
                                    f"docs/scenarios/README.md, which says why no scenario shows it")
                elif row is None:
                    problems.append(f"{claim}: docs/cookbook.md has no row for it")
                else:
                    print(f"ok {claim}: not shown here: {why}")
            else:
                problems.append(f"{claim}: no scenario asserts it (shows= in expect.py's "
                                f"SCENARIOS) and {readme.name} does not say why none can")
    return problems


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--top", type=Path, default=Path(__file__).resolve().parents[1],
                   help="the source tree (default: this repository)")
    opts = p.parse_args()
    try:
        problems = check(opts.top)
    except BadInput as e:
        print(f"check_scenario_names: {e}", file=sys.stderr)
        return 2
    for line in problems:
        print(f"FAIL {line}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
