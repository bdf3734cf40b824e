#!/usr/bin/python3
"""Run the shell examples of README.md, docs/ and the man pages on the fixtures.

What is extracted:
  - Markdown (README.md, docs/**/*.md): fenced blocks marked ```sh (every
    line a command, `\\` continues it, `#` starts a comment) and ```console
    (lines `$ COMMAND`, the lines after it a sample of its output);
  - man pages (tools/*/man/*.1): the .EX blocks of EXAMPLES, with `$ ` (a
    user's command, output after it) or `# ` (root's) as the prompt;
  - commands in the text of the Markdown (`tickplot compare before.json
    after.json -o c.png`) that name a file the fixtures stand for.

What runs: a command of tickstat report, check or doctor that reads a file,
tickplot, or trace-cmd report, whose input files are fixtures.  The examples
name the files a reader would have (run.dat, trace.dat, before.json...); the
docs say which of those the tests run on (docs/tickstat.md, "Examples"),
and FIXTURES below maps each name to a recording of tests/fixtures/ or to a
file made from one.  Each block runs in order in a fresh directory holding
those files (and tests/, tools/ of the tree), so that a block can read what
its earlier commands wrote.  A command fails on an exit status other than
its command's success (check: 0 or 2, doctor: 0 or 1, others 0), or on a
line on stderr that is not a warning or a note.  The output shown after a
`$ ` prompt must appear in what the command prints, in order (`...` or a
line ending in ` ...` elides).

Nothing is skipped silently: every command is listed, run or excluded with
the reason (EXCLUDED: what needs a live kernel, root, a build or a change to
this machine).  A command of the tools that reads a file no fixture stands
for, a command of a program nobody classified, or a command outside a sh or
console block is an error, so that a new example is either run or excluded
on purpose.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

TOP = Path(__file__).resolve().parents[1]
TIMEOUT = 120

# the file names the examples use, and what the tests put there: a fixture,
# or the output of a tickstat command run on one ({x} for the fixture)
FIXTURES = {
    "run.dat": "tests/fixtures/patched.dat",
    "why.dat": "tests/fixtures/patched.dat",
    "app.dat": "tests/fixtures/patched.dat",
    "trace.dat": "tests/fixtures/patched-trace-cmd.dat",
    "stock.dat": "tests/fixtures/stock.dat",
    "before.dat": "tests/fixtures/stock.dat",
    "after.dat": "tests/fixtures/patched.dat",
}
# files made from the fixtures before a block runs: name -> tickstat arguments
MADE = {
    "run.json": ["report", "--json=run.json", "run.dat"],
    "run.csv": ["report", "--csv", "run.csv", "run.dat"],
    "before.json": ["report", "--json=before.json", "before.dat"],
    "after.json": ["report", "--json=after.json", "after.dat"],
}
# absolute output paths of the examples, written in the block's directory instead
REWRITE = {
    "/var/lib/prometheus/node-exporter/": "./",
}

# (pattern on the command, reason): commands the test does not run, on purpose
EXCLUDED = [
    (r"^(make|nice|apt|apt-get|dpkg|dpkg-buildpackage)\b",
     "builds, installs or boots: make check runs these targets itself"),
    (r"^(guest-image/run-guest|tests/conformance/run|scripts/)",
     "boots a guest or builds a kernel"),
    (r"^(systemctl|cp .* /etc/|echo .*> ?/proc/|sysctl|grubby|update-grub)\b",
     "changes this machine's configuration"),
    (r"^(tickstat|tools/tickstat/tickstat) (record|monitor|top)\b",
     "records this machine's kernel (root, tracefs)"),
    (r"^trace-cmd record\b", "records this machine's kernel (root, tracefs)"),
    (r"^tickstat check\b.* -- ", "records this machine's kernel (root, tracefs)"),
    (r"^tickstat doctor(?!.*(--root|\.dat))", "audits this machine: its findings are this host's"),
    (r"^echo \$\?", "shows the previous command's exit status"),
    (r"^(cat|grep|ls|uname|mount|cat) .*/(proc|sys)/", "reads this machine's configuration"),
    (r"^(cat|grep) /proc/cmdline|^(grep|zgrep) .*(/boot/config|/proc/config)|^lscpu\b",
     "reads this machine's configuration"),
    (r"^[A-Z_][A-Z0-9_]*=", "a configuration file's line (an EnvironmentFile's setting)"),
    (r"^tickstat doctor .*run\.dat",
     "needs a recording with an audit; tests/host/doctor-recording.test makes and checks one"),
]

# options of tickstat that take a value (the operand is what is left)
TICKSTAT_VALUE_OPTS = {
    "-C", "--cpus", "--nohz-full", "--time-range", "--csv", "--top", "--junit", "-o",
    "--output", "--min-success-rate", "--min-busy-tickless", "--min-idle-tickless",
    "--min-tickless", "--max-tick-rate", "--forbid", "--max-unknown", "--root", "--fail-on",
    "-d", "--duration", "-b", "--buffer-kb", "-e", "--event", "--probes",
}
ALLOWED_EXIT = {"check": {0, 2}, "doctor": {0, 1}}


@dataclass
class Command:
    source: str             # file:line
    text: str               # as run (one line, continuations joined)
    output: list = field(default_factory=list)   # the sample shown after it


@dataclass
class Block:
    source: str
    commands: list


def md_blocks(path: Path, top: Path) -> list:
    """The sh and console blocks of a Markdown file; a tool's command in any
    other block is returned as a block of its own, to be refused."""
    rel = str(path.relative_to(top))
    lines = path.read_text().splitlines()
    blocks, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            blocks += inline_commands(rel, i + 1, lines[i])
            i += 1
            continue
        lang, start, body = m.group(1), i + 1, []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        if lang in ("sh", "bash", "shell"):
            blocks.append(Block(f"{rel}:{start}", sh_commands(rel, start, body)))
        elif lang == "console":
            blocks.append(Block(f"{rel}:{start}", prompt_commands(rel, start, body, ("$ ",))))
        else:
            for n, ln in enumerate(body):
                if re.match(r"^\s*(\$ )?(tickstat (record|report|check|monitor|doctor|top)"
                            r"|(tools/tickplot/)?tickplot \w+) ", ln):
                    blocks.append(Block(f"{rel}:{start + n + 1}",
                                        [Command(f"{rel}:{start + n + 1}", "?" + ln)]))
    return blocks


def inline_commands(rel: str, n: int, line: str) -> list:
    """`tickstat report run.dat` in the text: a whole command of a tool that
    names a file the fixtures stand for runs like a block's (a fragment such
    as `tickstat report FILE` names none)."""
    blocks = []
    for m in re.finditer(r"`((tickstat (report|check|doctor)|(tools/tickplot/)?tickplot "
                         r"(summary|timeline|reasons|durations|compare)) [^`]*)`", line):
        text = m.group(1)
        if any(w in FIXTURES or w in MADE or w.startswith("tests/fixtures/")
               for w in text.split()):
            blocks.append(Block(f"{rel}:{n}", [Command(f"{rel}:{n}", text)]))
    return blocks


def sh_commands(rel: str, start: int, body: list) -> list:
    """Every line a command; a trailing backslash continues it; comments dropped."""
    cmds, cur, first = [], "", 0
    for n, ln in enumerate(body):
        if not cur:
            first = start + n + 1
        if ln.rstrip().endswith("\\"):
            cur += ln.rstrip()[:-1] + " "
            continue
        cur += ln
        text = strip_comment(cur)
        if text:
            cmds.append(Command(f"{rel}:{first}", text))
        cur = ""
    return cmds


def strip_comment(text: str) -> str:
    """The command without its trailing comment (a # outside quotes, after a space)."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i].strip()
    return text.strip()


def prompt_commands(rel: str, start: int, body: list, prompts: tuple) -> list:
    """Lines after a prompt are commands (backslash continues), the rest their output."""
    cmds, i = [], 0
    while i < len(body):
        ln = body[i]
        prompt = next((p for p in prompts if ln.startswith(p)), None)
        if prompt is None:
            if cmds:
                cmds[-1].output.append(ln)
            i += 1
            continue
        first, text = start + i + 1, ln[len(prompt):]
        while text.rstrip().endswith("\\") and i + 1 < len(body):
            i += 1
            text = text.rstrip()[:-1] + " " + body[i].strip()
        cmds.append(Command(f"{rel}:{first}", strip_comment(text)))
        i += 1
    return cmds


def unroff(line: str) -> str:
    return (line.replace("\\-", "-").replace("\\e", "\\").replace("\\&", "")
            .replace("\\(aq", "'").replace("\\(dq", '"'))


def man_blocks(path: Path, top: Path) -> list:
    """The .EX blocks of a man page's EXAMPLES: `$ ` and `# ` prompts; a block
    without a prompt is a command when it starts with a tool's name."""
    rel = str(path.relative_to(top))
    lines = path.read_text().splitlines()
    blocks, in_examples, i = [], False, 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith(".SH"):
            in_examples = bool(re.match(r'^\.SH "?EXAMPLES?"?$', ln))
        if not (in_examples and ln == ".EX"):
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and lines[i] != ".EE":
            body.append(unroff(lines[i]))
            i += 1
        src = f"{rel}:{start + 1}"
        if body and body[0].startswith("$ "):
            blocks.append(Block(src, prompt_commands(rel, start, body, ("$ ",))))
        elif body and body[0].startswith("# "):
            blocks.append(Block(src, prompt_commands(rel, start, body, ("# ",))))
        elif body and re.match(r"^(tickstat|tickplot|trace-cmd) ", body[0]):
            blocks.append(Block(src, sh_commands(rel, start, body)))
        else:
            blocks.append(Block(src, [Command(src, "", body)]))    # not a shell command
    return blocks


def inputs_of(words: list) -> Optional[list]:
    """The files a command reads, or None when it is not one of the tools'."""
    prog = os.path.basename(words[0])
    if prog == "tickstat" and (len(words) == 1 or words[1] in ("help", "-h", "--help", "-V",
                                                               "--version")):
        return []      # reads no file: runs as it is
    if prog == "tickstat" and len(words) > 1 and words[1] in ("report", "check", "doctor"):
        ops, skip = [], False
        for w in words[2:]:
            if skip:
                skip = False
            elif w in TICKSTAT_VALUE_OPTS:
                skip = True
            elif not w.startswith("-"):
                ops.append(w)
        return ops
    if prog == "tickplot":
        ops, take = [], False
        for w in words[2:]:
            if take:
                ops.append(w)
                take = False
            elif w in ("--json", "--csv"):
                take = True
            elif w in ("-o", "--output", "--labels"):
                take = None
            elif take is None:
                take = False
            elif not w.startswith("-"):
                ops.append(w)
        return ops
    if prog == "trace-cmd" and len(words) > 2 and words[1] == "report":
        return [w for w in words[2:] if not w.startswith("-")]
    return None


def classify(text: str) -> tuple:
    """('run', None), ('excluded', reason) or ('error', why)."""
    if text.startswith("?"):
        return "error", "a tool's command outside a ```sh or ```console block"
    if not text:
        return "excluded", "not a shell command (PromQL, a configuration)"
    for pattern, reason in EXCLUDED:
        if re.search(pattern, text):
            return "excluded", reason
    first = text.split("|")[0]
    try:
        words = shlex.split(first.split(">")[0])
    except ValueError as e:
        return "error", f"does not parse as a shell command: {e}"
    if re.search(r"\[[^\]]*\]", first) and not re.search(r"'[^']*\[", first):
        return "error", "a synopsis ([OPTIONAL] parts), not a command: write a real one"
    ins = inputs_of(words)
    if ins is None:
        return "error", ("a program the test does not know: run it (add it to inputs_of) "
                         "or exclude it on purpose (EXCLUDED)")
    missing = [f for f in ins if f not in FIXTURES and f not in MADE
               and not f.startswith("tests/fixtures/")]
    if missing:
        return "error", (f"reads {', '.join(missing)}, which no fixture stands for "
                         "(name a file of FIXTURES, or exclude it on purpose)")
    return "run", None


def seed(d: Path, tickstat: Path) -> None:
    for name, fixture in FIXTURES.items():
        shutil.copy(TOP / fixture, d / name)
    for sub in ("tests", "tools"):
        (d / sub).symlink_to(TOP / sub)
    for name, args in MADE.items():
        r = subprocess.run([str(tickstat), *args], cwd=d, capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError(f"making {name}: {r.stderr.strip()}")


def shown_in(shown: list, out: str) -> Optional[str]:
    """None when the sample lines appear in out in order, else the first that does not."""
    got = out.splitlines()
    j = 0
    for want in shown:
        w = want.rstrip()
        if w.strip() in ("...", "…"):
            continue
        prefix = w[:-4] if w.endswith(" ...") else None
        while j < len(got) and not (got[j].rstrip() == w or
                                    (prefix is not None and got[j].startswith(prefix))):
            j += 1
        if j == len(got):
            return want
        j += 1
    return None


def run_command(cmd: Command, d: Path, env: dict) -> Optional[str]:
    """None when it ran as documented, else what went wrong."""
    text = cmd.text
    for old, new in REWRITE.items():
        text = text.replace(old, new)
    words = shlex.split(text.split("|")[0].split(">")[0])
    sub = words[1] if len(words) > 1 else ""
    allowed = ALLOWED_EXIT.get(sub, {0}) if os.path.basename(words[0]) == "tickstat" else {0}
    try:
        r = subprocess.run(["bash", "-o", "pipefail", "-c", text], cwd=d, env=env,
                           capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"no answer in {TIMEOUT} s"
    errors = [ln for ln in r.stderr.splitlines()
              if ln.strip() and not re.search(r"\b(warning|note):", ln)]
    if r.returncode not in allowed:
        return f"exit {r.returncode} (want {sorted(allowed)}); stderr: {r.stderr.strip()[:300]}"
    if errors:
        return f"stderr: {' | '.join(errors)[:300]}"
    if cmd.output:
        missing = shown_in(cmd.output, r.stdout)
        if missing is not None:
            return f"the output shown is stale: {missing.strip()!r} is not in what it prints"
    return None


def sources(top: Path) -> list:
    md = [top / "README.md"] + sorted((top / "docs").rglob("*.md"))
    man = sorted(top.glob("tools/*/man/*.1"))
    return [(p, md_blocks) for p in md] + [(p, man_blocks) for p in man]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tickstat", type=Path, default=TOP / "build/tools/tickstat/tickstat")
    ap.add_argument("--min-run", type=int, default=20,
                    help="fewer commands run than this is a failure (the extractor broke)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every command")
    ap.add_argument("--docs", type=Path, default=TOP,
                    help="the tree whose README.md, docs/ and tools/*/man/ to read "
                         "(the fixtures and tools are this checkout's)")
    ap.add_argument("--only", metavar="FILE", help="only this file of the tree (README.md, "
                    "docs/tickplot.md...): the planted-example tests")
    args = ap.parse_args()
    if not args.tickstat.exists():
        print(f"FAIL: {args.tickstat} is not built", file=sys.stderr)
        return 1
    env = dict(os.environ)
    env["PATH"] = f"{args.tickstat.parent}:{TOP / 'tools/tickplot'}:{env['PATH']}"
    failures, ran, excluded = [], [], {}
    with tempfile.TemporaryDirectory(prefix="doc-examples-") as tmp:
        env["MPLCONFIGDIR"] = tmp
        for n, (path, extract) in enumerate(sources(args.docs)):
            if args.only and path != args.docs / args.only:
                continue
            for k, block in enumerate(extract(path, args.docs)):
                d = Path(tmp, f"{n}-{path.name}-{k}")
                d.mkdir()
                seeded = False
                for cmd in block.commands:
                    what, why = classify(cmd.text)
                    if what == "excluded":
                        excluded.setdefault(why, []).append(cmd)
                        continue
                    if what == "error":
                        failures.append(f"{cmd.source}: {cmd.text.lstrip('?')}: {why}")
                        continue
                    if not seeded:
                        seed(d, args.tickstat)
                        seeded = True
                    why = run_command(cmd, d, env)
                    ran.append(cmd)
                    print(f"{'ok' if why is None else 'not ok'} - {cmd.source}: {cmd.text}")
                    if why:
                        failures.append(f"{cmd.source}: {cmd.text}: {why}")
    for why, cmds in excluded.items():
        print(f"# excluded, {why}: {len(cmds)}")
        for c in cmds:
            if args.verbose:
                print(f"#   {c.source}: {c.text or '(' + c.output[0][:60] + ')'}")
    if len(ran) < (1 if args.only else args.min_run):
        failures.append(f"only {len(ran)} commands ran, expected at least {args.min_run}: "
                        "the extractor missed the examples")
    for f in failures:
        print(f"FAIL: {f}", file=sys.stderr)
    print(f"{len(ran)} commands ran, {sum(map(len, excluded.values()))} excluded "
          f"({len(excluded)} reasons); {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
